// median, nanmedian, quantile, percentile, nanquantile and nanpercentile (cupp/statistics.hpp):
// NumPy's numpy/lib/_function_base_impl.py (_quantile, _get_indexes, _lerp, the method table)
// and _nanfunctions_impl.py, composed of cupp::sort (the reduced axes moved last and merged into
// one row per result), take_along_axis, the reductions and the ufuncs, in NumPy's order of
// operations so dtypes and rounding are NumPy's. Where NumPy takes a full slice's sorted order,
// cupp sorts each row (NaN sorts last, so a slice holding NaN has NaN last, and the nan forms
// count the other elements per row: NumPy removes the NaN of each 1-d slice, which leaves the
// same first elements). The only host round trip is the check of q's range.
#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sorting.hpp"
#include "cupp/statistics.hpp"
#include "routines/statistics/statistics_internal.hpp"

namespace cupp {

namespace {

using detail::stats::normalize_axes;
using detail::stats::require_array;

constexpr std::array<const char*, 13> method_names = {
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
    "weibull",      "linear",                "median_unbiased",     "normal_unbiased",           "lower",
    "higher",       "midpoint",              "nearest"};
enum method_id {
  m_inverted_cdf, m_averaged_inverted_cdf, m_closest_observation, m_interpolated_inverted_cdf, m_hazen,
  m_weibull, m_linear, m_median_unbiased, m_normal_unbiased, m_lower, m_higher, m_midpoint, m_nearest
};

// The reduced axes of `a` moved last, merged into one axis and sorted along it.
struct sorted_rows {
  ndarray rows;      // kept + (n,), sorted along the last axis
  shape_t kept;      // the kept dimensions, in a's order
  shape_t keepdims;  // a's shape with 1 for each reduced axis (keepdims=True)
};

sorted_rows sort_reduced(const ndarray& a, const axes& axis, std::string_view routine) {
  sorted_rows r;
  if (axis.all()) {
    r.rows = sort(a.ravel(), -1);
    r.keepdims.assign(static_cast<std::size_t>(a.ndim()), 1);
    return r;
  }
  const std::vector<int> reduced = normalize_axes(axis.list(), a.ndim(), routine);
  std::vector<int> perm;
  std::int64_t n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    const bool is_reduced = std::find(reduced.begin(), reduced.end(), d) != reduced.end();
    r.keepdims.push_back(is_reduced ? 1 : a.shape(d));
    if (!is_reduced) {
      perm.push_back(d);
      r.kept.push_back(a.shape(d));
    }
  }
  for (int d : reduced) {
    perm.push_back(d);
    n *= a.shape(d);
  }
  shape_t shape = r.kept;
  shape.push_back(n);
  r.rows = sort(a.transpose(std::span<const int>(perm)).reshape(std::span<const std::int64_t>(shape)), -1);
  return r;
}

shape_t concat_shapes(std::span<const std::int64_t> x, std::span<const std::int64_t> y) {
  shape_t s(x.begin(), x.end());
  s.insert(s.end(), y.begin(), y.end());
  return s;
}

std::int64_t product(std::span<const std::int64_t> s) {
  return std::accumulate(s.begin(), s.end(), std::int64_t(1), std::multiplies<>());
}

// r (kept + q_shape) reordered to NumPy's q_shape + kept, or q_shape + keepdims.
ndarray finish(const ndarray& r, const sorted_rows& s, std::span<const std::int64_t> q_shape, bool keepdims) {
  const int nk = static_cast<int>(s.kept.size()), nq = static_cast<int>(q_shape.size());
  std::vector<int> perm;
  for (int i = 0; i < nq; ++i) perm.push_back(nk + i);
  for (int i = 0; i < nk; ++i) perm.push_back(i);
  ndarray out = r.transpose(std::span<const int>(perm));
  if (keepdims) out = out.reshape(std::span<const std::int64_t>(concat_shapes(q_shape, s.keepdims)));
  return out;
}

// rows (kept + (n,)) gathered at idx along the last axis: idx of shape q_shape (the same for every
// row) or kept + q_shape (per row). Returns kept + q_shape.
ndarray gather(const sorted_rows& s, const ndarray& idx, std::span<const std::int64_t> q_shape) {
  const bool per_row = idx.ndim() == static_cast<int>(s.kept.size() + q_shape.size()) && !s.kept.empty();
  shape_t ishape = per_row ? s.kept : shape_t(s.kept.size(), 1);
  ishape.push_back(product(q_shape));
  ndarray ind = idx.dtype() == int64 ? idx : astype(idx, int64);
  ind = ind.reshape(std::span<const std::int64_t>(ishape));
  const ndarray g = take_along_axis(s.rows, ind, -1);
  return g.reshape(std::span<const std::int64_t>(concat_shapes(s.kept, q_shape)));
}

// An array of kept's shape (the per-row values) made broadcastable against kept + q_shape.
ndarray per_row(const ndarray& x, const sorted_rows& s, std::size_t q_ndim) {
  shape_t shape = s.kept;
  shape.insert(shape.end(), q_ndim, 1);
  return x.reshape(std::span<const std::int64_t>(shape));
}

ndarray nan_scalar() { return full(std::span<const std::int64_t>(), weak_scalar(std::numeric_limits<double>::quiet_NaN())); }

// The core of quantile and nanquantile, after q's checks: NumPy's _quantile over the sorted rows.
// nan_mode: each row's valid count is its non-NaN elements (NumPy's _nanquantile_1d).
// weak: q was a Python number, so the interpolation weight is a Python float (NumPy 2.5's weak_q).
ndarray quantile_sorted(const ndarray& a, const ndarray& q, bool weak, const quantile_options& o, bool nan_mode,
                        std::string_view routine) {
  const int method = detail::quantile_method_index(o.method);
  if (q.ndim() > 2) throw ValueError("q must be a scalar or 1d");
  const sorted_rows s = sort_reduced(a, o.axis, routine);
  const std::int64_t n = s.rows.shape(-1);
  const std::span<const std::int64_t> qs = q.shape();
  const std::size_t qn = qs.size();
  const bool inexact = a.dtype().is_inexact();

  // The valid count per row as NumPy's Python int n meets q: a weak integer, or (nan forms) the
  // count of non-NaN elements per row, in the dtype a Python int takes beside q.
  ndarray count;  // nan forms: int64, kept + (1,) * q.ndim
  if (nan_mode) count = per_row(count_nonzero(logical_not(isnan(s.rows)), {.axis = -1}), s, qn);
  const dtype qdt = q.dtype().is_bool() ? dtype(int64) : q.dtype();
  auto count_plus = [&](std::int64_t k) -> operand {
    if (!nan_mode) return operand(weak_scalar(n + k));
    return operand(astype(add(count, k), qdt));
  };

  // ---- the virtual indexes (method_props["get_virtual_index"])
  auto discrete = [&](const ndarray& index, bool closest) {
    const ndarray previous = floor(index);
    const ndarray next = add(previous, 1);
    const ndarray gamma = subtract(index, previous);
    ndarray cond = equal(gamma, 0);
    if (closest) cond = bitwise_and(cond, equal(remainder(floor(index), 2), 1));
    ndarray res = astype(next, int64);
    copyto(res, previous, casting::unsafe, cond);
    copyto(res, 0, casting::unsafe, less(res, 0));
    return res;
  };
  auto compute_virtual = [&](double alpha, double beta) {
    return subtract(add(multiply(count_plus(0), q), add(alpha, multiply(q, 1.0 - alpha - beta))), 1);
  };
  ndarray v;
  switch (method) {
    case m_inverted_cdf: v = discrete(subtract(multiply(count_plus(0), q), 1), false); break;
    case m_averaged_inverted_cdf: v = subtract(multiply(count_plus(0), q), 1); break;
    case m_closest_observation: v = discrete(subtract(subtract(multiply(count_plus(0), q), 1), 0.5), true); break;
    case m_interpolated_inverted_cdf: v = compute_virtual(0, 1); break;
    case m_hazen: v = compute_virtual(0.5, 0.5); break;
    case m_weibull: v = compute_virtual(0, 0); break;
    case m_linear: v = multiply(count_plus(-1), q); break;
    case m_median_unbiased: v = compute_virtual(1 / 3.0, 1 / 3.0); break;
    case m_normal_unbiased: v = compute_virtual(3 / 8.0, 3 / 8.0); break;
    case m_lower: v = astype(floor(multiply(count_plus(-1), q)), int64); break;
    case m_higher: v = astype(ceil(multiply(count_plus(-1), q)), int64); break;
    case m_midpoint: {
      const ndarray x = multiply(count_plus(-1), q);
      v = multiply(0.5, add(floor(x), ceil(x)));
      break;
    }
    default: v = astype(rint(multiply(count_plus(-1), q)), int64); break;  // nearest
  }
  const bool no_gamma = method == m_inverted_cdf || method == m_closest_observation || method == m_lower ||
                        method == m_higher || method == m_nearest;
  const bool integer_index = v.dtype().is_integer() || v.dtype().is_bool();

  ndarray r;
  if (no_gamma || (method == m_linear && integer_index)) {
    // No interpolation: take the points.
    ndarray idx = astype(v, int64);
    if (nan_mode) copyto(idx, add(count, -1), casting::unsafe, less(idx, 0));  // -1: the row's last valid
    r = gather(s, idx, qs);
  } else {
    // _get_indexes
    ndarray previous = floor(v);
    ndarray next = add(previous, 1);
    const ndarray above = greater_equal(v, count_plus(-1));
    copyto(previous, -1, casting::unsafe, above);
    copyto(next, -1, casting::unsafe, above);
    const ndarray below = less(v, 0);
    copyto(previous, 0, casting::unsafe, below);
    copyto(next, 0, casting::unsafe, below);
    ndarray prev_i = astype(previous, int64), next_i = astype(next, int64);
    // _get_gamma: (v - previous) with the method's fix, in v's dtype
    ndarray gamma = subtract(v, prev_i);
    if (method == m_averaged_inverted_cdf) {
      ndarray g = full(gamma.shape(), weak_scalar(1.0));
      copyto(g, 0.5, casting::unsafe, equal(gamma, 0.0));
      gamma = g;
    } else if (method == m_midpoint) {
      ndarray g = full(gamma.shape(), weak_scalar(0.5));
      copyto(g, 0.0, casting::unsafe, equal(remainder(v, 1), 0));
      gamma = g;
    }
    if (gamma.dtype() != v.dtype()) gamma = astype(gamma, v.dtype());
    if (nan_mode) {  // index -1 is the row's last valid element
      const ndarray last = add(count, -1);
      copyto(prev_i, last, casting::unsafe, equal(prev_i, -1));
      copyto(next_i, last, casting::unsafe, equal(next_i, -1));
    }
    const ndarray lo = gather(s, prev_i, qs), hi = gather(s, next_i, qs);
    // _lerp(lo, hi, t): t = gamma, or float(gamma) for a weak q: a Python float meets the arrays in
    // their dtype (result_type(a, 1.0)), and 1 - t is computed before it does.
    ndarray t = gamma, one_minus_t = subtract(1, gamma);
    if (weak) {
      const dtype w = result_type(lo.dtype(), weak_scalar(1.0));
      if (t.dtype() != w) t = astype(t, w);
      if (one_minus_t.dtype() != w) one_minus_t = astype(one_minus_t, w);
    }
    const ndarray diff = subtract(hi, lo);
    r = add(lo, multiply(diff, t));
    subtract(hi, multiply(diff, one_minus_t),
             {.out = r, .where = greater_equal(gamma, 0.5), .dtype = r.dtype(), .casting = casting::unsafe});
  }
  if (inexact && n > 0) {
    if (nan_mode) {
      copyto(r, nan_scalar(), casting::unsafe, equal(count, 0));  // all-NaN slices
    } else {
      const ndarray last = per_row(s.rows(ellipsis, -1), s, qn);
      copyto(r, last, casting::same_kind, isnan(last));
    }
  }
  return finish(r, s, qs, o.keepdims);
}

// q as an array, and NumPy 2.5's weak_q: whether q was a Python int or float (not bool).
struct q_value {
  ndarray q;
  bool weak = false;
};
bool is_weak_number(const weak_scalar& v) {
  return v.scalar_kind() == weak_scalar::kind::int_ || v.scalar_kind() == weak_scalar::kind::float_;
}

// quantile's q: np.asanyarray(q).
q_value quantile_q(const operand& q) {
  if (q.is_array()) {
    require_array(q.array(), "quantile");
    return {q.array(), false};
  }
  return {full(std::span<const std::int64_t>(), q.scalar()), is_weak_number(q.scalar())};
}

// percentile's q: np.true_divide(q, 100) (a Python number divided on the host, as NumPy divides
// two float64 values).
q_value percentile_q(const operand& q) {
  if (q.is_array()) {
    require_array(q.array(), "percentile");
    return {divide(q.array(), 100), false};
  }
  const weak_scalar& v = q.scalar();
  if (v.scalar_kind() == weak_scalar::kind::complex_)
    return {full(std::span<const std::int64_t>(), weak_scalar(std::complex<double>(v.real(), v.imag()) / 100.0)), false};
  return {scalar(weak_scalar(v.real() / 100.0), float64), is_weak_number(v)};
}

void require_real(const ndarray& a, std::string_view routine) {
  require_array(a, routine);
  detail::require_not_structured(a.dtype(), routine);
  if (a.dtype().is_complex()) throw TypeError("a must be an array of real numbers");
}

// NumPy's _quantile_is_valid: every q in [0, 1] (NaN is not); one read of a 0-d bool.
bool q_valid(const ndarray& q) {
  if (q.size() == 0) {
    if (q.ndim() == 1) return true;
    throw ValueError("zero-size array to reduction operation minimum which has no identity");
  }
  return all(logical_and(greater_equal(q, 0), less_equal(q, 1))).item<bool>();
}

}  // namespace

