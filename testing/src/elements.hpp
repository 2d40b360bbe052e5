// cupp::testing's internals shared by the assertions: reading one element of a host_array of any
// built-in dtype as an exact integer or a complex<double>, the broadcast index maps, str() of an
// element, and the message layout of numpy.testing's build_err_msg.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/host_array.hpp"
#include "format.hpp"

namespace cupp::testing::detail {

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// One element: bool and integer dtypes are exact integers (i), everything else is c (the real
// dtypes with imag 0).
struct value {
  bool is_int = false;
  int128 i = 0;
  std::complex<double> c;

  bool is_nan() const noexcept;
  bool is_inf() const noexcept;
  std::complex<double> as_complex() const noexcept { return is_int ? std::complex<double>(static_cast<double>(i)) : c; }
};

// Throws cupp::TypeError for void and structured dtypes (not numbers).
void require_numeric(const host_array& a, std::string_view function);
value read(const host_array& a, std::int64_t flat);
bool equal(const value& x, const value& y) noexcept;
// |x - y|: exact for two integers (then rounded to double), else abs of the complex difference.
double abs_diff(const value& x, const value& y) noexcept;
double magnitude(const value& v) noexcept;

// The floating type an element of `t` prints in (complex: its component's).
float_kind kind_of(const dtype& t) noexcept;
// str() of element `flat` as NumPy prints a scalar of the array's dtype ("True", "3", "0.1", "(1+2j)").
std::string element_str(const host_array& a, std::int64_t flat);
std::string int128_str(int128 v);

std::int64_t element_count(const shape_t& shape) noexcept;
// NumPy's broadcast of two shapes; nullopt when they do not broadcast.
std::optional<shape_t> broadcast_shapes(const shape_t& a, const shape_t& b);
// For each element of `target` (C order), the flat index of the element of `a` it reads.
std::vector<std::int64_t> broadcast_map(const shape_t& a, const shape_t& target);
// "[1]", "[0, 2]": the multi-index of a flat C-order index, as a Python list.
std::string index_str(std::int64_t flat, const shape_t& shape);

// numpy.testing's build_err_msg: the header, then err_msg and `remarks` (which starts with a
// newline when not empty), then " NAME: repr" for each array (repr cut to 3 lines, then "...").
std::string build_message(std::string_view header, std::string_view err_msg, std::string_view remarks,
                          const host_array& x, const host_array& y, std::string_view name_x = "ACTUAL",
                          std::string_view name_y = "DESIRED");

}  // namespace cupp::testing::detail
