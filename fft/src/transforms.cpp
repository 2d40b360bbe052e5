// numpy.fft's transforms (fft, ifft, rfft, irfft, hfft, ihfft, the n-D and 2-D forms) and SciPy's
// next_fast_len: NumPy 2.5's argument handling (numpy/fft/_pocketfft.py: _raw_fft, _cook_nd_args,
// _raw_fftnd) with its checks in its order and its messages, over the engine in transform.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/ufunc.hpp"
#include "callbacks.hpp"
#include "transform.hpp"

namespace cupp::fft {

namespace {

using detail::norm_kind;

// NumPy's norm check: _raw_fft's message for a forward transform has no space after the first
// comma; _swap_direction's (the inverse transforms, hfft, ihfft) has one.
norm_kind parse_norm(const std::optional<std::string>& norm, bool swap_message) {
  if (!norm || *norm == "backward") return norm_kind::backward;
  if (*norm == "ortho") return norm_kind::ortho;
  if (*norm == "forward") return norm_kind::forward;
  throw ValueError("Invalid norm value " + *norm + (swap_message ? "; should be \"backward\", " : "; should be \"backward\",") +
                   "\"ortho\" or \"forward\".");
}

norm_kind swapped(norm_kind k) {
  return k == norm_kind::backward ? norm_kind::forward : k == norm_kind::forward ? norm_kind::backward : k;
}

// a.shape[axis] as Python indexes a tuple.
std::int64_t shape_at(const ndarray& a, std::int64_t axis) {
  const int nd = a.ndim();
  if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
  return a.shape()[axis < 0 ? axis + nd : axis];
}

// NumPy's normalize_axis_index.
int normalized_axis(std::int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

void check_points(std::int64_t n) {
  if (n < 1) throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
}

enum class which { fft, ifft, rfft, irfft, hfft, ihfft };

// One 1-D transform, as numpy.fft's functions and _raw_fft check their arguments.
ndarray one_dimensional(const ndarray& a, const fft_options& o, which w) {
  const bool inverse_real = w == which::irfft || w == which::hfft;
  std::int64_t n = 0;
  if (o.n) n = *o.n;
  else n = inverse_real ? (shape_at(a, o.axis) - 1) * 2 : shape_at(a, o.axis);
  // The kind of factor as a forward transform sees it (hfft: irfft with the norm swapped, swapped
  // again by irfft; ihfft: rfft with the norm swapped).
  norm_kind k{};
  if (w == which::hfft || w == which::ihfft) {
    k = parse_norm(o.norm, true);
    if (w == which::ihfft) k = swapped(k);
    check_points(n);
  } else {
    check_points(n);
    const bool inverse = w == which::ifft || w == which::irfft;
    k = parse_norm(o.norm, inverse);
    if (inverse) k = swapped(k);
  }
  const int axis = normalized_axis(o.axis, a.ndim());
  const double scale = detail::norm_factor(k, n, detail::dtypes_of(a.dtype()).factor_type);
  switch (w) {
    case which::fft: return detail::c2c(a, {axis}, {n}, -1, scale, o.out, false);
    case which::ifft: return detail::c2c(a, {axis}, {n}, 1, scale, o.out, false);
    case which::rfft: return detail::r2c(a, axis, n, scale, o.out);
    case which::irfft: return detail::c2r(a, axis, n, scale, o.out, false, false);
    case which::hfft: return detail::c2r(a, axis, n, scale, o.out, true, false);
    case which::ihfft: {
      ndarray r = detail::r2c(a, axis, n, scale, o.out);
      cupp::conjugate(r, {.out = r});
      return r;
    }
  }
  return {};
}

// NumPy's _cook_nd_args: the lengths and the (not yet normalized) axes of an n-D transform.
void cook(const ndarray& a, const std::optional<std::vector<std::int64_t>>& s_in,
          const std::optional<std::vector<std::int64_t>>& axes_in, bool inverse_real, std::vector<std::int64_t>& s,
          std::vector<std::int64_t>& axes) {
  const int nd = a.ndim();
  const bool shapeless = !s_in;
  if (shapeless) {
    s.clear();
    if (!axes_in) {
      s.assign(a.shape().begin(), a.shape().end());
    } else {
      for (std::int64_t ax : *axes_in) {  // NumPy's take(a.shape, axes)
        if (ax < -nd || ax >= nd)
          throw IndexError("index " + std::to_string(ax) + " is out of bounds for axis 0 with size " + std::to_string(nd));
        s.push_back(a.shape()[ax < 0 ? ax + nd : ax]);
      }
    }
  } else {
    s = *s_in;
  }
  if (axes_in) {
    axes = *axes_in;
  } else {  // (with s given, NumPy 2 warns that this is deprecated and takes the last len(s) axes)
    axes.clear();
    for (std::int64_t i = -static_cast<std::int64_t>(s.size()); i < 0; ++i) axes.push_back(i);
  }
  if (s.size() != axes.size()) throw ValueError("Shape and axes have different lengths.");
  if (inverse_real && shapeless) {
    if (axes.empty()) throw IndexError("list index out of range");
    s.back() = (shape_at(a, axes.back()) - 1) * 2;
  }
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == -1) s[i] = shape_at(a, axes[i]);
}

// The checks each 1-D pass of _raw_fftnd makes (the last axis first): n >= 1, the norm, the axis.
std::vector<int> checked_passes(const ndarray& a, const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& axes,
                                const std::optional<std::string>& norm, bool inverse, norm_kind& k) {
  std::vector<int> normalized(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    check_points(s[i]);
    k = parse_norm(norm, inverse);
    normalized[i] = normalized_axis(axes[i], a.ndim());
  }
  if (inverse) k = swapped(k);
  return normalized;
}

double total_factor(norm_kind k, const std::vector<std::int64_t>& s, dtype factor_type) {
  double f = 1.0;
  for (std::int64_t n : s) f *= detail::norm_factor(k, n, factor_type);
  return f;
}

ndarray complex_nd(const ndarray& a, const std::optional<std::vector<std::int64_t>>& s_in,
                   const std::optional<std::vector<std::int64_t>>& axes_in, const std::optional<std::string>& norm,
                   const ndarray& out, bool inverse) {
  std::vector<std::int64_t> s, axes;
  cook(a, s_in, axes_in, false, s, axes);
  if (axes.empty()) return a;  // NumPy returns its asarray(a) untouched
  norm_kind k{};
  const std::vector<int> normalized = checked_passes(a, s, axes, norm, inverse, k);
  const double scale = total_factor(k, s, detail::dtypes_of(a.dtype()).factor_type);
  return detail::c2c(a, normalized, s, inverse ? 1 : -1, scale, out, false);
}

ndarray real_nd(const ndarray& a, const std::optional<std::vector<std::int64_t>>& s_in,
                const std::optional<std::vector<std::int64_t>>& axes_in, const std::optional<std::string>& norm,
                const ndarray& out) {
  std::vector<std::int64_t> s, axes;
  cook(a, s_in, axes_in, false, s, axes);
  if (axes.empty()) throw IndexError("list index out of range");  // NumPy's s[-1]
  norm_kind k{};
  const std::vector<int> normalized = checked_passes(a, s, axes, norm, false, k);
  const double scale = total_factor(k, s, detail::dtypes_of(a.dtype()).factor_type);
  const int last = normalized.back();
  if (axes.size() == 1) return detail::r2c(a, last, s.back(), scale, out);
  if (detail::current_callbacks())
    throw ValueError("cuFFT callbacks need a transform that runs as one cuFFT execution; rfftn over several axes runs an "
                     "rfft and then an fft");
  const ndarray half = detail::r2c(a, last, s.back(), 1.0, ndarray());
  std::vector<int> rest(normalized.begin(), normalized.end() - 1);
  std::vector<std::int64_t> rest_s(s.begin(), s.end() - 1);
  return detail::c2c(half, rest, rest_s, -1, scale, out, true);
}

ndarray inverse_real_nd(const ndarray& a, const std::optional<std::vector<std::int64_t>>& s_in,
                        const std::optional<std::vector<std::int64_t>>& axes_in, const std::optional<std::string>& norm,
                        const ndarray& out) {
  std::vector<std::int64_t> s, axes;
  cook(a, s_in, axes_in, true, s, axes);
  if (axes.empty()) throw IndexError("list index out of range");
  norm_kind k{};
  const std::vector<int> normalized = checked_passes(a, s, axes, norm, true, k);
  const double scale = total_factor(k, s, detail::dtypes_of(a.dtype()).factor_type);
  const int last = normalized.back();
  if (axes.size() == 1) return detail::c2r(a, last, s.back(), scale, out, false, false);
  if (detail::current_callbacks())
    throw ValueError("cuFFT callbacks need a transform that runs as one cuFFT execution; irfftn over several axes runs an "
                     "ifft and then an irfft");
  std::vector<int> rest(normalized.begin(), normalized.end() - 1);
  std::vector<std::int64_t> rest_s(s.begin(), s.end() - 1);
  const ndarray mixed = detail::c2c(a, rest, rest_s, 1, 1.0, ndarray(), false);
  return detail::c2r(mixed, last, s.back(), scale, out, false, true);
}

}  // namespace

ndarray fft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::fft); }
ndarray ifft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::ifft); }
ndarray rfft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::rfft); }
ndarray irfft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::irfft); }
ndarray hfft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::hfft); }
ndarray ihfft(const ndarray& a, const fft_options& options) { return one_dimensional(a, options, which::ihfft); }