namespace detail {

int quantile_method_index(std::string_view method) {
  for (std::size_t i = 0; i < method_names.size(); ++i)
    if (method == method_names[i]) return static_cast<int>(i);
  std::string list;
  for (const char* m : method_names) list += std::string(list.empty() ? "" : ", ") + "'" + m + "'";
  throw ValueError("method='" + std::string(method) + "' is not a valid method. Use one of: dict_keys([" + list + "])");
}

}  // namespace detail

// ---- median

ndarray median(const ndarray& a, const median_options& options) {
  require_array(a, "median");
  detail::require_not_structured(a.dtype(), "median");
  const sorted_rows s = sort_reduced(a, options.axis, "median");
  const std::int64_t n = s.rows.shape(-1);
  ndarray mid = s.rows;
  if (n > 0) {
    const std::int64_t h = n / 2;
    mid = n % 2 == 1 ? s.rows(ellipsis, slice(h, h + 1)) : s.rows(ellipsis, slice(h - 1, h + 1));
  }
  ndarray r = mean(mid, {.axis = -1});
  if (a.dtype().is_inexact() && n > 0) {
    const ndarray last = s.rows(ellipsis, -1);
    copyto(r, last, casting::same_kind, isnan(last));
  }
  if (options.keepdims) r = r.reshape(std::span<const std::int64_t>(s.keepdims));
  return r;
}

