// The statistics and logic routines on the GPU (cupp/statistics.hpp), what the NumPy reference cases
// of tests/conformance/make_statistics_ref.py (run through cupp eval's engine by
// test_eval_ref_gpu.cpp) do not reach: NumPy's errors with their messages, the result dtype for
// every input dtype (bfloat16 too), the fused isclose kernel against the composition of ufuncs,
// NaN placement, strided and broadcast views, and large random inputs against the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/statistics.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"
#include "routines/statistics/statistics_internal.hpp"

namespace cupp {
namespace {

using test::error_of;
using dv = std::vector<double>;
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const std::nullopt_t none = std::nullopt;

// The script's R(shape, dtype): ((arange(n) * 37) % 101 / 7 - 5).reshape(shape).astype(dtype).
ndarray R(std::initializer_list<std::int64_t> shape, dtype type = float64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  const ndarray v = subtract(divide(remainder(multiply(arange(n), 37), 101), 7.0), 5);
  return astype(v.reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
// F(values, dtype): an explicit array.
ndarray F(const dv& v, dtype type = float64) { return astype(asarray(v), type); }
ndarray QS() { return F({0.0, 0.1, 0.25, 0.5, 0.9, 1.0}); }
slice rev() { return slice(none, none, -1); }

const dtype all_dtypes[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                            uint64, float16, bfloat16, float32, float64, complex64, complex128};

TEST(StatisticsGpu, LogicEveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(F({1, 0, 1, 1, 1, 0}), t).reshape({2, 3});
    const ndarray c = isclose(a, a);
    EXPECT_EQ(c.dtype(), bool_);
    EXPECT_TRUE(all(c).item<bool>());
    const ndarray ac = allclose(a, a(0));
    EXPECT_EQ(ac.ndim(), 0);
    EXPECT_EQ(ac.dtype(), bool_);
    EXPECT_FALSE(ac.item<bool>());
    EXPECT_TRUE(array_equal(a, a.copy()).item<bool>());
    EXPECT_TRUE(array_equal(a, a, true).item<bool>());
    EXPECT_FALSE(array_equal(a, a.T()).item<bool>());
    EXPECT_TRUE(array_equiv(a(0)(newaxis, slice()), a(slice(0, 1))).item<bool>());
  }
}

TEST(StatisticsGpu, IscloseScalarsAndInfinities) {
  CUPP_REQUIRE_GPU();
  // Both scalars: a 0-d bool array.
  ndarray r = isclose(1.0, 1.0 + 1e-9);
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_TRUE(r.item<bool>());
  EXPECT_FALSE(isclose(inf, 1.0).item<bool>());
  EXPECT_TRUE(isclose(inf, inf).item<bool>());
  EXPECT_FALSE(isclose(nan, nan).item<bool>());
  EXPECT_TRUE(isclose(nan, nan, {.equal_nan = true}).item<bool>());
  // abs(int64 min) does not wrap: b is made float64.
  const ndarray big = asarray(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
  EXPECT_TRUE(isclose(big, big).to_vector<bool>()[0]);
  // Weak float b with a float32 array: computed in float32 (NumPy 2).
  EXPECT_EQ(isclose(F({1.0}, float32), 1.0 + 1e-9).dtype(), bool_);
  // NumPy 2: |x - y| <= atol + rtol * |y| where y is finite, or x == y. An infinite atol makes
  // inf close to a finite y; a finite x is never close to an infinite y.
  EXPECT_EQ(isclose(F({inf, 1.0}), F({1e308, inf}), {.atol = inf}).to_vector<bool>(), std::vector<bool>({true, false}));
}

// The fused isclose kernel agrees with NumPy's composition of ufuncs for every pair of real dtypes,
// special values included (both sides run here; the composition is checked against NumPy by the
// reference set).
TEST(StatisticsGpu, FusedIscloseAgreesWithTheComposition) {
  CUPP_REQUIRE_GPU();
  const dtype reals[] = {bool_, int8, int64, uint64, float16, bfloat16, float32, float64};
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> dist(-3, 3);
  dv xs, ys;
  for (int k = 0; k < 4000; ++k) {
    const double x = std::round(dist(rng) * 8) / 8 * std::pow(10.0, static_cast<int>(rng() % 7) - 3);
    xs.push_back(x);
    ys.push_back(k % 3 == 0 ? x : k % 3 == 1 ? x * (1 + dist(rng) * 1e-5) : x + dist(rng) * 1e-7);
  }
  for (double v : {inf, -inf, nan, 0.0, -0.0, 1e-300, 65504.0, 1e308}) {
    for (double w : {inf, -inf, nan, 0.0, 1.0, 1e-8, 65504.0}) {
      xs.push_back(v);
      ys.push_back(w);
    }
  }
  const ndarray x64 = asarray(xs), y64 = asarray(ys);
  for (const dtype& tx : reals) {
    for (const dtype& ty : reals) {
      const ndarray x = astype(x64, tx), y = astype(y64, ty);
      for (const isclose_options& o : {isclose_options{}, isclose_options{.rtol = 1e-3, .atol = 0, .equal_nan = true},
                                       isclose_options{.rtol = 0.0, .atol = 0.25}}) {
        SCOPED_TRACE(tx.name() + " " + ty.name());
        EXPECT_EQ(isclose(x, y, o).to_vector<bool>(), detail::stats::isclose_composed(x, y, o).to_vector<bool>());
      }
    }
  }
  // Broadcasting and a strided view.
  const ndarray a = R({6, 5}, float32), b = R({6}), c = R({5}, float16);
  EXPECT_EQ(isclose(a.T(), b).to_vector<bool>(), detail::stats::isclose_composed(a.T(), b, {}).to_vector<bool>());
  EXPECT_EQ(isclose(a, c).to_vector<bool>(), detail::stats::isclose_composed(a, c, {}).to_vector<bool>());
  EXPECT_EQ(isclose(a(slice(none, none, 2)), c(rev())).to_vector<bool>(),
            detail::stats::isclose_composed(a(slice(none, none, 2)), c(rev()), {}).to_vector<bool>());
}

TEST(StatisticsGpu, ResultDtypes) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(R({4, 5}), t);
    const dtype mean_type = t.is_bool() || t.is_integer() ? dtype(float64) : t;
    EXPECT_EQ(median(a).dtype(), mean_type);
    EXPECT_EQ(median(a, {.axis = 1}).dtype(), mean_type);
    EXPECT_EQ(average(a, {.axis = 0}).dtype(), mean_type);
    if (t.is_complex()) {
      EXPECT_THROW(quantile(a, 0.5), TypeError);
      EXPECT_THROW(percentile(a, 50), TypeError);
      EXPECT_EQ(nanmedian(a).dtype(), t);
      continue;
    }
    EXPECT_EQ(nanmedian(a, {.axis = 0}).dtype(), mean_type);
    // Discrete methods keep a's dtype.
    EXPECT_EQ(quantile(a, 0.5, {.method = "lower"}).dtype(), t);
    EXPECT_EQ(quantile(a, QS(), {.axis = 1, .method = "nearest"}).dtype(), t);
    EXPECT_EQ(nanquantile(a, 0.5, {.method = "higher"}).dtype(), t);
    if (t.is_bool()) {
      EXPECT_THROW(quantile(a, 0.5), TypeError);  // numpy boolean subtract
      continue;
    }
    // Interpolation: a weak q takes a float a's dtype; integers give float64.
    const dtype interp = t.is_integer() ? dtype(float64) : t;
    EXPECT_EQ(quantile(a, 0.5).dtype(), interp);
    EXPECT_EQ(percentile(a, 50).dtype(), interp);
    EXPECT_EQ(nanpercentile(a, 50, {.axis = 0}).dtype(), interp);
    // An array q of float64 promotes.
    EXPECT_EQ(quantile(a, QS()).dtype(), t.is_floating() ? result_type(t, float64) : dtype(float64));
  }
}

TEST(StatisticsGpu, Errors) {
  CUPP_REQUIRE_GPU();
  const ndarray a = R({3, 4});
  EXPECT_EQ(error_of<ValueError>([&] { quantile(a, 1.5); }), "Quantiles must be in the range [0, 1]");
  EXPECT_EQ(error_of<ValueError>([&] { quantile(a, -0.1); }), "Quantiles must be in the range [0, 1]");
  EXPECT_EQ(error_of<ValueError>([&] { quantile(a, nan); }), "Quantiles must be in the range [0, 1]");
  EXPECT_EQ(error_of<ValueError>([&] { quantile(a, F({0.5, 2.0})); }), "Quantiles must be in the range [0, 1]");
  EXPECT_EQ(error_of<ValueError>([&] { percentile(a, 101); }), "Percentiles must be in the range [0, 100]");
  EXPECT_EQ(error_of<ValueError>([&] { percentile(a, -1); }), "Percentiles must be in the range [0, 100]");
  EXPECT_EQ(error_of<ValueError>([&] { nanpercentile(a, F({50, 100.5})); }), "Percentiles must be in the range [0, 100]");
  EXPECT_EQ(error_of<ValueError>([&] { nanquantile(a, 1.01); }), "Quantiles must be in the range [0, 1]");
  EXPECT_THROW(quantile(a, 0.5, {.method = "foo"}), ValueError);
  EXPECT_THROW(percentile(a, 50, {.method = "interpolated"}), ValueError);
  EXPECT_EQ(error_of<ValueError>([&] { quantile(a, multiply(ones({2, 2, 2}), 0.5)); }), "q must be a scalar or 1d");
  EXPECT_THROW(quantile(a, 0.5, {.axis = 2}), AxisError);
  EXPECT_THROW(median(a, {.axis = {0, 0}}), ValueError);
  // Empty slices: NumPy's IndexError for quantile, NaN for median.
  EXPECT_THROW(quantile(R({0}), 0.5), IndexError);
  EXPECT_THROW(quantile(R({0}), 0.5, {.method = "lower"}), IndexError);
  EXPECT_TRUE(std::isnan(median(R({0})).item<double>()));
  // average
  EXPECT_EQ(error_of<ValueError>([&] { average(a, {.axis = 1, .weights = F({1, -1, 0, 0})}); }),
            "Weights sum to zero, can't be normalized");
  EXPECT_EQ(error_of<TypeError>([&] { average(a, {.weights = F({1, 2, 3, 4})}); }),
            "Axis must be specified when shapes of a and weights differ.");
  // cov's weights
  EXPECT_EQ(error_of<TypeError>([&] { cov(a, {.fweights = F({1, 2.5, 1, 1})}); }), "fweights must be integer");
  EXPECT_EQ(error_of<ValueError>([&] { cov(a, {.fweights = F({1, -2, 1, 1}, int64)}); }), "fweights cannot be negative");
  EXPECT_EQ(error_of<ValueError>([&] { cov(a, {.aweights = F({1, -2, 1, 1})}); }), "aweights cannot be negative");
  EXPECT_EQ(error_of<ValueError>([&] { cov(a, {.fweights = F({1, 2, 1}, int64)}); }),
            "incompatible numbers of samples and fweights");
  EXPECT_EQ(error_of<ValueError>([&] { cov(a, {.aweights = ones({2, 4})}); }), "cannot handle multidimensional aweights");
  EXPECT_THROW(cov(a, {.y = R({3, 5})}), ValueError);  // observation counts differ
  EXPECT_THROW(cov(a, {.dtype = int64}), TypeError);   // subtract's output cannot be cast to int64
}

TEST(StatisticsGpu, NanPlacement) {
  CUPP_REQUIRE_GPU();
  // NaN first, middle or last in a row: median and quantile give NaN, the nan forms skip it.
  const ndarray a = F({nan, 1, 2, 3, 1, nan, 2, 3, 1, 2, 3, nan}).reshape({3, 4});
  for (const ndarray& r : {median(a, {.axis = 1}), quantile(a, 0.5, {.axis = 1}), percentile(a, 10, {.axis = 1})}) {
    CUPP_EXPECT_ARRAY_EQUAL(r, dv(3, nan), {.strict = true});
  }
  EXPECT_EQ(nanmedian(a, {.axis = 1}).to_vector<double>(), dv({2, 2, 2}));
  EXPECT_EQ(nanquantile(a, 1.0, {.axis = 1}).to_vector<double>(), dv({3, 3, 3}));
  EXPECT_EQ(nanquantile(a, 0.0, {.axis = 1, .method = "lower"}).to_vector<double>(), dv({1, 1, 1}));
  // Along axis 0 every column but column 2 holds a NaN.
  const dv m0 = median(a, {.axis = 0}).to_vector<double>();
  EXPECT_TRUE(std::isnan(m0[0]));
  EXPECT_TRUE(std::isnan(m0[1]));
  EXPECT_EQ(m0[2], 2.0);
  // float16 keeps its dtype and its NaN.
  const ndarray h = astype(a, float16);
  EXPECT_EQ(median(h, {.axis = 1}).dtype(), float16);
  EXPECT_TRUE(std::isnan(astype(nanmedian(astype(F({nan, nan}), float16)), float64).item<double>()));
}

// The host's median of a row (NaN propagates; nan_mode skips NaN; empty -> NaN).
double host_median(std::vector<double> v, bool skip_nan) {
  if (skip_nan) std::erase_if(v, [](double x) { return std::isnan(x); });
  else if (std::any_of(v.begin(), v.end(), [](double x) { return std::isnan(x); })) return nan;
  if (v.empty()) return nan;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(StatisticsGpu, LargeRandomMedianAndQuantile) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  std::normal_distribution<double> dist;
  const std::int64_t rows = 300, cols = 1001;
  std::vector<double> host(static_cast<std::size_t>(rows * cols));
  for (double& x : host) x = dist(rng);
  for (int k = 0; k < 200; ++k) host[rng() % host.size()] = nan;
  const ndarray a = asarray(host).reshape({rows, cols});
  const dv med = median(a, {.axis = 1}).to_vector<double>();
  const dv nmed = nanmedian(a, {.axis = 1}).to_vector<double>();
  const dv q9 = nanquantile(a, 0.9, {.axis = 1, .method = "lower"}).to_vector<double>();
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<double> row(host.begin() + r * cols, host.begin() + (r + 1) * cols);
    const double want = host_median(row, false), nwant = host_median(row, true);
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(med[r])) << r;
    else EXPECT_EQ(med[r], want) << r;
    EXPECT_EQ(nmed[r], nwant) << r;
    std::erase_if(row, [](double x) { return std::isnan(x); });
    std::sort(row.begin(), row.end());
    EXPECT_EQ(q9[r], row[static_cast<std::size_t>(std::floor((row.size() - 1) * 0.9))]) << r;
  }
  // The flattened median against the host.
  EXPECT_EQ(nanmedian(a).item<double>(), host_median(host, true));
  // The transposed view along axis 0 gives the same.
  EXPECT_EQ(nanmedian(a.T(), {.axis = 0}).to_vector<double>(), nmed);
}

