// The manipulation routines over 1-D signals (cupp/manipulation.hpp): interp binary-searches xp
// per element of x with NumPy's arithmetic, no fused multiply-add; convolve/correlate sum each
// output element's products directly in one thread (O(n*m)); trim_zeros composes reductions and
// views as NumPy's Python code does.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/statistics.hpp"
#include "engine/internal.hpp"
#include "engine/loop_resolution.hpp"
#include "routines/manipulation/manipulation_kernels.hpp"

namespace cupp {

using std::int64_t;
using detail::is_complex_type;
using detail::new_c_array;

namespace {

// ---------------------------------------------------------------------------------------------
// convolve / correlate

enum class corr_mode { valid = 0, same = 1, full = 2 };

// NumPy 2's names, exactly (NumPy 1 also took any case and 0/1/2).
corr_mode parse_corr_mode(std::string_view mode) {
  if (mode == "valid") return corr_mode::valid;
  if (mode == "same") return corr_mode::same;
  if (mode == "full") return corr_mode::full;
  throw ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
}

// NumPy's _pyarray_correlate for 1-d a1 (length n1 >= n2) and a2 of the result dtype:
// out[k] = sum_j a1[k - n_left + j] * a2[j].
ndarray correlate_core(const ndarray& a1, const ndarray& a2, corr_mode mode) {
  const int64_t n1 = a1.shape(0), n2 = a2.shape(0);
  int64_t length = n1, n_left = 0;
  switch (mode) {
    case corr_mode::valid: length = n1 - n2 + 1; break;
    case corr_mode::same: n_left = n2 / 2; break;
    case corr_mode::full: n_left = n2 - 1; length = n1 + n2 - 1; break;
  }
  const ndarray& a = a1;
  const std::vector<ndarray> r = detail::correlate_kernel(a1.dtype()).call({a, a2, n1, n2, n_left}, length);
  return r.front();
}

// A 1-d input of correlate (exactly 1-d: NumPy's PyArray_FromAny(op, type, 1, 1)).
void require_1d(const ndarray& a) {
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
}

}  // namespace

namespace detail {

const ElementwiseKernel& correlate_kernel(dtype type) {
  // Each output element k sums a1[k - n_left + j] * a2[j] over the j where both exist, in j's
  // order, as NumPy's dot functions do.
  static const std::string head =
      "const long long k_ = i;\n"
      "long long j0_ = n_left - k_;\n"
      "if (j0_ < 0) j0_ = 0;\n"
      "long long j1_ = n1 + n_left - k_;\n"
      "if (j1_ > n2) j1_ = n2;\n";
  static const std::string loop = "for (long long j_ = j0_; j_ < j1_; ++j_) ";
  static const std::string x = "a[k_ - n_left + j_]";
  const std::string params = "raw T a, raw T v, int64 n1, int64 n2, int64 n_left";
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ElementwiseKernel>> kernels;
  std::string category, body;
  const type_id t = type.id();
  if (t == type_id::bool_) {
    category = "bool";
    body = head + "bool acc_ = false;\n" + loop + "{ if (" + x + " && v[j_]) { acc_ = true; break; } }\nc = acc_;";
  } else if (t == type_id::float16 || t == type_id::bfloat16) {
    category = "half";
    body = head + "float acc_ = 0.0f;\n" + loop + "acc_ = __fadd_rn(acc_, __fmul_rn(cupp::dev::cast<float>(" + x +
           "), cupp::dev::cast<float>(v[j_])));\nc = cupp::dev::cast<T>(acc_);";
  } else if (t == type_id::float32 || t == type_id::float64) {
    category = "float";
    body = head + "T acc_ = T(0);\n" + loop + "acc_ = acc_ + cupp::dev::mul_rn(" + x + ", v[j_]);\nc = acc_;";
  } else if (is_complex_type(t)) {
    category = "complex";
    body = head + "T acc_ = T(0);\n" + loop + "acc_ = acc_ + " + x + " * v[j_];\nc = acc_;";
  } else {
    category = "integer";
    // Wrapping sums, as NumPy's (long) accumulators cast back to the dtype.
    body = head + "unsigned long long acc_ = 0;\n" + loop +
           "acc_ += static_cast<unsigned long long>(static_cast<long long>(" + x +
           ")) * static_cast<unsigned long long>(static_cast<long long>(v[j_]));\nc = static_cast<T>(acc_);";
  }
  const std::lock_guard lock(mutex);
  std::unique_ptr<ElementwiseKernel>& k = kernels[category];
  if (!k) k = std::make_unique<ElementwiseKernel>(params, "T c", body, "cupp_correlate_" + category);
  return *k;
}

const ElementwiseKernel& interp_kernel(bool complex_fp) {
  // NumPy's arr_interp / arr_interp_complex (compiled_base.c): binary_search_with_guess gives the
  // last j with xp[j] <= x (-1 below xp[0], len above xp[-1]); products and sums are rounded on
  // their own, as NumPy's C code computes them.
  static const std::string search =
      "const long long n_ = xp.size();\n"
      "long long j_ = 0;\n"
      "if (x > xp[n_ - 1]) j_ = n_;\n"
      "else if (x < xp[0]) j_ = -1;\n"
      "else {\n"
      "  long long lo_ = 0, hi_ = n_;\n"
      "  while (lo_ < hi_) {\n"
      "    const long long mid_ = lo_ + ((hi_ - lo_) >> 1);\n"
      "    if (x >= xp[mid_]) lo_ = mid_ + 1; else hi_ = mid_;\n"
      "  }\n"
      "  j_ = lo_ - 1;\n"
      "}\n";
  if (!complex_fp) {
    static const ElementwiseKernel k(
        "float64 x, raw float64 xp, raw float64 fp, float64 left, float64 right", "float64 y",
        "if (xp.size() == 1) {\n"
        "  y = x < xp[0] ? left : (x > xp[0] ? right : fp[0]);\n"
        "} else if (::isnan(x)) {\n"
        "  y = x;\n"
        "} else {\n" +
            search +
            "  if (j_ == -1) y = left;\n"
            "  else if (j_ == n_) y = right;\n"
            "  else if (j_ == n_ - 1) y = fp[j_];\n"
            "  else if (xp[j_] == x) y = fp[j_];\n"
            "  else {\n"
            "    const double slope_ = (fp[j_ + 1] - fp[j_]) / (xp[j_ + 1] - xp[j_]);\n"
            "    double r_ = __dadd_rn(__dmul_rn(slope_, x - xp[j_]), fp[j_]);\n"
            "    if (::isnan(r_)) {\n"
            "      r_ = __dadd_rn(__dmul_rn(slope_, x - xp[j_ + 1]), fp[j_ + 1]);\n"
            "      if (::isnan(r_) && fp[j_] == fp[j_ + 1]) r_ = fp[j_];\n"
            "    }\n"
            "    y = r_;\n"
            "  }\n"
            "}",
        "cupp_interp");
    return k;
  }
  static const ElementwiseKernel k(
      "float64 x, raw float64 xp, raw complex128 fp, complex128 left, complex128 right", "complex128 y",
      "if (xp.size() == 1) {\n"
      "  y = x < xp[0] ? left : (x > xp[0] ? right : fp[0]);\n"
      "} else if (::isnan(x)) {\n"
      "  y = cupp::dev::complex<double>(x, 0.0);\n"
      "} else {\n" +
          search +
          "  if (j_ == -1) y = left;\n"
          "  else if (j_ == n_) y = right;\n"
          "  else if (j_ == n_ - 1) y = fp[j_];\n"
          "  else if (xp[j_] == x) y = fp[j_];\n"
          "  else {\n"
          "    const double inv_dx_ = 1.0 / (xp[j_ + 1] - xp[j_]);\n"
          "    const double sr_ = (fp[j_ + 1].re - fp[j_].re) * inv_dx_;\n"
          "    const double si_ = (fp[j_ + 1].im - fp[j_].im) * inv_dx_;\n"
          "    double re_ = __dadd_rn(__dmul_rn(sr_, x - xp[j_]), fp[j_].re);\n"
          "    if (::isnan(re_)) {\n"
          "      re_ = __dadd_rn(__dmul_rn(sr_, x - xp[j_ + 1]), fp[j_ + 1].re);\n"
          "      if (::isnan(re_) && fp[j_].re == fp[j_ + 1].re) re_ = fp[j_].re;\n"
          "    }\n"
          "    double im_ = __dadd_rn(__dmul_rn(si_, x - xp[j_]), fp[j_].im);\n"
          "    if (::isnan(im_)) {\n"
          "      im_ = __dadd_rn(__dmul_rn(si_, x - xp[j_ + 1]), fp[j_ + 1].im);\n"
          "      if (::isnan(im_) && fp[j_].im == fp[j_ + 1].im) im_ = fp[j_].im;\n"
          "    }\n"
          "    y = cupp::dev::complex<double>(re_, im_);\n"
          "  }\n"
          "}",
      "cupp_interp_complex");
  return k;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// trim_zeros

ndarray trim_zeros(const ndarray& filt, std::string_view trim, std::optional<int> axis) {
  detail::require_array(filt, "trim_zeros");
  std::string lower(trim);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower != "fb" && lower != "bf" && lower != "f" && lower != "b")
    throw ValueError("unexpected character(s) in `trim`: '" + lower + "'");
  const int nd = filt.ndim();
  std::optional<int> ax;
  if (axis && nd > 1) ax = layout::normalize_axis(*axis, nd);
  if (axis && nd == 0) layout::normalize_axis(*axis, nd);  // AxisError, as NumPy's normalize_axis_index
  if (nd == 0) return filt.index(std::span<const index_item>());
  const bool front = lower.find('f') != std::string::npos, back = lower.find('b') != std::string::npos;
  cuda::DeviceGuard guard(filt.device());
  const ndarray nonzero = astype(filt, bool_);
  // Per axis, which positions hold a nonzero element (any over the other axes): the bounding box
  // of np.argwhere's min and max.
  std::vector<int64_t> start(static_cast<std::size_t>(nd), 0), stop(static_cast<std::size_t>(nd), 0);
  bool all_zero = false;
  for (int d = 0; d < nd && !all_zero; ++d) {
    std::vector<std::int64_t> others;
    for (int e = 0; e < nd; ++e)
      if (e != d) others.push_back(e);
    const ndarray hit = others.empty() ? nonzero : any(nonzero, {.axis = axes(others)});
    const std::vector<std::uint8_t> h = hit.size() == 0 ? std::vector<std::uint8_t>()
                                                        : ascontiguousarray(hit).view(uint8).to_vector<std::uint8_t>();
    const auto first = std::find(h.begin(), h.end(), std::uint8_t(1));
    if (first == h.end()) {
      all_zero = true;
      break;
    }
    const auto last = std::find(h.rbegin(), h.rend(), std::uint8_t(1));
    start[static_cast<std::size_t>(d)] = first - h.begin();
    stop[static_cast<std::size_t>(d)] = static_cast<int64_t>(h.size()) - (last - h.rbegin());
  }
  std::vector<index_item> items;
  for (int d = 0; d < nd; ++d) {
    const bool trimmed = !ax || *ax == d;
    if (!trimmed) {
      items.emplace_back(slice());
    } else if (all_zero) {
      items.emplace_back(slice(0, 0));
    } else {
      items.emplace_back(slice(front ? std::optional<int64_t>(start[static_cast<std::size_t>(d)]) : std::nullopt,
                               back ? std::optional<int64_t>(stop[static_cast<std::size_t>(d)]) : std::nullopt));
    }
  }
  return filt.index(items);
}

// ---------------------------------------------------------------------------------------------
// interp

ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, const interp_options& options) {
  detail::require_array(x, "interp");
  detail::require_array(xp, "interp");
  detail::require_array(fp, "interp");
  const bool complex_fp = fp.dtype().is_complex();
  const dtype fp_type = complex_fp ? dtype(complex128) : dtype(float64);
  for (const ndarray* a : {&x, &xp}) {
    if (!can_cast(a->dtype(), float64, casting::safe))
      throw TypeError("Cannot cast array data from " + engine::dtype_repr(a->dtype()) +
                      " to dtype('float64') according to the rule 'safe'");
  }
  if (!can_cast(fp.dtype(), fp_type, casting::safe))
    throw TypeError("Cannot cast array data from " + engine::dtype_repr(fp.dtype()) + " to " +
                    engine::dtype_repr(fp_type) + " according to the rule 'safe'");
  if (options.period) {
    if (*options.period == 0) throw ValueError("period must be a non-zero value");
    if (xp.ndim() != 1 || fp.ndim() != 1) throw ValueError("Data points must be 1-D sequences");
    if (xp.shape(0) != fp.shape(0)) throw ValueError("fp and xp are not of the same length");
  }
  if (xp.ndim() != 1 || fp.ndim() != 1)
    throw ValueError(xp.ndim() == 0 || fp.ndim() == 0 ? "object of too small depth for desired array"
                                                      : "object too deep for desired array");
  if (xp.shape(0) == 0) throw ValueError("array of sample points is empty");
  if (fp.shape(0) != xp.shape(0)) throw ValueError("fp and xp are not of the same length.");
  if (!complex_fp && ((options.left && options.left->imag() != 0) || (options.right && options.right->imag() != 0)))
    throw TypeError("must be real number, not complex");
  cuda::DeviceGuard guard(x.device());
  ndarray xs = x, xps = xp, fps = fp;
  std::optional<std::complex<double>> left = options.left, right = options.right;
  if (options.period) {
    const double period = std::fabs(*options.period);
    left.reset();
    right.reset();
    xs = remainder(astype(x, float64, casting::safe, false), period);
    // xp % period sorted (on the host: xp is the small side), fp in the same order, and one
    // point of the neighbouring periods at each end.
    std::vector<double> h = remainder(astype(xp, float64, casting::safe, false), period).to_vector<double>();
    std::vector<std::int64_t> order(h.size());
    std::iota(order.begin(), order.end(), std::int64_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return h[static_cast<std::size_t>(a)] < h[static_cast<std::size_t>(b)];
    });
    if (!h.empty()) {
      std::vector<double> sorted;
      sorted.push_back(h[static_cast<std::size_t>(order.back())] - period);
      for (std::int64_t k : order) sorted.push_back(h[static_cast<std::size_t>(k)]);
      sorted.push_back(h[static_cast<std::size_t>(order.front())] + period);
      std::vector<std::int64_t> take_order;
      take_order.push_back(order.back());
      take_order.insert(take_order.end(), order.begin(), order.end());
      take_order.push_back(order.front());
      xps = asarray(sorted);
      fps = astype(fp, fp_type, casting::safe, false)(asarray(take_order));
    }
  }
  const int64_t n = xps.shape(0);
  fps = astype(fps, fp_type, casting::safe, false);
  xps = astype(xps, float64, casting::safe, false);
  // The defaults fp[0] and fp[-1], read from the device only when needed.
  if (!left || !right) {
    const ndarray ends = fps.index(std::vector<index_item>{slice(0, n, n > 1 ? n - 1 : 1)});
    if (complex_fp) {
      const std::vector<std::complex<double>> e = ends.to_vector<std::complex<double>>();
      if (!left) left = e.front();
      if (!right) right = e.back();
    } else {
      const std::vector<double> e = ends.to_vector<double>();
      if (!left) left = e.front();
      if (!right) right = e.back();
    }
  }
  if (xs.size() == 0) return new_c_array(xs.shape(), fp_type, xs.device());
  // (A 0-d x runs as one element and comes back 0-d.)
  const ndarray xf = astype(xs, float64, casting::safe, false).reshape({xs.size()});
  std::vector<ndarray> r;
  if (complex_fp) {
    r = detail::interp_kernel(true).call({xf, xps, fps, *left, *right});
  } else {
    r = detail::interp_kernel(false).call({xf, xps, fps, left->real(), right->real()});
  }
  return r.front().reshape(xs.shape());
}
// ---------------------------------------------------------------------------------------------
// convolve, correlate

