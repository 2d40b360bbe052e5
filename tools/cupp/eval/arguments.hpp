// cupp eval: a routine's positional and keyword arguments bound to its parameter names as Python
// binds them, with typed readers (integers, axes, tuples, dtypes, casting, arrays, sequences of
// arrays, shapes, strings, numbers). Shared by the creation, manipulation and indexing tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

  bool has(std::size_t i) const { return slots_[i].has_value() && !slots_[i]->is_none(); }
  const value& get(std::size_t i) const { return *slots_[i]; }

  static bool is_int(const value& v);
  std::int64_t to_int(const value& v, std::size_t i) const;  // TypeError, OverflowError
  std::int64_t integer(std::size_t i, std::int64_t fallback) const;
  std::optional<std::int64_t> optional_integer(std::size_t i) const;
  std::optional<int> axis_or_none(std::size_t i, int fallback) const;  // None -> nullopt; absent -> fallback
  std::optional<int> optional_axis(std::size_t i) const;
  std::vector<std::int64_t> integers(std::size_t i) const;  // an integer or a tuple of integers
  bool boolean(std::size_t i, bool fallback) const;
  std::optional<cupp::dtype> dtype(std::size_t i) const;  // a string such as 'float32'
  cupp::casting casting(std::size_t i) const;             // default same_kind
  std::string string(std::size_t i, std::string fallback) const;
  cupp::shape_t shape(std::size_t i) const;  // an integer or a tuple of integers
  const cupp::ndarray& array(std::size_t i) const;
  std::vector<cupp::ndarray> arrays(std::size_t i) const;  // a tuple of arrays
  cupp::weak_scalar number(std::size_t i) const;
  cupp::operand operand(std::size_t i) const;

 private:
  std::string name_;
  std::vector<std::string> params_;
  std::vector<std::optional<value>> slots_;
};

// Every positional argument as an array (TypeError naming the first that is not).
std::vector<cupp::ndarray> positional_arrays(std::string_view name, std::span<const value> args);

// A tuple value of arrays (routines that give several arrays).
value tuple_of(std::vector<cupp::ndarray> arrays);

}  // namespace cupp::eval