TEST(StatisticsGpu, LargeCov) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> dist(-1, 1);
  const std::int64_t vars = 5, obs = 100000;
  std::vector<double> host(static_cast<std::size_t>(vars * obs));
  for (double& x : host) x = dist(rng);
  const ndarray c = cov(asarray(host).reshape({vars, obs}));
  std::vector<double> mean(vars, 0.0);
  for (std::int64_t i = 0; i < vars; ++i)
    for (std::int64_t k = 0; k < obs; ++k) mean[i] += host[i * obs + k] / obs;
  const dv want = test::tabulate(vars, vars, [&](std::int64_t i, std::int64_t j) {
    long double s = 0;
    for (std::int64_t k = 0; k < obs; ++k) s += (host[i * obs + k] - mean[i]) * (host[j * obs + k] - mean[j]);
    return static_cast<double>(s / (obs - 1));
  });
  CUPP_EXPECT_ALLCLOSE(c.reshape({vars * vars}), want, {.rtol = 0, .atol = 1e-12});
  // corrcoef's diagonal is 1.
  const ndarray r = corrcoef(asarray(host).reshape({vars, obs}));
  CUPP_EXPECT_ALLCLOSE(r.diagonal(), 1.0, {.rtol = 0, .atol = 1e-15});
}

}  // namespace
}  // namespace cupp
