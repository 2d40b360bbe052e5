// How cupp::testing prints numbers in its messages, as NumPy does: str() of a NumPy scalar (the
// shortest digits that give the value back in its own dtype, Python's repr layout),
// array2string() of a 0-d float (NumPy's default precision 8, 'maxprec', trailing '.'), Python's
// '{:g}' and tuple shapes.
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "cupp/host_array.hpp"

namespace cupp::testing::detail {

// The floating type a number is printed in: its shortest digits are those that round back to
// the same value in this type.
enum class float_kind { f16, bf16, f32, f64 };

double round_to(double v, float_kind kind) noexcept;
// str(numpy.float32(v)) etc.: "1.0", "0.1", "1e-05", "1e+16", "nan", "-inf".
std::string scalar_str(double v, float_kind kind);
// str(numpy.complex128(v)): "(1+2j)", "2j", "(nan+nanj)".
std::string complex_str(std::complex<double> v, float_kind kind);
// numpy.array2string of a 0-d float: "1.", "0.1", "6.e-05", "4.4408921e-16", "inf".
std::string array2string(double v, float_kind kind);
// Python's f"{v:.{precision}g}".
std::string g_format(double v, int precision = 6);
// A Python tuple: "()", "(3,)", "(2, 3)".
std::string shape_str(const shape_t& shape);

}  // namespace cupp::testing::detail
