// initial=, where= and ufunc.reduceat on the GPU: every case of the NumPy reference set made by
// tests/conformance/make_reduction_where_ref.py at build time (conformance/reduction_where-ref:
// the case ids below are the script's; every dtype, masks broadcast in several ways, initial,
// axis tuples, empty inputs, the nan-functions, mean/var/std, reduceat with non-increasing
// indices); then what the set lacks: reduceat's IndexError after its one read back, bfloat16,
// all-True masks agreeing with the plain reductions on both layouts and the chunked paths,
// run-to-run identity, large masked integer sums against the host, and out=.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "tolerance.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using results = std::vector<ndarray>;
using cd = std::complex<double>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
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
// M(shape): (arange(n) * 7) % 3 != 0; Z(shape): all False.
ndarray M(const shape_t& shape) {
  return not_equal(remainder(multiply(arange(count_of(shape)), 7), 3), 0).reshape(shape);
}
ndarray Z(const shape_t& shape) { return zeros(shape, bool_); }
// N(a, positions): a copy with NaN at the flat positions.
ndarray N(const ndarray& a, const std::vector<std::int64_t>& positions) {
  ndarray b = a.copy();
  put(b, asarray(positions), nan);
  return b;
}
ndarray I(const std::vector<std::int64_t>& v) { return asarray(v); }
ndarray B(const std::vector<bool>& v) { return asarray(v); }
results one(ndarray a) { return results{std::move(a)}; }

struct dtype_name {
  const char* name;
  dtype type;
};
const dtype_name dtypes[] = {{"b1", bool_},   {"i1", int8},    {"i2", int16},   {"i4", int32},   {"i8", int64},
                             {"u1", uint8},   {"u2", uint16},  {"u4", uint32},  {"u8", uint64},  {"f2", float16},
                             {"f4", float32}, {"f8", float64}, {"c8", complex64}, {"c16", complex128}};

