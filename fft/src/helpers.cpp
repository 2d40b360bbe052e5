// numpy.fft's helper routines: fftfreq and rfftfreq (one kernel of the module's own device code,
// fft/device/cupp/fft/frequencies.cuh: NumPy's int64 ramp times 1/(n*d), so the values are NumPy's
// bit for bit) and fftshift / ifftshift (cupp::roll by half of each axis).
#include <cstdint>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/manipulation.hpp"
#include "fft_device_headers.hpp"
#include "helpers_program.hpp"

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

// `length` float64 frequencies k * scale (k = i below `positive`, i - n from there) on the
// current device, one launch of cupp_fft_frequencies.
ndarray frequencies(std::int64_t length, std::int64_t positive, std::int64_t n, double scale) {
  ndarray out = empty({length}, float64);
  if (length == 0) return out;
  const int device = out.device();
  const cupp::detail::kernel_module& module =
      cupp::detail::routine_module(device, {"fft:frequencies", 0}, [] { return detail::helpers_program(); });
  double* data = static_cast<double*>(out.data());
  long long len = length, pos = positive, total = n;
  void* args[] = {&data, &len, &pos, &total, &scale};
  cupp::detail::launch_1d(module.function(0), length, args, device);
  return out;
}

}  // namespace

namespace detail {
cupp::detail::routine_program helpers_program() {
  return {.name = "cupp_fft_frequencies",
          .source = "#include <cupp/fft/frequencies.cuh>\n",
          .kernels = {"cupp_fft_frequencies"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}
}  // namespace detail

ndarray fftfreq(std::int64_t n, double d) {
  const double scale = inverse_span(n, d);
  if (n < 0) throw ValueError("negative dimensions are not allowed");  // NumPy's empty(n)
  return frequencies(n, (n - 1) / 2 + 1, n, scale);
}

ndarray rfftfreq(std::int64_t n, double d) {
  const double scale = inverse_span(n, d);
  // NumPy's arange(0, n//2 + 1): empty for a negative n (no error, unlike fftfreq).
  const std::int64_t length = n < 0 ? 0 : n / 2 + 1;
  return frequencies(length, length, n, scale);
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
