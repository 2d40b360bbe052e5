// cupp eval: binding and reading a routine's arguments (see arguments.hpp).
#include "arguments.hpp"

#include <string>

#include "cupp/errors.hpp"
#include "functions.hpp"

namespace cupp::eval {

arguments::arguments(std::string name, std::vector<std::string> params, std::size_t required,
                     std::span<const value> args, std::span<const keyword_value> keywords)
    : name_(std::move(name)), params_(std::move(params)), slots_(params_.size()) {
  if (args.size() > params_.size())
    throw cupp::TypeError(name_ + "() takes at most " + std::to_string(params_.size()) + " positional arguments but " +
                          std::to_string(args.size()) + " were given");
  for (std::size_t i = 0; i < args.size(); ++i) slots_[i] = args[i];
  for (const keyword_value& k : keywords) {
    std::size_t i = 0;
    while (i < params_.size() && params_[i] != k.name) ++i;
    if (k.name == "out")
      throw cupp::TypeError(name_ + "(): out= is not supported by cupp eval (outputs go to the -o files)");
    if (i == params_.size())
      throw cupp::TypeError(name_ + "() got an unexpected keyword argument '" + k.name + "'");
    if (slots_[i]) throw cupp::TypeError(name_ + "() got multiple values for argument '" + k.name + "'");
    slots_[i] = k.v;
  }
  for (std::size_t i = 0; i < required; ++i) {
    if (!slots_[i])
      throw cupp::TypeError(name_ + "() missing required argument '" + params_[i] + "' (pos " + std::to_string(i + 1) +
                            ")");
  }
}

bool arguments::is_int(const value& v) {
  return v.is_scalar() && (v.scalar().k == py_scalar::kind::int_ || v.scalar().k == py_scalar::kind::bool_);
}

std::int64_t arguments::to_int(const value& v, std::size_t i) const {
  if (is_int(v)) {
    const cupp::weak_scalar w = to_weak(v.scalar());
    if (w.scalar_kind() == cupp::weak_scalar::kind::bool_) return static_cast<std::int64_t>(w.magnitude());
    if (w.fits(cupp::int64))
      return w.is_negative() ? -static_cast<std::int64_t>(w.magnitude() - 1) - 1 : static_cast<std::int64_t>(w.magnitude());
    throw cupp::OverflowError(name_ + "(): '" + params_[i] + "' does not fit int64");
  }
  throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be an integer, not '" + v.type_name() + "'");
}

std::int64_t arguments::integer(std::size_t i, std::int64_t fallback) const { return has(i) ? to_int(get(i), i) : fallback; }

std::optional<std::int64_t> arguments::optional_integer(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return integer(i, 0);
}

std::optional<int> arguments::axis_or_none(std::size_t i, int fallback) const {
  if (!slots_[i]) return fallback;
  if (slots_[i]->is_none()) return std::nullopt;
  return static_cast<int>(to_int(get(i), i));
}

std::optional<int> arguments::optional_axis(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return static_cast<int>(to_int(get(i), i));
}

std::vector<std::int64_t> arguments::integers(std::size_t i) const {
  std::vector<std::int64_t> out;
  if (get(i).is_tuple()) {
    for (const value& x : get(i).tuple()) out.push_back(to_int(x, i));
  } else {
    out.push_back(to_int(get(i), i));
  }
  return out;
}

bool arguments::boolean(std::size_t i, bool fallback) const {
  if (!has(i)) return fallback;
  const value& v = get(i);
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::bool_) return v.scalar().b;
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::int_) return v.scalar().i != 0;
  throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be True or False, not '" + v.type_name() + "'");
}

std::optional<cupp::dtype> arguments::dtype(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  if (!get(i).is_string())
    throw cupp::TypeError(name_ + "(): dtype must be a string such as 'float32', not '" + get(i).type_name() + "'");
  return cupp::dtype::parse(get(i).string());
}

cupp::casting arguments::casting(std::size_t i) const {
  if (!has(i)) return cupp::casting::same_kind;
  if (get(i).is_string()) {
    for (cupp::casting c : {cupp::casting::no, cupp::casting::equiv, cupp::casting::safe, cupp::casting::same_kind,
                            cupp::casting::unsafe})
      if (get(i).string() == cupp::to_string(c)) return c;
  }
  throw cupp::ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

std::string arguments::string(std::size_t i, std::string fallback) const {
  if (!has(i)) return fallback;
  if (!get(i).is_string())
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a string, not '" + get(i).type_name() + "'");
  return get(i).string();
}

cupp::shape_t arguments::shape(std::size_t i) const {
  const value& v = get(i);
  cupp::shape_t s;
  auto one = [&](const value& x) {
    if (!x.is_scalar() || x.scalar().k != py_scalar::kind::int_)
      throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be an integer or a tuple of integers, not '" +
                            x.type_name() + "'");
    const cupp::weak_scalar w = to_weak(x.scalar());
    if (!w.fits(cupp::int64)) throw cupp::ValueError(name_ + "(): dimension out of range");
    s.push_back(w.is_negative() ? -static_cast<std::int64_t>(w.magnitude() - 1) - 1 : static_cast<std::int64_t>(w.magnitude()));
  };
  if (v.is_tuple()) {
    for (const value& x : v.tuple()) one(x);
  } else {
    one(v);
  }
  return s;
}

const cupp::ndarray& arguments::array(std::size_t i) const {
  if (!get(i).is_array())
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be an array, not '" + get(i).type_name() + "'");
  return get(i).array();
}

std::vector<cupp::ndarray> arguments::arrays(std::size_t i) const {
  if (!get(i).is_tuple())
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a tuple of arrays such as (a, b), not '" +
                          get(i).type_name() + "'");
  std::vector<cupp::ndarray> out;
  for (const value& x : get(i).tuple()) {
    if (!x.is_array())
      throw cupp::TypeError(name_ + "(): the sequence must hold arrays, not '" + std::string(x.type_name()) + "'");
    out.push_back(x.array());
  }
  return out;
}

cupp::weak_scalar arguments::number(std::size_t i) const {
  if (!get(i).is_scalar())
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a number, not '" + get(i).type_name() + "'");
  return to_weak(get(i).scalar());
}

cupp::operand arguments::operand(std::size_t i) const { return to_operand(get(i), name_, i); }

std::vector<cupp::ndarray> positional_arrays(std::string_view name, std::span<const value> args) {
  std::vector<cupp::ndarray> xs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_array())
      throw cupp::TypeError(std::string(name) + "() argument " + std::to_string(i + 1) + " must be an array, not '" +
                            args[i].type_name() + "'");
    xs.push_back(args[i].array());
  }
  return xs;
}

value tuple_of(std::vector<cupp::ndarray> arrays) {
  tuple_value t;
  for (auto& a : arrays) t.emplace_back(std::move(a));
  return value(std::move(t));
}

}  // namespace cupp::eval
