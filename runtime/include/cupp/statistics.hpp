// NumPy's statistics and logic routines on the GPU: isclose, allclose, array_equal, array_equiv
// (logic), average, cov, corrcoef, median, percentile, quantile and their nan forms (statistics).
// Each follows NumPy 2's signature and semantics; keyword arguments are option structs:
//
//   auto close = cupp::isclose(a, b, {.rtol = 1e-3, .equal_nan = true});   // bool array
//   bool same = cupp::allclose(a, b).item<bool>();     // a 0-d bool array: no sync until read
//   auto [avg, wsum] = cupp::average_returned(a, {.axis = 0, .weights = w});
//   auto c = cupp::cov(m, {.rowvar = false, .ddof = 0});
//   auto q = cupp::quantile(a, cupp::asarray(std::vector<double>{0.1, 0.9}), {.axis = {0, 2}, .method = "nearest"});
//   auto p = cupp::percentile(a, 50, {.axis = -1, .keepdims = true});
//
// The routines are composed of cupp's ufuncs, reductions, sort and indexing routines, in NumPy's
// own order of operations, so result dtypes and rounding are NumPy's (isclose computes in the
// dtype NumPy computes in; median of integers is float64, of float16 float16; a Python-number q
// interpolates in a float array's dtype, as NumPy 2.5). cov's matrix product is one small NVRTC kernel
// (one block per result element, deterministic); isclose of two real arrays is one fused
// element-wise kernel with the same rounding. Host synchronisation happens only where NumPy
// needs a value on the host: the checks of weights (average's zero sum, cov's fweights/aweights)
// and of q (quantile's range check). docs/api/statistics.md lists each routine and its errors.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// ---- logic

struct isclose_options {
  operand rtol = 1e-05;  // weak scalars or arrays (broadcast with a and b)
  operand atol = 1e-08;
  bool equal_nan = false;
};
// numpy.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False): NumPy 2's
// (|a - b| <= atol + rtol * |b|) & isfinite(b) | (a == b), with b first made inexact
// (result_type(b, 1.0)), so integers never wrap in abs and infinities are close only to
// themselves. A bool array of the broadcast shape (0-d when both are scalars).
ndarray isclose(const operand& a, const operand& b, const isclose_options& options = {});
// numpy.allclose: all(isclose(...)) as a 0-d bool array; nothing waits for the device until the
// caller reads it (item<bool>()).
ndarray allclose(const operand& a, const operand& b, const isclose_options& options = {});
// numpy.array_equal(a1, a2, equal_nan=False): a 0-d bool array, false when the shapes differ (or
// the dtypes cannot be compared), else all(a1 == a2); with equal_nan NaNs in the same places
// count as equal. Scalars are 0-d arrays of their default dtype.
ndarray array_equal(const operand& a1, const operand& a2, bool equal_nan = false);
// numpy.array_equiv(a1, a2): a 0-d bool array, false when the shapes do not broadcast.
ndarray array_equiv(const operand& a1, const operand& a2);

// ---- average, cov, corrcoef

struct average_options {
  cupp::axes axis{};     // default: every axis
  ndarray weights{};     // null: unweighted (a's shape, or the reduced axes' shape with an axis)
  bool keepdims = false;
};
// numpy.average(a, axis=None, weights=None, returned=False, keepdims=False). Without weights the
// mean; with weights sum(a * w) / sum(w), computed in result_type(a, w) (with float64 for integer
// and bool a). Errors: TypeError "Axis must be specified when shapes of a and weights differ.",
// ValueError "Shape of weights must be consistent with shape of a along specified axis.", and
// ValueError "Weights sum to zero, can't be normalized" where NumPy raises ZeroDivisionError
// (cupp has no class for it; checking it reads the weight sums on the host).
ndarray average(const ndarray& a, const average_options& options = {});
// returned=True: {average, sum of weights} (the sum broadcast to the average's shape; without
// weights the element count per result, in the average's dtype).
std::pair<ndarray, ndarray> average_returned(const ndarray& a, const average_options& options = {});

