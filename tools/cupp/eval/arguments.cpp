// cupp eval: binding and reading a routine's arguments (see arguments.hpp).
#include "arguments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
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

arguments::arguments(std::string name, std::vector<std::string> params, std::size_t required, std::size_t positional,
                     std::span<const value> args, std::span<const keyword_value> keywords)
    : arguments(std::move(name), std::move(params), required, args.first(std::min(args.size(), positional)),
                keywords) {
  if (args.size() > positional)
    throw cupp::TypeError(name_ + "() takes " + std::to_string(positional) + " positional argument" +
                          (positional == 1 ? "" : "s") + " but " + std::to_string(args.size()) + " were given");
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

std::optional<std::vector<std::int64_t>> arguments::optional_integers(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return integers(i);
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

cupp::ndarray arguments::optional_array(std::size_t i) const {
  if (!has(i)) return cupp::ndarray();
  return array(i);
}

cupp::ndarray arguments::index_array(std::size_t i) const {
  if (is_int(get(i))) return cupp::scalar(cupp::weak_scalar(to_int(get(i), i)), cupp::int64);
  return array(i);
}

cupp::ndarray arguments::array_like(std::size_t i) const {
  const value& v = get(i);
  if (!v.is_scalar()) return array(i);
  const py_scalar& s = v.scalar();
  const std::vector<std::int64_t> zero_d;
  switch (s.k) {
    case py_scalar::kind::bool_: return cupp::full(zero_d, cupp::weak_scalar(s.b), cupp::bool_);
    case py_scalar::kind::int_: return cupp::full(zero_d, cupp::weak_scalar(to_int(v, i)), cupp::int64);
    case py_scalar::kind::float_: return cupp::full(zero_d, cupp::weak_scalar(s.f), cupp::float64);
    case py_scalar::kind::complex_: break;
  }
  return cupp::full(zero_d, cupp::weak_scalar(s.c), cupp::complex128);
}

cupp::ndarray arguments::optional_array_like(std::size_t i) const {
  if (!has(i)) return cupp::ndarray();
  return array_like(i);
}

cupp::ndarray arguments::where_mask(std::size_t i) const {
  if (!slots_[i]) return cupp::ndarray();
  const value& v = get(i);
  if (v.is_array()) return v.array();
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::bool_)
    return v.scalar().b ? cupp::ndarray() : cupp::full(std::vector<std::int64_t>{}, false, cupp::bool_);
  throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a bool array, True or False, not '" +
                        v.type_name() + "'");
}

cupp::operand arguments::operand_or(std::size_t i, double fallback) const {
  return has(i) ? operand(i) : cupp::operand(fallback);
}

std::optional<cupp::operand> arguments::optional_operand(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return operand(i);
}

std::optional<cupp::weak_scalar> arguments::optional_number(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return number(i);
}

double arguments::real(std::size_t i) const {
  const cupp::weak_scalar w = number(i);
  if (w.scalar_kind() == cupp::weak_scalar::kind::complex_)
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a real number, not complex");
  return w.real();
}

double arguments::real_or(std::size_t i, double fallback) const { return has(i) ? real(i) : fallback; }

std::optional<double> arguments::optional_real(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return real(i);
}

int arguments::int32(std::size_t i, int fallback) const {
  if (!has(i)) return fallback;
  const std::int64_t v = to_int(get(i), i);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw cupp::OverflowError(name_ + "(): '" + params_[i] + "' does not fit a C int");
  return static_cast<int>(v);
}

cupp::axes arguments::axes(std::size_t i) const {
  if (!slots_[i]) return cupp::axes();
  if (slots_[i]->is_none()) return cupp::axes::none();
  return cupp::axes(integers(i));
}

std::optional<cupp::shape_t> arguments::optional_shape(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return shape(i);
}

std::int64_t arguments::ddof(std::size_t i) const {
  const value& v = get(i);
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::float_) {
    const double d = v.scalar().f;
    if (d != std::trunc(d)) throw cupp::ValueError("ddof must be integer");
    return static_cast<std::int64_t>(d);
  }
  return to_int(v, i);
}

std::optional<std::int64_t> arguments::optional_ddof(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return ddof(i);
}

