// The sorting routines on the GPU (cupp/sorting.hpp), what the NumPy reference cases run through
// cupp eval (tests/conformance/make_sorting_ref.py's EVAL_CASES, tests/gpu/test_eval_ref_gpu.cpp)
// cannot reach: the script's classic cases (a view with a row step, a bfloat16 sort; the case ids
// below are the script's) with and without CUB, both sort engines (CUB and cupp's own NVRTC radix
// sort) on every dtype and agreeing with each other, the CUB launch counter (no CUB kernel when the
// accelerator is off), large random arrays against std::stable_sort on the host, NaN placement,
// stability with duplicates, odd sizes, axes, partition's contract, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sorting.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using results = std::vector<ndarray>;
using iv = std::vector<std::int64_t>;
const double nan_v = std::numeric_limits<double>::quiet_NaN();
const double inf_v = std::numeric_limits<double>::infinity();

// Restores the sort engine chosen by the environment when a test ends.
struct engine_scope {
  explicit engine_scope(std::optional<bool> use_cub) { detail::set_sort_accelerator(use_cub); }
  ~engine_scope() { detail::set_sort_accelerator(std::nullopt); }
};

ndarray shaped(const ndarray& flat, std::initializer_list<std::int64_t> shape) {
  return flat.reshape(std::span<const std::int64_t>(shape.begin(), shape.size()));
}
std::int64_t count(std::initializer_list<std::int64_t> shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
// The script's sc(shape, dtype): ((i * 7919) % 97 - 40), 0..96 for unsigned and bool.
ndarray sc(std::initializer_list<std::int64_t> shape, dtype t = int64) {
  const std::int64_t n = count(shape);
  const bool nonneg = t.kind() == 'u' || t.is_bool();
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>((i * 7919) % 97 - (nonneg ? 0 : 40));
  return shaped(astype(asarray(v), t), shape);
}
ndarray F(const std::vector<double>& v, dtype t = float64) { return astype(asarray(v), t); }
ndarray scalar0(double v, dtype t) { return scalar(weak_scalar(v), t); }

results one(ndarray a) { return results{std::move(a)}; }

const test::reference_cases& cases() {
  static const test::reference_cases table = {
      {"sort_2d_bf", [] { return one(astype(sort(sc({5, 6}, bfloat16), 1), float64)); }},
  };
  return table;
}

TEST(SortingGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  test::check_reference_set("sorting", cases(), [](const dtype&) { return 0.0; });
}

TEST(SortingGpu, MatchesNumPyReferenceWithoutCub) {
  CUPP_REQUIRE_GPU();
  engine_scope own(false);
  const std::uint64_t before = detail::cub_sort_launches();
  test::check_reference_set("sorting", cases(), [](const dtype&) { return 0.0; });
  EXPECT_EQ(detail::cub_sort_launches(), before) << "a CUB kernel ran with the accelerator off";
}

// NumPy's order for real values: NaN last, NaN == NaN, -0.0 == 0.0.
bool numpy_less(double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; }

// The stable order of `v` (indices) by NumPy's rules.
iv host_argsort(const std::vector<double>& v) {
  iv idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return numpy_less(v[static_cast<std::size_t>(a)], v[static_cast<std::size_t>(b)]);
  });
  return idx;
}

std::vector<double> as_doubles(const ndarray& a) { return astype(a, float64).to_vector<double>(); }

void expect_same_values(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (std::isnan(want[k])) {
      ASSERT_TRUE(std::isnan(got[k])) << what << " at " << k;
    } else {
      ASSERT_EQ(got[k], want[k]) << what << " at " << k;
    }
  }
}

const dtype real_dtypes[] = {bool_, int8,    int16,    int32,   int64,  uint8,
                             uint16, uint32, uint64, float16, bfloat16, float32, float64};

// Random values with many duplicates, a few NaN (floats) and signed zeros, of one dtype.
std::vector<double> random_values(std::size_t n, const dtype& t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    if (t.is_bool()) x = static_cast<double>(r & 1);
    else if (t.kind() == 'u') x = static_cast<double>(r % 200);
    else x = static_cast<double>(static_cast<std::int64_t>(r % 200) - 100);
    if (t.is_floating()) {
      if (r % 61 == 0) x = nan_v;
      else if (r % 67 == 0) x = -0.0;
      else if (r % 71 == 0) x = -inf_v;
      else x /= 8;
    }
  }
  return v;
}