ndarray fftn(const ndarray& a, const fftn_options& o) { return complex_nd(a, o.s, o.axes, o.norm, o.out, false); }
ndarray ifftn(const ndarray& a, const fftn_options& o) { return complex_nd(a, o.s, o.axes, o.norm, o.out, true); }
ndarray rfftn(const ndarray& a, const fftn_options& o) { return real_nd(a, o.s, o.axes, o.norm, o.out); }
ndarray irfftn(const ndarray& a, const fftn_options& o) { return inverse_real_nd(a, o.s, o.axes, o.norm, o.out); }
namespace {
std::optional<std::vector<std::int64_t>> axes_2d(const fft2_options& o) {
  return o.axes ? o.axes : std::optional<std::vector<std::int64_t>>(std::vector<std::int64_t>{-2, -1});
}
}  // namespace

ndarray fft2(const ndarray& a, const fft2_options& o) { return complex_nd(a, o.s, axes_2d(o), o.norm, o.out, false); }
ndarray ifft2(const ndarray& a, const fft2_options& o) { return complex_nd(a, o.s, axes_2d(o), o.norm, o.out, true); }
ndarray rfft2(const ndarray& a, const fft2_options& o) { return real_nd(a, o.s, axes_2d(o), o.norm, o.out); }
ndarray irfft2(const ndarray& a, const fft2_options& o) { return inverse_real_nd(a, o.s, axes_2d(o), o.norm, o.out); }

std::int64_t next_fast_len(std::int64_t target, bool real) {
  if (target < 0) throw ValueError("Target cannot be negative");
  if (target <= 6) return target;  // SciPy's good_size: every n <= 6 is smooth
  if (target > (std::int64_t{1} << 62)) throw ValueError("Target length is too large to perform an FFT: " + std::to_string(target));
  std::int64_t best = 1;  // a power of 2 is always smooth
  while (best < target) best *= 2;
  // The smallest 11-smooth (real: 5-smooth) number >= target.
  const std::int64_t primes_all[] = {3, 5, 7, 11};
  const int count = real ? 2 : 4;
  std::vector<std::int64_t> odd{1};
  for (int i = 0; i < count; ++i) {
    const std::size_t existing = odd.size();
    for (std::size_t j = 0; j < existing; ++j)
      for (std::int64_t v = odd[j] * primes_all[i]; v < best; v *= primes_all[i]) odd.push_back(v);
  }
  for (std::int64_t v : odd) {
    std::int64_t x = v;
    while (x < target) x *= 2;
    best = std::min(best, x);
  }
  return best;
}

}  // namespace cupp::fft