std::pair<double, double> arguments::range(std::size_t i) const {
  const value& r = get(i);
  auto real_of = [&](const value& v) {
    if (!v.is_scalar() || to_weak(v.scalar()).scalar_kind() == cupp::weak_scalar::kind::complex_)
      throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must hold real numbers, not '" + v.type_name() + "'");
    return to_weak(v.scalar()).real();
  };
  if (!r.is_tuple() || r.tuple().size() != 2)
    throw cupp::ValueError(name_ + "(): '" + params_[i] + "' must be a tuple (min, max)");
  return {real_of(r.tuple()[0]), real_of(r.tuple()[1])};
}

std::optional<std::pair<double, double>> arguments::optional_range(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return range(i);
}

std::optional<bool> arguments::optional_boolean(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return boolean(i, false);
}

std::optional<std::string> arguments::optional_string(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return string(i, {});
}

cupp::dtype arguments::dtype_or(std::size_t i, cupp::dtype fallback) const { return dtype(i).value_or(fallback); }

cupp::weak_scalar arguments::number_or(std::size_t i, cupp::weak_scalar fallback) const {
  return has(i) ? number(i) : fallback;
}

cupp::order arguments::memory_order(std::size_t i, std::string_view fallback) const {
  const std::string s = has(i) ? string(i, {}) : std::string(fallback);
  if (s == "C") return cupp::order::C;
  if (s == "F") return cupp::order::F;
  throw cupp::ValueError("only 'C' or 'F' order is permitted");
}

std::vector<cupp::clip_mode> arguments::clip_modes(std::size_t i, std::string_view fallback) const {
  std::vector<cupp::clip_mode> modes;
  if (!has(i)) {
    modes.push_back(cupp::parse_clip_mode(fallback));
  } else if (get(i).is_tuple()) {
    for (const value& m : get(i).tuple()) {
      if (!m.is_string()) throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be a string or a tuple of strings");
      modes.push_back(cupp::parse_clip_mode(m.string()));
    }
  } else {
    modes.push_back(cupp::parse_clip_mode(string(i, {})));
  }
  return modes;
}

std::complex<double> arguments::complex_number(std::size_t i) const {
  const cupp::weak_scalar w = number(i);
  return {w.real(), w.imag()};
}

std::optional<std::complex<double>> arguments::optional_complex(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  return complex_number(i);
}

std::vector<int> arguments::int_list(std::size_t i, bool none_is_empty) const {
  if (!none_is_empty && slots_[i].has_value() && slots_[i]->is_none())
    throw cupp::TypeError("'NoneType' object cannot be interpreted as an integer");
  if (!has(i)) return {};
  std::vector<int> out;
  for (std::int64_t v : integers(i)) {
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      throw cupp::OverflowError(name_ + "(): '" + params_[i] + "' does not fit a C int");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

std::array<int, 2> arguments::axis_pair(std::size_t i, std::array<int, 2> fallback) const {
  if (!has(i)) return fallback;
  const std::vector<int> axes = int_list(i, false);
  if (axes.size() != 2) throw cupp::ValueError("len(axes) must be 2.");
  return {axes[0], axes[1]};
}

cupp::index_spec arguments::index_obj(std::size_t i) const {
  const value& v = get(i);
  if (v.is_slice()) return v.slice();
  if (v.is_tuple()) return integers(i);
  if (v.is_array()) {
    const cupp::ndarray& x = v.array();
    if (x.ndim() > 1) throw cupp::ValueError("index array argument obj must be one dimensional or scalar");
    if (!cupp::can_cast(x.dtype(), cupp::int64, cupp::casting::same_kind) || x.dtype().is_bool())
      throw cupp::IndexError("arrays used as indices must be of integer (or boolean) type");
    std::vector<std::int64_t> idx = cupp::astype(x, cupp::int64).to_vector<std::int64_t>();
    if (x.ndim() == 0) return idx[0];
    return idx;
  }
  return integer(i, 0);
}

std::vector<bool> arguments::bool_mask(std::size_t i) const {
  const cupp::ndarray& m = array(i);
  if (m.ndim() != 1) throw cupp::ValueError("boolean array argument obj to delete must be one dimensional");
  const std::vector<std::uint8_t> bytes = m.view(cupp::uint8).to_vector<std::uint8_t>();
  return std::vector<bool>(bytes.begin(), bytes.end());
}

value one_or_tuple(std::vector<cupp::ndarray> arrays) {
  if (arrays.size() == 1) return value(std::move(arrays[0]));
  return tuple_of(std::move(arrays));
}

std::int64_t sum_of(const std::vector<std::int64_t>& values) {
  std::int64_t total = 0;
  for (std::int64_t v : values) total += v;
  return total;
}

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