// Both engines, every real dtype, odd sizes (one tile, many tiles, not a multiple of anything):
// argsort equals the host's stable sort, sort equals the values in that order.
TEST(SortingGpu, EveryDtypeBothEnginesAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (bool use_cub : {true, false}) {
    engine_scope engine(use_cub);
    for (const dtype& t : real_dtypes) {
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(33), std::size_t(4097), std::size_t(100003)}) {
        SCOPED_TRACE(t.name() + " n=" + std::to_string(n) + (use_cub ? " cub" : " own"));
        const std::vector<double> v0 = random_values(n, t, n + 17);
        const ndarray a = astype(asarray(v0), t);
        const std::vector<double> v = as_doubles(a);  // the values as the dtype holds them
        const iv want = host_argsort(v);
        const ndarray idx = argsort(a);
        EXPECT_EQ(idx.dtype(), int64);
        ASSERT_EQ(idx.to_vector<std::int64_t>(), want);
        std::vector<double> want_sorted(n);
        for (std::size_t k = 0; k < n; ++k) want_sorted[k] = v[static_cast<std::size_t>(want[k])];
        const ndarray s = sort(a);
        EXPECT_EQ(s.dtype(), t);
        expect_same_values(as_doubles(s), want_sorted, "sort");
        expect_same_values(as_doubles(sort(a, {.stable = true})), want_sorted, "stable sort");
      }
    }
  }
}

// The engines agree on 2-D arrays along both axes (rows packed into the key, or passes by row).
TEST(SortingGpu, EnginesAgreeAlongAxes) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : {int8, uint16, int32, float32, float64, int64, uint64, float16, complex64, complex128}) {
    SCOPED_TRACE(t.name());
    const std::vector<double> v = random_values(37 * 1001, t.is_complex() ? float64 : t, 5);
    ndarray a = astype(asarray(v), t).reshape({37, 1001});
    if (t.is_complex()) {  // real and imaginary parts with duplicates and NaN
      const std::vector<double> im = random_values(v.size(), float64, 6);
      std::vector<std::complex<double>> c(v.size());
      for (std::size_t k = 0; k < c.size(); ++k) c[k] = {v[k], std::fmod(im[k], 2.0)};
      a = astype(asarray(c), t).reshape({37, 1001});
    }
    for (int axis : {0, 1, -1}) {
      SCOPED_TRACE(axis);
      std::optional<ndarray> sort_cub, arg_cub;
      {
        engine_scope cub(true);
        const std::uint64_t before = detail::cub_sort_launches();
        sort_cub = sort(a, axis);
        arg_cub = argsort(a, axis);
        EXPECT_GT(detail::cub_sort_launches(), before);
      }
      engine_scope own(false);
      const std::uint64_t before = detail::cub_sort_launches();
      const ndarray s = sort(a, axis), g = argsort(a, axis);
      EXPECT_EQ(detail::cub_sort_launches(), before) << "a CUB kernel ran with the accelerator off";
      EXPECT_EQ(g.to_vector<std::int64_t>(), arg_cub->to_vector<std::int64_t>());
      const ndarray same = logical_or(equal(s, *sort_cub), logical_and(isnan(s), isnan(*sort_cub)));
      EXPECT_TRUE(all(same).item<bool>());
      // argsort gathers to the sorted array.
      EXPECT_TRUE(all(logical_or(equal(take_along_axis(a, g, axis), s), isnan(s))).item<bool>());
      // Each row's argsort is a permutation of 0..len-1 and stable against the host.
      if (!t.is_complex() && axis != 0) {
        const std::vector<double> row = as_doubles(a(5));
        EXPECT_EQ(g(5).to_vector<std::int64_t>(), host_argsort(row));
      }
    }
  }
}