ndarray nanmedian(const ndarray& a, const median_options& options) {
  require_array(a, "nanmedian");
  if (a.size() == 0) return nanmean(a, {.axis = options.axis, .keepdims = options.keepdims});
  if (!a.dtype().is_inexact()) return median(a, options);
  const sorted_rows s = sort_reduced(a, options.axis, "nanmedian");
  // The mean of the middle one or two of the c non-NaN elements (sorted first) of each row.
  const ndarray c = count_nonzero(logical_not(isnan(s.rows)), {.axis = -1});
  const ndarray lo = maximum(floor_divide(subtract(c, 1), 2), 0), hi = floor_divide(c, 2);
  const ndarray pair = take_along_axis(s.rows, stack({lo, hi}, {.axis = -1}), -1);
  ndarray r = mean(pair, {.axis = -1});
  // An odd count: the middle element itself (its mean with itself could overflow).
  copyto(r, pair(ellipsis, 0), casting::same_kind, equal(remainder(c, 2), 1));
  copyto(r, nan_scalar(), casting::unsafe, equal(c, 0));  // all-NaN slices
  if (options.keepdims) r = r.reshape(std::span<const std::int64_t>(s.keepdims));
  return r;
}

// ---- quantile, percentile, nanquantile, nanpercentile

ndarray quantile(const ndarray& a, const operand& q, const quantile_options& options) {
  require_real(a, "quantile");
  const q_value qv = quantile_q(q);
  if (!q_valid(qv.q)) throw ValueError("Quantiles must be in the range [0, 1]");
  return quantile_sorted(a, qv.q, qv.weak, options, false, "quantile");
}

