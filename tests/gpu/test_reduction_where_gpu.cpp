// initial=, where= and ufunc.reduceat on the GPU. The NumPy reference cases of
// tests/conformance/make_reduction_where_ref.py (every dtype, masks broadcast in several ways,
// initial, axis tuples, empty inputs, the nan-functions, mean/var/std, reduceat with
// non-increasing indices) are its EVAL_CASES, run through cupp eval's engine by
// tests/gpu/test_eval_ref_gpu.cpp (strided views included: a[::2, 1::3]); here is what the set
// lacks: reduceat's IndexError after its one read back, bfloat16, all-True masks agreeing with the plain
// reductions on both layouts and the chunked paths, run-to-run identity, large masked integer sums
// against the host, and out=.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using test::error_of;
const std::nullopt_t none = std::nullopt;

std::int64_t count_of(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
// The script's X(shape, dtype): ((arange(n) * 37) % 101 / 7 - 5) for signed, float and complex
// dtypes, (arange(n) * 37) % 101 % 13 for unsigned ones and bool; reshaped and cast.
ndarray X(const shape_t& shape, dtype type = float64) {
  const ndarray k = remainder(multiply(arange(count_of(shape)), 37), 101);
  const bool small = type.kind() == 'u' || type.kind() == 'b';
  const ndarray v = small ? remainder(k, 13) : subtract(divide(k, 7.0), 5);
  return astype(v.reshape(shape), type);
}
// M(shape): (arange(n) * 7) % 3 != 0.
ndarray M(const shape_t& shape) {
  return not_equal(remainder(multiply(arange(count_of(shape)), 7), 3), 0).reshape(shape);
}
ndarray I(const std::vector<std::int64_t>& v) { return asarray(v); }

// reduceat's data-dependent error: NumPy's message with the first bad index in order, raised
// after the kernel; out= is left as it was.
TEST(ReductionWhereGpu, ReduceatIndexErrors) {
  CUPP_REQUIRE_GPU();
  const ndarray a = X({5});
  EXPECT_EQ(error_of<IndexError>([&] { add.reduceat(a, I({0, 7})); }), "index 7 out-of-bounds in add.reduceat [0, 5)");
  EXPECT_EQ(error_of<IndexError>([&] { add.reduceat(a, I({-1})); }), "index -1 out-of-bounds in add.reduceat [0, 5)");
  EXPECT_EQ(error_of<IndexError>([&] { maximum.reduceat(a, I({0, 9, -1, 5})); }),
            "index 9 out-of-bounds in maximum.reduceat [0, 5)");
  EXPECT_EQ(error_of<IndexError>([&] { add.reduceat(X({0, 3}), I({0}), {.axis = 0}); }),
            "index 0 out-of-bounds in add.reduceat [0, 0)");
  // No result elements (the other axis is empty), yet the indices are still checked, as NumPy does.
  EXPECT_EQ(error_of<IndexError>([&] { add.reduceat(X({5, 0}), I({0, 6}), {.axis = 0}); }),
            "index 6 out-of-bounds in add.reduceat [0, 5)");
  const ndarray out = full({2}, 42.0);
  EXPECT_THROW(add.reduceat(a, I({0, 5}), {.out = out}), IndexError);
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{42.0, 42.0}));
  // A large index array with one bad entry far in.
  std::vector<std::int64_t> many(100000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::int64_t>(i % 5);
  many[77777] = 5;
  many[90000] = -3;
  EXPECT_EQ(error_of<IndexError>([&] { add.reduceat(a, I(many)); }), "index 5 out-of-bounds in add.reduceat [0, 5)");
}

// A mask that selects everything gives the plain reduction (identity start aside: exact for
// integers), on rows, columns and chunked (two-pass) layouts.
TEST(ReductionWhereGpu, AllTrueMaskAgreesWithThePlainReduction) {
  CUPP_REQUIRE_GPU();
  const std::vector<shape_t> shapes = {{7, 50000}, {50000, 7}, {1000, 300}, {3, 4}, {2000000}};
  for (const shape_t& shape : shapes) {
    for (const axes& ax : {axes(), axes(0), axes(-1)}) {
      SCOPED_TRACE(::testing::Message() << shape.size() << "-d " << shape[0] << " axis " << (ax.all() ? 99 : ax.list()[0]));
      const ndarray a = X(shape, int64);
      const ndarray all_true = ones(shape, bool_);
      EXPECT_EQ(sum(a, {.axis = ax, .where = all_true}).to_vector<std::int64_t>(), sum(a, {.axis = ax}).to_vector<std::int64_t>());
      EXPECT_EQ(max(a, {.axis = ax, .initial = -1000, .where = all_true}).to_vector<std::int64_t>(),
                max(a, {.axis = ax}).to_vector<std::int64_t>());
      EXPECT_EQ(min(a, {.axis = ax, .initial = 1000}).to_vector<std::int64_t>(), min(a, {.axis = ax}).to_vector<std::int64_t>());
      // initial counts once per result, whatever the chunking.
      CUPP_EXPECT_ARRAY_EQUAL(sum(a, {.axis = ax, .initial = 5}), add(sum(a, {.axis = ax}), 5), {.strict = true});
    }
  }
}

