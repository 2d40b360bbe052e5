// cupp::fft, NumPy's numpy.fft (the fft module, target cupp::fft; cupp::cupp links it). Today the
// helper routines: the sample frequencies of a transform and the shifts that centre them.
//
//   auto f = cupp::fft::fftfreq(8, 0.1);        // [0, 1.25, ..., -1.25] (float64)
//   auto r = cupp::fft::rfftfreq(8);            // [0, 0.125, 0.25, 0.375, 0.5]
//   auto c = cupp::fft::fftshift(spectrum);     // zero frequency to the centre, every axis
//   auto b = cupp::fft::ifftshift(c, {0});      // its inverse, along axis 0
//
// Results are computed on the current device without synchronising, and agree bit for bit with
// NumPy's (the same int64 * float64 products). docs/api/fft.md lists each routine.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"

namespace cupp::fft {

// numpy.fft.fftfreq(n, d=1.0): [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (n*d), float64 of
// length n. n*d == 0 is ValueError("float division by zero") (NumPy's ZeroDivisionError); a
// negative n ValueError("negative dimensions are not allowed").
ndarray fftfreq(std::int64_t n, double d = 1.0);
// numpy.fft.rfftfreq(n, d=1.0): [0, 1, ..., n//2] / (n*d), float64 of length n//2 + 1 (the
// frequencies of rfft's output). n*d == 0 is ValueError as for fftfreq; a negative n gives an
// empty array, as NumPy's arange(0, n//2 + 1) does.
ndarray rfftfreq(std::int64_t n, double d = 1.0);

// numpy.fft.fftshift(x, axes=None): x rolled by shape[axis] // 2 along each axis (every axis by
// default), so the zero frequency moves to the centre. A new array (one segment copy launch). An
// axis out of range is IndexError("tuple index out of range"), as NumPy's x.shape[axis].
ndarray fftshift(const ndarray& x);
ndarray fftshift(const ndarray& x, std::span<const int> axes);
ndarray fftshift(const ndarray& x, std::initializer_list<int> axes);
// numpy.fft.ifftshift(x, axes=None): the inverse, rolled by -(shape[axis] // 2).
ndarray ifftshift(const ndarray& x);
ndarray ifftshift(const ndarray& x, std::span<const int> axes);
ndarray ifftshift(const ndarray& x, std::initializer_list<int> axes);

// What `cupp info` prints for the module: the cuFFT version.
std::vector<module_info_row> info();

}  // namespace cupp::fft

namespace cupp {
// For tools: the fft routines by name with their NumPy signatures (generated from
// specs/routines/fft.yaml; cupp ops lists them).
std::span<const routine_info> fft_routines() noexcept;
}  // namespace cupp