// 2^22 float32 with NaN, duplicates and signed zeros, both engines, against the host; and a 2-D
// case whose rows need more than 32 bits beside a 64-bit key (passes by row).
TEST(SortingGpu, LargeRandom) {
  CUPP_REQUIRE_GPU();
  const std::size_t n = std::size_t(1) << 22;
  std::mt19937_64 rng(11);
  std::vector<float> v(n);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    x = r % 97 == 0 ? std::numeric_limits<float>::quiet_NaN() : r % 89 == 0 ? -0.0f : r % 5 == 0 ? std::round(u(rng)) : u(rng);
  }
  std::vector<double> vd(v.begin(), v.end());
  const iv want = host_argsort(vd);
  const ndarray a = asarray(v);
  for (bool use_cub : {true, false}) {
    SCOPED_TRACE(use_cub ? "cub" : "own");
    engine_scope engine(use_cub);
    ASSERT_EQ(argsort(a).to_vector<std::int64_t>(), want);
    const std::vector<float> s = sort(a).to_vector<float>();
    for (std::size_t k = 0; k < n; ++k) {
      const float w = v[static_cast<std::size_t>(want[k])];
      if (std::isnan(w)) ASSERT_TRUE(std::isnan(s[k])) << k;
      else ASSERT_EQ(s[k], w) << k;
    }
  }
  // int64 keys with many rows: a stable pass per key and one by row.
  std::vector<std::int64_t> w(300 * 1000);
  for (auto& x : w) x = static_cast<std::int64_t>(rng());
  const ndarray b = asarray(w).reshape({300, 1000});
  const std::vector<std::int64_t> got = sort(b).to_vector<std::int64_t>();
  for (std::size_t r = 0; r < 300; ++r) {
    std::vector<std::int64_t> row(w.begin() + static_cast<std::ptrdiff_t>(r * 1000), w.begin() + static_cast<std::ptrdiff_t>(r * 1000 + 1000));
    std::sort(row.begin(), row.end());
    ASSERT_TRUE(std::equal(row.begin(), row.end(), got.begin() + static_cast<std::ptrdiff_t>(r * 1000))) << r;
  }
}

// The plain float sort through CUB's float order: negative NaNs (CUB's first) end up last with the
// others, in both widths, at sizes around the block and tile boundaries; both engines agree.
TEST(SortingGpu, NegativeNaNsGoLast) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(5);
  const double neg_nan = -std::numeric_limits<double>::quiet_NaN();
  for (std::size_t n : {2u, 3u, 255u, 4097u, 100003u}) {
    std::vector<double> v(n);
    for (auto& x : v) {
      const std::uint64_t r = rng() % 10;
      x = r == 0 ? neg_nan : r == 1 ? nan_v : r == 2 ? -0.0 : r == 3 ? 0.0 : static_cast<double>(rng() % 2001) - 1000.0;
    }
    if (n == 3) v = {neg_nan, neg_nan, neg_nan};
    std::vector<double> finite;
    for (double x : v)
      if (!std::isnan(x)) finite.push_back(x);
    std::sort(finite.begin(), finite.end());
    for (const dtype& t : {float32, float64}) {
      for (bool use_cub : {true, false}) {
        SCOPED_TRACE(std::to_string(n) + " " + t.name() + (use_cub ? " cub" : " own"));
        engine_scope engine(use_cub);
        const std::vector<double> s = as_doubles(sort(F(v, t)));
        std::vector<double> want = finite;  // NumPy sorts NaNs (of either sign) to the end
        want.resize(n, std::nan(""));
        CUPP_ASSERT_ARRAY_EQUAL(s, want);
        // -0.0 and 0.0 keep their count (each element is kept).
        EXPECT_EQ(std::count_if(s.begin(), s.end(), [](double x) { return x == 0.0 && std::signbit(x); }),
                  std::count_if(v.begin(), v.end(), [](double x) { return x == 0.0 && std::signbit(x); }));
      }
    }
  }
}

