// cupp eval: the values an expression computes: a device array, a Python scalar (weak under
// NEP 50), None, a tuple, a string (for dtype='float32', casting='unsafe'), a slice object
// (Python's slice(start, stop, step): an index item given as an argument, delete's obj), or a
// module's object (object_value: a SciPy sparse matrix from sparse.cpp), which the evaluator knows
// only through its interface, so eval depends on no module.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "scalar.hpp"

namespace cupp::eval {

struct none_value {};
struct value;
class object_value;
using tuple_value = std::vector<value>;
using object_ptr = std::shared_ptr<const object_value>;

struct value {
  std::variant<cupp::ndarray, py_scalar, none_value, tuple_value, std::string, cupp::slice, object_ptr> v;

  value() : v(none_value{}) {}
  value(cupp::ndarray a) : v(std::move(a)) {}             // NOLINT: implicit
  value(py_scalar s) : v(s) {}                            // NOLINT
  value(none_value n) : v(n) {}                           // NOLINT
  value(tuple_value t) : v(std::move(t)) {}               // NOLINT
  explicit value(std::string s) : v(std::move(s)) {}
  explicit value(cupp::slice s) : v(s) {}
  explicit value(object_ptr o) : v(std::move(o)) {}

  bool is_array() const noexcept { return v.index() == 0; }
  bool is_scalar() const noexcept { return v.index() == 1; }
  bool is_none() const noexcept { return v.index() == 2; }
  bool is_tuple() const noexcept { return v.index() == 3; }
  bool is_string() const noexcept { return v.index() == 4; }
  bool is_slice() const noexcept { return v.index() == 5; }
  bool is_object() const noexcept { return v.index() == 6; }
  const cupp::ndarray& array() const { return std::get<0>(v); }
  const py_scalar& scalar() const { return std::get<1>(v); }
  const tuple_value& tuple() const { return std::get<3>(v); }
  const std::string& string() const { return std::get<4>(v); }
  const cupp::slice& slice() const { return std::get<5>(v); }
  const object_value& object() const { return *std::get<6>(v); }
  const object_ptr& object_handle() const { return std::get<6>(v); }

  // Python's type name, for messages: "ndarray", "int", "float", "NoneType", "tuple", "str", "slice",
  // or the object's ("csr_matrix").
  inline const char* type_name() const noexcept;
};

// A keyword argument after evaluation.
struct keyword_value {
  std::string name;
  value v;
};

// A module's object as a value (a sparse matrix): what the evaluator asks of it. The defaults say
// "not handled", so a module implements only what its objects take.
class object_value {
 public:
  virtual ~object_value() = default;
  // Python's class name, for messages and for type errors: "csr_matrix", "coo_array".
  virtual const char* type_name() const noexcept = 0;
  // Python's repr(), which `-o -` prints.
  virtual std::string repr() const = 0;
  // self @ other (reflected: other @ self, Python's __rmatmul__). nullopt is Python's
  // NotImplemented: the other operand is asked, then the TypeError "unsupported operand type(s)".
  virtual std::optional<value> matmul(const value& /*other*/, bool /*reflected*/) const { return std::nullopt; }
  // A call f(...) of a table function or ufunc with this object among its positional arguments
  // (the first such object is asked, as NumPy asks __array_function__): nullopt runs f as usual.
  virtual std::optional<value> call_function(std::string_view /*name*/, std::span<const value> /*args*/,
                                             std::span<const keyword_value> /*keywords*/) const {
    return std::nullopt;
  }
  // -o FILE: check_save throws (TypeError) when the object cannot be written to `path`, before
  // any output is written; save writes it.
  virtual void check_save(const std::string& /*path*/) const {
    throw cupp::TypeError(std::string("the result is a '") + type_name() + "', which cannot be saved");
  }
  virtual void save(const std::string& path) const { check_save(path); }
};

inline const char* value::type_name() const noexcept {
  switch (v.index()) {
    case 0: return "ndarray";
    case 1: return scalar().type_name();
    case 2: return "NoneType";
    case 3: return "tuple";
    case 4: return "str";
    case 5: return "slice";
    default: return object().type_name();
  }
}

}  // namespace cupp::eval