ndarray percentile(const ndarray& a, const operand& q, const quantile_options& options) {
  require_real(a, "percentile");
  const q_value qv = percentile_q(q);
  if (!q_valid(qv.q)) throw ValueError("Percentiles must be in the range [0, 100]");
  return quantile_sorted(a, qv.q, qv.weak, options, false, "percentile");
}

ndarray nanquantile(const ndarray& a, const operand& q, const quantile_options& options) {
  require_real(a, "nanquantile");
  const q_value qv = quantile_q(q);
  if (!q_valid(qv.q)) throw ValueError("Quantiles must be in the range [0, 1]");
  if (a.size() == 0) return nanmean(a, {.axis = options.axis, .keepdims = options.keepdims});
  return quantile_sorted(a, qv.q, qv.weak, options, a.dtype().is_inexact(), "nanquantile");
}

ndarray nanpercentile(const ndarray& a, const operand& q, const quantile_options& options) {
  require_real(a, "nanpercentile");
  const q_value qv = percentile_q(q);
  if (!q_valid(qv.q)) throw ValueError("Percentiles must be in the range [0, 100]");
  if (a.size() == 0) return nanmean(a, {.axis = options.axis, .keepdims = options.keepdims});
  return quantile_sorted(a, qv.q, qv.weak, options, a.dtype().is_inexact(), "nanpercentile");
}

}  // namespace cupp