const test::reference_cases& cases() {
  static const test::reference_cases table = [] {
    test::reference_cases t;
    const std::vector<std::int64_t> indices{0, 4, 1, 5, 5, 7};
    for (const auto& [n, d_] : dtypes) {
      const dtype d = d_;
      const std::string s(n);
      t["sum_where_" + s] = [d] { return one(sum(X({3, 4, 5}, d), {.axis = 1, .where = M({4, 1})})); };
      t["sum_initial_" + s] = [d] { return one(sum(X({3, 4}, d), {.axis = 0, .initial = 3})); };
      t["sum_both_none_" + s] = [d] { return one(sum(X({3, 4}, d), {.initial = 2, .where = M({3, 4})})); };
      t["prod_where_" + s] = [d] { return one(prod(X({3, 4, 2}, d), {.axis = {0, 2}, .where = M({3, 1, 2})})); };
      t["prod_initial_" + s] = [d] { return one(prod(X({2, 3}, d), {.axis = 1, .keepdims = true, .initial = 2})); };
      t["max_where_" + s] = [d] {
        return one(max(X({3, 4, 5}, d), {.axis = {0, 2}, .initial = 1, .where = M({3, 1, 5})}));
      };
      t["min_where_" + s] = [d] { return one(min(X({3, 5}, d), {.axis = -1, .initial = 7, .where = M({5})})); };
      t["max_initial_" + s] = [d] { return one(max(X({4, 3}, d), {.axis = 0, .initial = 4})); };
      t["max_none_" + s] = [d] { return one(max(X({0, 3}, d), {.axis = 0, .initial = 2})); };
      t["min_allmasked_" + s] = [d] { return one(min(X({2, 3}, d), {.axis = 1, .initial = 5, .where = Z({2, 3})})); };
      t["all_where_" + s] = [d] { return one(all(X({3, 4}, d), {.axis = 0, .where = M({3, 4})})); };
      t["any_where_" + s] = [d] { return one(any(X({3, 4}, d), {.axis = 1, .where = M({1, 4})})); };
      t["mean_where_" + s] = [d] {
        return one(mean(X({3, 4}, d), {.axis = 1, .where = B({true, false, true}).reshape({3, 1})}));
      };
      t["reduceat_add_" + s] = [d, indices] { return one(add.reduceat(X({8, 3}, d), I(indices), {.axis = 0})); };
      t["reduceat_max_" + s] = [d, indices] { return one(maximum.reduceat(X({3, 8}, d), I(indices), {.axis = -1})); };
      t["reduceat_mul_" + s] = [d] { return one(multiply.reduceat(X({8}, d), astype(I({1, 3, 0, 7}), int32))); };
      t["reduceat_min_" + s] = [d] { return one(minimum.reduceat(X({2, 8, 2}, d), I({6, 2}), {.axis = 1})); };
    }
    // ---- where: broadcasting and layouts
    t["sum_where_0d"] = [] { return one(sum(X({2, 3}), {.where = B({false}).reshape(shape_t{})})); };
    t["sum_where_keepdims"] = [] {
      return one(sum(X({2, 3, 4}), {.axis = {0, 2}, .keepdims = true, .where = M({3, 1})}));
    };
    t["sum_where_transposed"] = [] { return one(sum(X({4, 6}).T(), {.axis = 1, .where = M({6, 4})})); };
    t["sum_where_strided"] = [] {
      return one(sum(X({6, 8})(slice(none, none, 2), slice(1, none, 3)), {.axis = 0, .where = M({3, 1})}));
    };
    t["sum_where_long_rows"] = [] { return one(sum(X({3, 5000}), {.axis = 1, .initial = 1, .where = M({5000})})); };
    t["sum_where_long_all"] = [] { return one(sum(X({200000}, float32), {.where = M({200000})})); };
    t["sum_where_long_i8"] = [] { return one(sum(X({300000}, int64), {.initial = -7, .where = M({300000})})); };
    t["max_where_long_columns"] = [] {
      return one(max(X({5000, 40}), {.axis = 0, .initial = -100, .where = M({5000, 40})}));
    };
    t["max_where_long_rows"] = [] {
      return one(max(X({7, 30000}, float32), {.axis = 1, .initial = -100, .where = M({7, 30000})}));
    };
    t["min_where_sparse"] = [] {
      return one(min(X({100000}), {.initial = 100, .where = equal(remainder(arange(100000), 9973), 5)}));
    };
    t["prod_where_shifted_f8"] = [] { return one(prod(add(divide(X({5, 6}), 4), 1), {.axis = 0, .where = M({5, 6})})); };
    t["sum_where_c16_cols"] = [] {
      return one(sum(multiply(X({40, 64}, complex128), cd(1, -2)), {.axis = 0, .where = M({40, 1})}));
    };
    // ---- initial and empty inputs
    t["sum_empty_initial"] = [] { return one(sum(X({2, 0}), {.axis = 1, .initial = 4})); };
    t["sum_empty_where"] = [] { return one(sum(X({0, 3}), {.axis = 0, .where = M({0, 3})})); };
    t["prod_empty_initial"] = [] { return one(prod(X({0, 2}, int32), {.axis = 0, .initial = 3})); };
    t["max_empty_initial_1d"] = [] { return one(max(X({0}), {.initial = 2.5})); };
    t["max_empty_out"] = [] { return one(max(X({0, 3}), {.axis = 1, .initial = 2})); };
    t["min_empty_axis1"] = [] { return one(min(X({3, 0}, int16), {.axis = 1, .initial = -1})); };
    t["sum_initial_fraction_f2"] = [] { return one(sum(X({4, 3}, float16), {.axis = 0, .initial = 0.1})); };
    t["sum_initial_dtype"] = [] { return one(sum(X({3, 4}, int8), {.axis = 1, .dtype = int8, .initial = 100})); };
    t["max_initial_nan"] = [] { return one(max(N(X({2, 3}), {1}), {.axis = 1, .initial = 0})); };
    t["logical_and_initial"] = [] { return one(logical_and.reduce(X({2, 3}, bool_), {.axis = 1, .initial = false})); };
    t["subtract_where_initial"] = [] { return one(subtract.reduce(X({5}), {.initial = 10, .where = M({5})})); };
    t["maximum_reduce_where"] = [] {
      return one(maximum.reduce(X({4, 5}, int64), {.axis = axes::none(), .initial = -50, .where = M({4, 5})}));
    };
    t["bitwise_and_where"] = [] { return one(bitwise_and.reduce(X({3, 4}, uint8), {.axis = 0, .where = M({3, 4})})); };
    // ---- the nan-functions
    t["nansum_where"] = [] { return one(nansum(N(X({3, 4}), {0, 5, 6}), {.axis = 1, .where = M({3, 4})})); };
    t["nansum_initial"] = [] { return one(nansum(N(X({3, 4}, float32), {0, 5}), {.axis = 0, .initial = 1})); };
    t["nanprod_where"] = [] { return one(nanprod(N(X({3, 4}), {2, 7}), {.axis = 1, .initial = 2, .where = M({4})})); };
    t["nanmax_where"] = [] {
      return one(nanmax(N(X({3, 4}), {0, 1, 2, 3}), {.axis = 1, .initial = -1, .where = M({3, 4})}));
    };
    t["nanmin_initial"] = [] { return one(nanmin(N(X({2, 4}), {0, 1, 2, 3}), {.axis = 1, .initial = 9})); };
    t["nanmean_where"] = [] { return one(nanmean(N(X({3, 4}), {1, 5}), {.axis = 1, .where = M({3, 4})})); };
    t["nanmean_where_none"] = [] { return one(nanmean(N(X({3, 4}, float32), {1, 5}), {.where = M({3, 4})})); };
    t["nansum_int_where"] = [] { return one(nansum(X({3, 4}, int16), {.axis = 0, .initial = 5, .where = M({3, 4})})); };
    // ---- mean, var, std with where
    t["mean_where_none"] = [] { return one(mean(X({3, 4}), {.where = M({3, 4})})); };
    t["mean_where_cols_f2"] = [] { return one(mean(X({4, 3}, float16), {.axis = 0, .where = M({4, 3})})); };
    t["mean_where_allmasked"] = [] { return one(mean(X({2, 3}, int32), {.axis = 0, .where = Z({3})})); };
    t["mean_where_keepdims"] = [] {
      return one(mean(X({2, 3, 4}, float32), {.axis = {0, 2}, .keepdims = true, .where = M({3, 4})}));
    };
    t["var_where"] = [] { return one(var(X({3, 5}), {.axis = 1, .where = M({3, 5})})); };
    t["var_where_ddof"] = [] { return one(var(X({4, 6}), {.axis = 0, .ddof = 1, .where = M({4, 6})})); };
    t["var_where_none_i4"] = [] { return one(var(X({3, 4}, int32), {.where = M({3, 4})})); };
    t["var_where_f4"] = [] { return one(var(X({5, 4}, float32), {.axis = 0, .where = M({5, 1})})); };
    t["var_where_c16"] = [] {
      const ndarray a = add(multiply(X({3, 4}, complex128), cd(1, 1)), cd(0, 2));
      return one(var(a, {.axis = 1, .where = M({3, 4})}));
    };
    t["var_where_few"] = [] {
      return one(var(X({2, 3}), {.axis = 1, .where = B({true, false, false, false, false, false}).reshape({2, 3})}));
    };
    t["std_where"] = [] { return one(std_(X({3, 5}), {.axis = 0, .keepdims = true, .where = M({3, 5})})); };
    t["nanvar_where"] = [] { return one(nanvar(N(X({3, 5}), {0, 7}), {.axis = 1, .where = M({3, 5})})); };
    t["nanstd_where_ddof"] = [] {
      return one(nanstd(N(X({4, 5}), {0, 7, 8}), {.axis = 0, .ddof = 1, .where = M({4, 5})}));
    };
    // ---- reduceat
    t["reduceat_1d"] = [] { return one(add.reduceat(X({8}, int64), I({0, 4, 1, 5}))); };
    t["reduceat_bool_add"] = [] { return one(add.reduceat(X({6}, bool_), I({0, 2, 3}))); };
    t["reduceat_f2_add"] = [] { return one(add.reduceat(X({9}, float16), I({0, 3, 8}))); };
    t["reduceat_dtype"] = [] { return one(add.reduceat(X({8}, int32), I({0, 4, 1}), {.dtype = float64})); };
    t["reduceat_dtype_i1"] = [] {
      return one(add.reduceat(multiply(X({8}, int32), 30), I({0, 6}), {.dtype = int8}));
    };
    t["reduceat_last_equal"] = [] { return one(add.reduceat(X({5, 2}), I({4, 4, 0}), {.axis = 0})); };
    t["reduceat_all_same"] = [] { return one(add.reduceat(X({5}), I({2, 2, 2}))); };
    t["reduceat_empty_indices"] = [] { return one(add.reduceat(X({5, 2}), I({}), {.axis = 0})); };
    t["reduceat_empty_other"] = [] { return one(add.reduceat(X({2, 0}), I({0, 1}), {.axis = 0})); };
    t["reduceat_3d_axis1"] = [] { return one(add.reduceat(X({3, 7, 4}, float32), I({0, 3, 2, 6}), {.axis = 1})); };
    t["reduceat_transposed"] = [] { return one(add.reduceat(X({4, 9}).T(), I({0, 5, 3}), {.axis = 0})); };
    t["reduceat_strided"] = [] {
      return one(multiply.reduceat(X({10, 6})(slice(none, none, 2), slice(none, none, -1)), I({1, 0, 3}), {.axis = 1}));
    };
    t["reduceat_c16_mul"] = [] {
      return one(multiply.reduceat(multiply(X({6}, complex128), cd(1, 1)), I({0, 2, 5, 1})));
    };
    t["reduceat_logical_or"] = [] { return one(logical_or.reduceat(X({6, 2}, bool_), I({0, 3, 3, 1}))); };
    t["reduceat_bitwise_xor"] = [] { return one(bitwise_xor.reduceat(X({7}, uint16), I({0, 3, 6}))); };
    t["reduceat_long"] = [] { return one(add.reduceat(X({20000}, int64), arange(0, 20000, 37))); };
    t["reduceat_long_f8"] = [] {
      return one(add.reduceat(X({5000, 3}), arange(0, 5000, 250)(slice(none, none, -1)), {.axis = 0}));
    };
    t["reduceat_bool_idx"] = [] { return one(add.reduceat(X({4}), B({true, false, true}))); };
    return t;
  }();
  return table;
}