struct cov_options {
  ndarray y{};                         // more variables (rows, or columns when !rowvar)
  bool rowvar = true;                  // rows are variables, columns observations
  bool bias = false;                   // normalise by N (ddof 0) instead of N - 1
  std::optional<std::int64_t> ddof{};  // overrides bias
  ndarray fweights{};                  // 1-d integer frequency weights per observation
  ndarray aweights{};                  // 1-d observation weights
  std::optional<cupp::dtype> dtype{};  // default result_type(m, y, float64)
};
// numpy.cov: the covariance matrix (squeezed: a 0-d array for one variable). m and y have at
// most 2 dimensions (ValueError). Weights: fweights must hold integers (TypeError "fweights
// must be integer") and neither may be negative (ValueError); a multi-dimensional weight or one
// of the wrong length is NumPy's RuntimeError, a ValueError here. n - ddof <= 0 gives inf/NaN as
// in NumPy (which also warns). No observations: an empty (0, 0) float64 array.
ndarray cov(const ndarray& m, const cov_options& options = {});

struct corrcoef_options {
  ndarray y{};
  bool rowvar = true;
  std::optional<cupp::dtype> dtype{};
};
// numpy.corrcoef: cov(x, y, rowvar) / (stddev stddev^T), real and imaginary parts clipped to
// [-1, 1]; one variable gives c / c (1, or NaN).
ndarray corrcoef(const ndarray& x, const corrcoef_options& options = {});

// ---- median, quantile, percentile and the nan forms

struct median_options {
  cupp::axes axis{};  // default: every axis (the flattened array); an int or a tuple
  bool keepdims = false;
};
// numpy.median: the mean of the one or two middle elements of the sorted slice (so integers and
// bool give float64, float16 stays float16, complex is allowed). A slice holding NaN gives NaN;
// an empty slice gives NaN (NumPy also warns).
ndarray median(const ndarray& a, const median_options& options = {});
// numpy.nanmedian: NaN ignored; an all-NaN slice gives NaN; an empty array gives nanmean's
// result (NaN).
ndarray nanmedian(const ndarray& a, const median_options& options = {});

struct quantile_options {
  cupp::axes axis{};
  // NumPy's 13 methods: inverted_cdf, averaged_inverted_cdf, closest_observation,
  // interpolated_inverted_cdf, hazen, weibull, linear, median_unbiased, normal_unbiased, lower,
  // higher, midpoint, nearest. Another name is a ValueError.
  std::string method = "linear";
  bool keepdims = false;
};
// numpy.quantile(a, q, axis=None, method='linear', keepdims=False). q is a weak scalar or an array;
// the result has q's shape in front of the reduced shape. A Python-number q (int or float, not
// bool) is NumPy 2.5's weak q: the interpolation weight meets a in a's dtype, so float32 a gives
// float32; an array q gives result_type(a, q). Discrete methods (and an integer q with linear)
// give a's dtype; integers otherwise float64. q outside [0, 1]: ValueError "Quantiles must be in
// the range [0, 1]" (checking reads q on the host). Complex a: TypeError "a must be an array of
// real numbers". A slice holding NaN gives NaN. An empty slice is an IndexError (as NumPy).
ndarray quantile(const ndarray& a, const operand& q, const quantile_options& options = {});
// numpy.percentile: quantile(a, q / 100) (ValueError "Percentiles must be in the range [0, 100]").
ndarray percentile(const ndarray& a, const operand& q, const quantile_options& options = {});
// numpy.nanquantile / nanpercentile: NaN ignored per slice (an all-NaN slice gives NaN); an empty
// array gives nanmean's result (NaN, without q's dimensions), as NumPy.
ndarray nanquantile(const ndarray& a, const operand& q, const quantile_options& options = {});
ndarray nanpercentile(const ndarray& a, const operand& q, const quantile_options& options = {});

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> statistics_routines() noexcept;

namespace detail {
// Host-side checks, exposed for tests that run without a GPU.
// The quantile method's index in NumPy's table; ValueError naming the valid methods otherwise.
int quantile_method_index(std::string_view method);
}  // namespace detail

}  // namespace cupp