ndarray convolve(const ndarray& a, const ndarray& v, std::string_view mode) {
  detail::require_array(a, "convolve");
  detail::require_array(v, "convolve");
  ndarray x = a.ndim() == 0 ? a.reshape({1}) : a, y = v.ndim() == 0 ? v.reshape({1}) : v;
  if (x.ndim() > 1 || y.ndim() > 1) throw ValueError("object too deep for desired array");
  if (y.shape(0) > x.shape(0)) std::swap(x, y);
  if (x.shape(0) == 0) throw ValueError("a cannot be empty");
  if (y.shape(0) == 0) throw ValueError("v cannot be empty");
  const corr_mode m = parse_corr_mode(mode);
  const dtype type = promote_types(x.dtype(), y.dtype());
  cuda::DeviceGuard guard(x.device());
  const ndarray y_reversed = y(slice(std::nullopt, std::nullopt, -1));
  return correlate_core(astype(x, type, casting::unsafe, false), astype(y_reversed, type, casting::unsafe, false), m);
}

ndarray correlate(const ndarray& a, const ndarray& v, std::string_view mode) {
  detail::require_array(a, "correlate");
  detail::require_array(v, "correlate");
  const corr_mode m = parse_corr_mode(mode);
  const dtype type = promote_types(a.dtype(), v.dtype());
  require_1d(a);
  require_1d(v);
  if (a.shape(0) == 0) throw ValueError("first array argument cannot be empty");
  if (v.shape(0) == 0) throw ValueError("second array argument cannot be empty");
  cuda::DeviceGuard guard(a.device());
  ndarray x = astype(a, type, casting::unsafe, false);
  ndarray y = astype(v, type, casting::unsafe, false);
  if (type.is_complex()) y = conjugate(y);
  // NumPy's correlate2: the longer input goes first, and the output is then reversed.
  const bool inverted = x.shape(0) < y.shape(0);
  if (inverted) std::swap(x, y);
  ndarray r = correlate_core(x, y, m);
  if (inverted) r = r(slice(std::nullopt, std::nullopt, -1)).copy();
  return r;
}

}  // namespace cupp
