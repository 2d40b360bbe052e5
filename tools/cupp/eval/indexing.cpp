// cupp eval: the indexing routines (cupp/indexing.hpp) that return arrays, with NumPy's positional
// and keyword arguments: take, take_along_axis, compress, extract, flatnonzero, choose (choices a
// tuple), unravel_index and ix_ (tuples), ravel_multi_index. mode= is a string ('raise', 'wrap',
// 'clip'). The in-place routines (put, putmask, place, fill_diagonal, put_along_axis) return None
// in NumPy and have nothing to write to the -o files; they are not registered. out= is refused.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

// Positional and keyword arguments bound to a routine's parameter names, as Python binds them.
class arguments {
 public:
  arguments(std::string name, std::vector<std::string> params, std::size_t required, std::span<const value> args,
            std::span<const keyword_value> keywords)
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

  bool has(std::size_t i) const { return slots_[i].has_value() && !slots_[i]->is_none(); }
  const value& get(std::size_t i) const { return *slots_[i]; }

  static bool is_int(const value& v) {
    return v.is_scalar() && (v.scalar().k == py_scalar::kind::int_ || v.scalar().k == py_scalar::kind::bool_);
  }
  std::int64_t to_int(const value& v, std::size_t i) const {
    if (is_int(v)) {
      const cupp::weak_scalar w = to_weak(v.scalar());
      if (w.scalar_kind() == cupp::weak_scalar::kind::bool_) return static_cast<std::int64_t>(w.magnitude());
      if (w.fits(cupp::int64))
        return w.is_negative() ? -static_cast<std::int64_t>(w.magnitude() - 1) - 1 : static_cast<std::int64_t>(w.magnitude());
      throw cupp::OverflowError(name_ + "(): '" + params_[i] + "' does not fit int64");
    }
    throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be an integer, not '" + v.type_name() + "'");
  }
  std::int64_t integer(std::size_t i, std::int64_t fallback) const { return has(i) ? to_int(get(i), i) : fallback; }
  // axis=None -> nullopt; absent -> fallback.
  std::optional<int> axis_or_none(std::size_t i, int fallback) const {
    if (!slots_[i]) return fallback;
    if (slots_[i]->is_none()) return std::nullopt;
    return static_cast<int>(to_int(get(i), i));
  }
  std::optional<int> optional_axis(std::size_t i) const {
    if (!has(i)) return std::nullopt;
    return static_cast<int>(to_int(get(i), i));
  }
  // An integer or a tuple of integers.
  std::vector<std::int64_t> integers(std::size_t i) const {
    std::vector<std::int64_t> out;
    if (get(i).is_tuple()) {
      for (const value& x : get(i).tuple()) out.push_back(to_int(x, i));
    } else {
      out.push_back(to_int(get(i), i));
    }
    return out;
  }
  std::optional<cupp::dtype> dtype(std::size_t i) const {
    if (!has(i)) return std::nullopt;
    if (!get(i).is_string())
      throw cupp::TypeError(name_ + "(): dtype must be a string such as 'float32', not '" + get(i).type_name() + "'");
    return cupp::dtype::parse(get(i).string());
  }
  cupp::casting casting(std::size_t i) const {
    if (!has(i)) return cupp::casting::same_kind;
    if (get(i).is_string()) {
      for (cupp::casting c : {cupp::casting::no, cupp::casting::equiv, cupp::casting::safe, cupp::casting::same_kind,
                              cupp::casting::unsafe})
        if (get(i).string() == cupp::to_string(c)) return c;
    }
    throw cupp::ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
  }
  const cupp::ndarray& array(std::size_t i) const {
    if (!get(i).is_array())
      throw cupp::TypeError(name_ + "(): '" + params_[i] + "' must be an array, not '" + get(i).type_name() + "'");
    return get(i).array();
  }
  // A tuple of arrays (a single array is refused, as NumPy iterates it: pass a tuple).
  std::vector<cupp::ndarray> arrays(std::size_t i) const {
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
  cupp::operand operand(std::size_t i) const { return to_operand(get(i), name_, i); }

 private:
  std::string name_;
  std::vector<std::string> params_;
  std::vector<std::optional<value>> slots_;
};

value tuple_of(std::vector<cupp::ndarray> arrays) {
  tuple_value t;
  for (auto& a : arrays) t.emplace_back(std::move(a));
  return value(std::move(t));
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

cupp::clip_mode mode_of(const arguments& a, std::size_t i) {
  if (!a.has(i)) return cupp::clip_mode::raise;
  if (!a.get(i).is_string()) throw cupp::TypeError("mode must be a string: 'raise', 'wrap' or 'clip'");
  return cupp::parse_clip_mode(a.get(i).string());
}

cupp::order order_of(const arguments& a, std::size_t i) {
  if (!a.has(i)) return cupp::order::C;
  if (!a.get(i).is_string()) throw cupp::TypeError("order must be a string: 'C' or 'F'");
  const std::string& s = a.get(i).string();
  if (s == "C") return cupp::order::C;
  if (s == "F") return cupp::order::F;
  throw cupp::ValueError("only 'C' or 'F' order is permitted");
}

// An array argument, or a Python integer as a 0-d int64 array (indices = 3).
cupp::ndarray index_array(const arguments& a, std::size_t i) {
  if (arguments::is_int(a.get(i))) return cupp::scalar(weak_scalar(a.to_int(a.get(i), i)), cupp::int64);
  return a.array(i);
}

}  // namespace

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

void add_indexing(function_table& t) {
  t.add("take", [](span_v args, span_k kw) -> value {
    const arguments a("take", {"a", "indices", "axis", "out", "mode"}, 2, args, kw);
    const cupp::take_options o{.axis = a.optional_axis(2), .mode = mode_of(a, 4)};
    return value(cupp::take(a.array(0), index_array(a, 1), o));
  });
  t.add("take_along_axis", [](span_v args, span_k kw) -> value {
    const arguments a("take_along_axis", {"arr", "indices", "axis"}, 2, args, kw);
    return value(cupp::take_along_axis(a.array(0), a.array(1), a.axis_or_none(2, -1)));
  });
  t.add("compress", [](span_v args, span_k kw) -> value {
    const arguments a("compress", {"condition", "a", "axis", "out"}, 2, args, kw);
    return value(cupp::compress(a.array(0), a.array(1), a.optional_axis(2)));
  });
  t.add("extract", [](span_v args, span_k kw) -> value {
    const arguments a("extract", {"condition", "arr"}, 2, args, kw);
    return value(cupp::extract(a.array(0), a.array(1)));
  });
  t.add("flatnonzero", [](span_v args, span_k kw) -> value {
    const arguments a("flatnonzero", {"a"}, 1, args, kw);
    return value(cupp::flatnonzero(a.array(0)));
  });
  t.add("choose", [](span_v args, span_k kw) -> value {
    const arguments a("choose", {"a", "choices", "out", "mode"}, 2, args, kw);
    const std::vector<cupp::ndarray> choices = a.arrays(1);
    return value(cupp::choose(a.array(0), std::span<const cupp::ndarray>(choices), {}, mode_of(a, 3)));
  });
  t.add("unravel_index", [](span_v args, span_k kw) -> value {
    const arguments a("unravel_index", {"indices", "shape", "order"}, 2, args, kw);
    const std::vector<std::int64_t> shape = a.integers(1);
    return tuple_of(cupp::unravel_index(index_array(a, 0), std::span<const std::int64_t>(shape), order_of(a, 2)));
  });
  t.add("ravel_multi_index", [](span_v args, span_k kw) -> value {
    const arguments a("ravel_multi_index", {"multi_index", "dims", "mode", "order"}, 2, args, kw);
    const std::vector<cupp::ndarray> mi = a.arrays(0);
    const std::vector<std::int64_t> dims = a.integers(1);
    std::vector<cupp::clip_mode> modes;
    if (a.has(2) && a.get(2).is_tuple()) {
      for (const value& m : a.get(2).tuple()) {
        if (!m.is_string()) throw cupp::TypeError("mode must be a string or a tuple of strings");
        modes.push_back(cupp::parse_clip_mode(m.string()));
      }
    } else {
      modes.push_back(mode_of(a, 2));
    }
    return value(cupp::ravel_multi_index(std::span<const cupp::ndarray>(mi), std::span<const std::int64_t>(dims),
                                         std::span<const cupp::clip_mode>(modes), order_of(a, 3)));
  });
  t.add("ix_", [](span_v args, span_k kw) -> value {
    if (!kw.empty()) throw cupp::TypeError("ix_() takes no keyword arguments");
    const std::vector<cupp::ndarray> xs = positional_arrays("ix_", args);
    return tuple_of(cupp::ix_(std::span<const cupp::ndarray>(xs)));
  });
}

}  // namespace cupp::eval