TEST(SortingGpu, StabilityAndSignedZeros) {
  CUPP_REQUIRE_GPU();
  // Equal keys keep their order: argsort of many duplicates.
  std::vector<std::int32_t> d(10000);
  for (std::size_t k = 0; k < d.size(); ++k) d[k] = static_cast<std::int32_t>((k * 7) % 3);
  const iv idx = argsort(asarray(d)).to_vector<std::int64_t>();
  for (std::size_t k = 1; k < idx.size(); ++k) {
    const auto a = static_cast<std::size_t>(idx[k - 1]), b = static_cast<std::size_t>(idx[k]);
    ASSERT_TRUE(d[a] < d[b] || (d[a] == d[b] && a < b)) << k;
  }
  // stable=True keeps -0.0 and 0.0 in input order (NumPy's stable sort).
  const std::vector<double> z{0.0, -0.0, 1.0, -0.0, 0.0};
  const std::vector<double> s = sort(F(z), {.stable = true}).to_vector<double>();
  EXPECT_FALSE(std::signbit(s[0]));
  EXPECT_TRUE(std::signbit(s[1]));
  EXPECT_TRUE(std::signbit(s[2]));
  EXPECT_FALSE(std::signbit(s[3]));
  // The default sort puts every zero before 1.0 and keeps each element (signs included).
  const std::vector<double> s2 = sort(F(z)).to_vector<double>();
  EXPECT_EQ(std::count_if(s2.begin(), s2.begin() + 4, [](double x) { return std::signbit(x); }), 2);
  EXPECT_EQ(s2[4], 1.0);
  // NaN first, middle and last all go last.
  for (const std::vector<double>& v : {std::vector<double>{nan_v, 1, 0}, std::vector<double>{1, nan_v, 0},
                                       std::vector<double>{1, 0, nan_v}}) {
    for (const dtype& t : {float16, bfloat16, float32, float64}) {
      const std::vector<double> r = as_doubles(sort(F(v, t)));
      EXPECT_EQ(r[0], 0.0);
      EXPECT_EQ(r[1], 1.0);
      EXPECT_TRUE(std::isnan(r[2])) << t.name();
    }
  }
}

TEST(SortingGpu, PartitionContract) {
  CUPP_REQUIRE_GPU();
  const ndarray a = sc({7, 33}, float64);
  for (std::int64_t k : {0, 5, 16, 32, -1}) {
    const std::int64_t kk = k < 0 ? k + 33 : k;
    const ndarray p = partition(a, k);
    const ndarray ap = argpartition(a, k);
    EXPECT_EQ(ap.dtype(), int64);
    const ndarray pk = p(slice(), slice(kk, kk + 1));
    EXPECT_TRUE(all(less_equal(p(slice(), slice(0, kk)), pk)).item<bool>());
    EXPECT_TRUE(all(greater_equal(p(slice(), slice(kk, std::nullopt)), pk)).item<bool>());
    EXPECT_TRUE(all(equal(take_along_axis(a, ap, 1), p)).item<bool>());
    EXPECT_TRUE(all(equal(pk, sort(a)(slice(), slice(kk, kk + 1)))).item<bool>());
  }
  const ndarray p0 = partition(a, {2, 5}, 0);
  EXPECT_EQ(p0.shape()[0], 7);
  EXPECT_EQ(partition(zeros({0}, float32), 0).size(), 0);
  EXPECT_EQ(argpartition(scalar0(3, int64), 0).to_vector<std::int64_t>(), iv({0}));
}

TEST(SortingGpu, Errors) {
  CUPP_REQUIRE_GPU();
  const ndarray a = sc({2, 3}, float32);
  EXPECT_EQ(error_of<AxisError>([&] { sort(scalar0(1, float32)); }), "axis -1 is out of bounds for array of dimension 0");
  EXPECT_EQ(error_of<AxisError>([&] { sort(a, 2); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([&] { argsort(a, -3); }), "axis -3 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<ValueError>([&] { sort(a, {.kind = "bogus"}); }),
            "sort kind must be one of 'quick', 'heap', or 'stable' (got 'bogus')");
  EXPECT_THROW(sort(a, {.kind = "stable", .stable = true}), ValueError);
  EXPECT_EQ(error_of<ValueError>([&] { partition(a, 3); }), "kth(=3) out of bounds (3)");
  EXPECT_EQ(error_of<ValueError>([&] { lexsort({a, sc({3}, float32)}); }), "all keys need to be the same shape");
  EXPECT_THROW(lexsort(std::span<const ndarray>()), TypeError);
  // lexsort of 0-d keys is 0; of a 2-d keys array, its rows are the keys.
  EXPECT_EQ(lexsort({scalar0(1, int64)}).ndim(), 0);
  const ndarray keys = asarray(std::vector<std::int64_t>{1, 0, 1, 0, 0, 0}).reshape({2, 3});
  EXPECT_EQ(lexsort(keys).to_vector<std::int64_t>(), iv({1, 0, 2}));
  // Sorting leaves the input alone and gives a C-contiguous result.
  const std::vector<float> before = a.to_vector<float>();
  const ndarray s = sort(a, 0);
  EXPECT_TRUE(s.is_c_contiguous());
  EXPECT_EQ(a.to_vector<float>(), before);
}

}  // namespace
}  // namespace cupp
