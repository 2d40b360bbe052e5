// cupp eval: the values an expression computes: a device array, a Python scalar (weak under
// NEP 50), None, a tuple, a string (for dtype='float32', casting='unsafe'), or a slice object
// (Python's slice(start, stop, step): an index item given as an argument, delete's obj).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "cupp/ndarray.hpp"
#include "scalar.hpp"

namespace cupp::eval {

struct none_value {};
struct value;
using tuple_value = std::vector<value>;

struct value {
  std::variant<cupp::ndarray, py_scalar, none_value, tuple_value, std::string, cupp::slice> v;

  value() : v(none_value{}) {}
  value(cupp::ndarray a) : v(std::move(a)) {}             // NOLINT: implicit
  value(py_scalar s) : v(s) {}                            // NOLINT
  value(none_value n) : v(n) {}                           // NOLINT
  value(tuple_value t) : v(std::move(t)) {}               // NOLINT
  explicit value(std::string s) : v(std::move(s)) {}
  explicit value(cupp::slice s) : v(s) {}

  bool is_array() const noexcept { return v.index() == 0; }
  bool is_scalar() const noexcept { return v.index() == 1; }
  bool is_none() const noexcept { return v.index() == 2; }
  bool is_tuple() const noexcept { return v.index() == 3; }
  bool is_string() const noexcept { return v.index() == 4; }
  bool is_slice() const noexcept { return v.index() == 5; }
  const cupp::ndarray& array() const { return std::get<0>(v); }
  const py_scalar& scalar() const { return std::get<1>(v); }
  const tuple_value& tuple() const { return std::get<3>(v); }
  const std::string& string() const { return std::get<4>(v); }
  const cupp::slice& slice() const { return std::get<5>(v); }

  // Python's type name, for messages: "ndarray", "int", "float", "NoneType", "tuple", "str", "slice".
  const char* type_name() const noexcept {
    switch (v.index()) {
      case 0: return "ndarray";
      case 1: return scalar().type_name();
      case 2: return "NoneType";
      case 3: return "tuple";
      case 4: return "str";
      default: return "slice";
    }
  }
};

// A keyword argument after evaluation.
struct keyword_value {
  std::string name;
  value v;
};

}  // namespace cupp::eval
