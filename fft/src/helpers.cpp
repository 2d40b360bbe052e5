// numpy.fft's helper routines: fftfreq and rfftfreq (an int64 ramp times 1/(n*d), NumPy's
// arithmetic, so the values are NumPy's bit for bit) and fftshift / ifftshift (cupp::roll by half
// of each axis).
#include <cstdint>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::fft {

namespace {

// 1/(n*d) as NumPy computes it (a Python float): n*d == 0 is its ZeroDivisionError.
double inverse_span(std::int64_t n, double d) {
  const double span = static_cast<double>(n) * d;
  if (span == 0.0) throw ValueError("float division by zero");  // NumPy: ZeroDivisionError
  return 1.0 / span;
}

// The per-axis shifts of (i)fftshift: +-(shape[axis] // 2) for the given axes, or every axis.
ndarray shifted(const ndarray& x, std::span<const int> axes, bool all_axes, int sign) {
  std::vector<std::int64_t> shifts;
  std::vector<int> along;
  const int ndim = static_cast<int>(x.ndim());
  if (all_axes) {
    for (int axis = 0; axis < ndim; ++axis) along.push_back(axis);
  } else {
    along.assign(axes.begin(), axes.end());
  }
  for (int axis : along) {
    if (axis < -ndim || axis >= ndim) throw IndexError("tuple index out of range");  // NumPy's x.shape[axis]
    shifts.push_back(sign * (x.shape()[axis < 0 ? axis + ndim : axis] / 2));
  }
  return roll(x, std::span<const std::int64_t>(shifts), std::span<const int>(along));
}

}  // namespace

ndarray fftfreq(std::int64_t n, double d) {
  const double scale = inverse_span(n, d);
  if (n < 0) throw ValueError("negative dimensions are not allowed");  // NumPy's empty(n)
  const std::int64_t positive = (n - 1) / 2 + 1;
  const ndarray ramp = concatenate({arange(0, positive, 1, int64), arange(-(n / 2), 0, 1, int64)});
  return multiply(ramp, scale);
}

ndarray rfftfreq(std::int64_t n, double d) {
  const double scale = inverse_span(n, d);
  // NumPy's arange(0, n//2 + 1): empty for a negative n (no error, unlike fftfreq).
  return multiply(arange(0, n < 0 ? 0 : n / 2 + 1, 1, int64), scale);
}

ndarray fftshift(const ndarray& x) { return shifted(x, {}, true, 1); }
ndarray fftshift(const ndarray& x, std::span<const int> axes) { return shifted(x, axes, false, 1); }
ndarray fftshift(const ndarray& x, std::initializer_list<int> axes) {
  return shifted(x, std::span<const int>(axes.begin(), axes.size()), false, 1);
}
ndarray ifftshift(const ndarray& x) { return shifted(x, {}, true, -1); }
ndarray ifftshift(const ndarray& x, std::span<const int> axes) { return shifted(x, axes, false, -1); }
ndarray ifftshift(const ndarray& x, std::initializer_list<int> axes) {
  return shifted(x, std::span<const int>(axes.begin(), axes.size()), false, -1);
}

}  // namespace cupp::fft