// Large masked integer sums against the host (exact), with a random broadcast mask; the result
// is identical from run to run for floats too.
TEST(ReductionWhereGpu, LargeMaskedSumsAgainstTheHost) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  const std::int64_t rows = 64, cols = 70000;
  std::vector<std::int32_t> values(static_cast<std::size_t>(rows * cols));
  for (auto& v : values) v = static_cast<std::int32_t>(rng() % 2001) - 1000;
  std::vector<bool> mask(static_cast<std::size_t>(cols));
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = rng() % 3 == 0;
  const ndarray a = asarray(values).reshape({rows, cols});
  const ndarray m = asarray(mask);
  const auto got = sum(a, {.axis = 1, .initial = 11, .where = m}).to_vector<std::int64_t>();
  const auto got_all = sum(a, {.where = m}).item<std::int64_t>();
  std::int64_t total = 0;
  std::vector<std::int64_t> want;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t s = 11;
    for (std::int64_t c = 0; c < cols; ++c)
      if (mask[static_cast<std::size_t>(c)]) s += values[static_cast<std::size_t>(r * cols + c)];
    want.push_back(s);
    total += s - 11;
  }
  CUPP_EXPECT_ARRAY_EQUAL(got, want);
  EXPECT_EQ(got_all, total);
  // Columns: a mask broadcast along the reduced axis.
  const ndarray mt = asarray(mask).reshape({cols, 1});
  CUPP_EXPECT_ARRAY_EQUAL(sum(a.T(), {.axis = 0, .where = mt}),
                          test::tabulate(rows, [&](std::int64_t r) { return got[static_cast<std::size_t>(r)] - 11; }), {.strict = true});
  const ndarray f = astype(a, float32);
  const auto first = sum(f, {.axis = 1, .where = m}).to_vector<float>();
  for (int run = 0; run < 3; ++run) EXPECT_EQ(sum(f, {.axis = 1, .where = m}).to_vector<float>(), first);
}

// bfloat16 (NumPy has none without ml_dtypes): as the float32 computation rounded once.
TEST(ReductionWhereGpu, Bfloat16) {
  CUPP_REQUIRE_GPU();
  const ndarray a = X({6, 50}, bfloat16), m = M({6, 50});
  const ndarray s = sum(a, {.axis = 1, .initial = 1, .where = m});
  ASSERT_EQ(s.dtype(), bfloat16);
  const auto want = astype(sum(astype(a, float32), {.axis = 1, .initial = 1, .where = m}), bfloat16);
  EXPECT_EQ(astype(s, float32).to_vector<float>(), astype(want, float32).to_vector<float>());
  const ndarray mx = max(a, {.axis = 0, .initial = -100, .where = m});
  EXPECT_EQ(astype(mx, float32).to_vector<float>(),
            max(astype(a, float32), {.axis = 0, .initial = -100, .where = m}).to_vector<float>());
  const ndarray r = add.reduceat(a, I({0, 3, 1}), {.axis = 0});
  ASSERT_EQ(r.dtype(), bfloat16);
  EXPECT_EQ(astype(r, float32).to_vector<float>(),
            astype(astype(add.reduceat(astype(a, float32), I({0, 3, 1}), {.axis = 0}), bfloat16), float32).to_vector<float>());
}

// out= with where= and initial=, and with reduceat; keepdims shapes.
TEST(ReductionWhereGpu, OutAndKeepdims) {
  CUPP_REQUIRE_GPU();
  const ndarray a = X({3, 4}, int32);
  const ndarray out = full({3}, 99.0);
  const ndarray r = sum(a, {.axis = 1, .out = out, .initial = 1, .where = M({3, 4})});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), astype(sum(a, {.axis = 1, .initial = 1, .where = M({3, 4})}), float64).to_vector<double>());
  const ndarray o2 = zeros({3, 2}, int64);
  add.reduceat(a, I({0, 2}), {.axis = 1, .out = o2});
  EXPECT_EQ(o2.to_vector<std::int64_t>(), add.reduceat(a, I({0, 2}), {.axis = 1}).to_vector<std::int64_t>());
  EXPECT_THROW(add.reduceat(a, I({0, 2}), {.axis = 1, .out = zeros({2, 2}, int64)}), ValueError);
  const ndarray k = max(X({2, 3, 4}), {.axis = {0, 2}, .keepdims = true, .initial = 0, .where = M({3, 1})});
  EXPECT_EQ(shape_t(k.shape().begin(), k.shape().end()), (shape_t{1, 3, 1}));
}

}  // namespace
}  // namespace cupp
