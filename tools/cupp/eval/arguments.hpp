// cupp eval: a routine's positional and keyword arguments bound to its parameter names as Python
// binds them, with typed readers (integers, axes, tuples, dtypes, casting, arrays, sequences of
// arrays, shapes, strings, numbers). The generated bindings (generated/tools/eval_bindings.cpp,
// from the typed signatures of specs/routines/) and the hand ones use the same readers; each
// reader of codegen/routine_params.py's TYPES is a member here.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"
#include "cupp/ufunc.hpp"
#include "value.hpp"

namespace cupp::eval {

class arguments {
 public:
  // TypeError as Python gives it: too many positionals, an unknown or repeated keyword, a missing
  // one of the first `required` parameters; out= (cupp eval writes outputs to the -o files).
  arguments(std::string name, std::vector<std::string> params, std::size_t required, std::span<const value> args,
            std::span<const keyword_value> keywords);
  // The same with only the first `positional` parameters positional (those after a `*` are
  // keyword-only, as Python's).
  arguments(std::string name, std::vector<std::string> params, std::size_t required, std::size_t positional,
            std::span<const value> args, std::span<const keyword_value> keywords);

  bool has(std::size_t i) const { return slots_[i].has_value() && !slots_[i]->is_none(); }
  const value& get(std::size_t i) const { return *slots_[i]; }

  static bool is_int(const value& v);
  std::int64_t to_int(const value& v, std::size_t i) const;  // TypeError, OverflowError
  std::int64_t integer(std::size_t i, std::int64_t fallback) const;
  std::optional<std::int64_t> optional_integer(std::size_t i) const;
  std::optional<int> axis_or_none(std::size_t i, int fallback) const;  // None -> nullopt; absent -> fallback
  std::optional<int> optional_axis(std::size_t i) const;
  std::vector<std::int64_t> integers(std::size_t i) const;  // an integer or a tuple of integers
  std::optional<std::vector<std::int64_t>> optional_integers(std::size_t i) const;
  bool boolean(std::size_t i, bool fallback) const;
  std::optional<cupp::dtype> dtype(std::size_t i) const;  // a string such as 'float32'
  cupp::casting casting(std::size_t i) const;             // default same_kind
  std::string string(std::size_t i, std::string fallback) const;
  cupp::shape_t shape(std::size_t i) const;  // an integer or a tuple of integers
  const cupp::ndarray& array(std::size_t i) const;
  std::vector<cupp::ndarray> arrays(std::size_t i) const;  // a tuple of arrays
  cupp::weak_scalar number(std::size_t i) const;
  cupp::operand operand(std::size_t i) const;

  // Readers the generated bindings use (a default of None reads an optional form).
  cupp::ndarray optional_array(std::size_t i) const;  // absent or None: an empty ndarray (not given)
  cupp::ndarray index_array(std::size_t i) const;  // an array, or a Python int as a 0-d int64 array
  // An array, or a Python scalar as the 0-d array np.asanyarray makes of it (bool, int64, float64,
  // complex128); the optional form gives an empty ndarray when absent or None.
  cupp::ndarray array_like(std::size_t i) const;
  cupp::ndarray optional_array_like(std::size_t i) const;
  // where= of the reductions: a bool array, True or absent (no mask: an empty ndarray), or False
  // (a 0-d False mask, which selects nothing).
  cupp::ndarray where_mask(std::size_t i) const;
  cupp::operand operand_or(std::size_t i, double fallback) const;
  std::optional<cupp::operand> optional_operand(std::size_t i) const;
  std::optional<cupp::weak_scalar> optional_number(std::size_t i) const;
  double real(std::size_t i) const;  // a real number (TypeError for a complex one)
  double real_or(std::size_t i, double fallback) const;
  std::optional<double> optional_real(std::size_t i) const;
  int int32(std::size_t i, int fallback) const;  // OverflowError past a C++ int
  cupp::axes axes(std::size_t i) const;          // absent: not given; None: every axis
  std::optional<cupp::shape_t> optional_shape(std::size_t i) const;
  std::int64_t ddof(std::size_t i) const;  // an int, or a float with an integral value
  std::optional<std::int64_t> optional_ddof(std::size_t i) const;
  std::pair<double, double> range(std::size_t i) const;  // a tuple (min, max)
  std::optional<std::pair<double, double>> optional_range(std::size_t i) const;
  std::optional<bool> optional_boolean(std::size_t i) const;
  std::optional<std::string> optional_string(std::size_t i) const;
  cupp::dtype dtype_or(std::size_t i, cupp::dtype fallback) const;
  cupp::weak_scalar number_or(std::size_t i, cupp::weak_scalar fallback) const;
  std::complex<double> complex_number(std::size_t i) const;
  std::optional<std::complex<double>> optional_complex(std::size_t i) const;
  // An int or a tuple of ints (absent: empty). None is empty when the parameter's default is None
  // (none_is_empty), else NumPy's TypeError (expand_dims(a, None), moveaxis(a, None, 0)).
  std::vector<int> int_list(std::size_t i, bool none_is_empty) const;
  std::array<int, 2> axis_pair(std::size_t i, std::array<int, 2> fallback) const;  // ValueError unless 2
  cupp::index_spec index_obj(std::size_t i) const;  // an int, a slice, a tuple of ints, an integer array
  std::vector<bool> bool_mask(std::size_t i) const;  // a 1-d bool array
  cupp::order memory_order(std::size_t i, std::string_view fallback) const;  // 'C' or 'F'
  // 'raise', 'wrap' or 'clip' (cupp::parse_clip_mode), or a tuple of them (one per dimension).
  std::vector<cupp::clip_mode> clip_modes(std::size_t i, std::string_view fallback) const;

 private:
  std::string name_;
  std::vector<std::string> params_;
  std::vector<std::optional<value>> slots_;
};

// Every positional argument as an array (TypeError naming the first that is not).
std::vector<cupp::ndarray> positional_arrays(std::string_view name, std::span<const value> args);

// A tuple value of arrays (routines that give several arrays).
value tuple_of(std::vector<cupp::ndarray> arrays);

// What a routine's C++ result is as a cupp eval value: an array, or a tuple of arrays.
inline value to_value(value v) { return v; }
inline value to_value(cupp::ndarray a) { return value(std::move(a)); }
inline value to_value(std::vector<cupp::ndarray> arrays) { return tuple_of(std::move(arrays)); }
// Helpers the specs' calls use: one array as itself and several as a tuple (atleast_1d(a) is a,
// atleast_1d(a, b) a tuple); the sum of several shifts (roll without an axis).
value one_or_tuple(std::vector<cupp::ndarray> arrays);
std::int64_t sum_of(const std::vector<std::int64_t>& values);
inline value to_value(std::pair<cupp::ndarray, cupp::ndarray> p) { return tuple_of({std::move(p.first), std::move(p.second)}); }

}  // namespace cupp::eval