double tolerance(const dtype& t) {
  return test::tolerance_of(t, {.float16 = 2e-3, .bfloat16 = 2e-3, .float32 = 1e-5, .float64 = 1e-12});
}

TEST(ReductionWhereGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  test::check_reference_set("reduction_where", cases(), tolerance);
}

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
      const auto plus = sum(a, {.axis = ax, .initial = 5}).to_vector<std::int64_t>();
      const auto plain = sum(a, {.axis = ax}).to_vector<std::int64_t>();
      ASSERT_EQ(plus.size(), plain.size());
      for (std::size_t i = 0; i < plus.size(); ++i) EXPECT_EQ(plus[i], plain[i] + 5);
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
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t s = 11;
    for (std::int64_t c = 0; c < cols; ++c)
      if (mask[static_cast<std::size_t>(c)]) s += values[static_cast<std::size_t>(r * cols + c)];
    EXPECT_EQ(got[static_cast<std::size_t>(r)], s) << "row " << r;
    total += s - 11;
  }
  EXPECT_EQ(got_all, total);
  // Columns: a mask broadcast along the reduced axis.
  const ndarray mt = asarray(mask).reshape({cols, 1});
  const auto col = sum(a.T(), {.axis = 0, .where = mt}).to_vector<std::int64_t>();
  for (std::int64_t r = 0; r < rows; ++r) EXPECT_EQ(col[static_cast<std::size_t>(r)], got[static_cast<std::size_t>(r)] - 11);
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
