// cupp eval: the reductions (sum, prod, max/amax, min/amin, all, any, mean, and u.reduce for a
// ufunc u) with NumPy's keyword arguments axis= (None, an int, a tuple), keepdims= and dtype=.
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

std::int64_t axis_number(const value& v, std::string_view function) {
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::int_) return static_cast<std::int64_t>(v.scalar().i);
  throw cupp::TypeError(std::string(function) + "(): axis must be None, an integer or a tuple of integers, not '" +
                        v.type_name() + "'");
}

// reduce_options from the positional arguments after the array (axis) and the keywords.
cupp::reduce_options reduce_keywords(std::string_view function, std::span<const value> args,
                                     std::span<const keyword_value> keywords) {
  cupp::reduce_options o;
  auto set_axis = [&](const value& v) {
    if (v.is_none()) return;
    if (v.is_tuple()) {
      std::vector<std::int64_t> list;
      for (const value& x : v.tuple()) list.push_back(axis_number(x, function));
      o.axis = cupp::axes(std::move(list));
    } else {
      o.axis = cupp::axes(axis_number(v, function));
    }
  };
  if (args.size() > 2)
    throw cupp::TypeError(std::string(function) + "() takes at most 2 positional arguments but " +
                          std::to_string(args.size()) + " were given");
  if (args.size() == 2) set_axis(args[1]);
  for (const keyword_value& k : keywords) {
    if (k.name == "axis") {
      set_axis(k.v);
    } else if (k.name == "keepdims") {
      if (!k.v.is_scalar() || k.v.scalar().k != py_scalar::kind::bool_)
        throw cupp::TypeError(std::string(function) + "(): keepdims must be True or False");
      o.keepdims = k.v.scalar().b;
    } else if (k.name == "dtype") {
      if (k.v.is_none()) continue;
      if (!k.v.is_string()) throw cupp::TypeError(std::string(function) + "(): dtype must be a string such as 'float64'");
      o.dtype = cupp::dtype::parse(k.v.string());
    } else if (k.name == "out") {
      throw cupp::ValueError(std::string(function) + "(): out= is not allowed in cupp eval; name the output files with -o");
    } else {
      throw cupp::TypeError(std::string(function) + "() got an unexpected keyword argument '" + std::string(k.name) + "'");
    }
  }
  return o;
}

const cupp::ndarray& array_argument(std::string_view function, std::span<const value> args) {
  if (args.empty()) throw cupp::TypeError(std::string(function) + "() missing required argument 'a'");
  if (!args[0].is_array())
    throw cupp::TypeError(std::string(function) + "() argument 1 must be an array, not '" + args[0].type_name() + "'");
  return args[0].array();
}

template <class F>
function reduction(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    const cupp::reduce_options o = reduce_keywords(name, args, keywords);
    return value(f(array_argument(name, args), o));
  };
}

}  // namespace

void add_reductions(function_table& t) {
  t.add("sum", reduction("sum", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::sum(a, o); }));
  t.add("prod", reduction("prod", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::prod(a, o); }));
  t.add("max", reduction("max", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::max(a, o); }));
  t.add("amax", reduction("amax", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::amax(a, o); }));
  t.add("min", reduction("min", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::min(a, o); }));
  t.add("amin", reduction("amin", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::amin(a, o); }));
  t.add("all", reduction("all", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::all(a, o); }));
  t.add("any", reduction("any", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::any(a, o); }));
  t.add("mean", reduction("mean", [](const cupp::ndarray& a, const cupp::reduce_options& o) { return cupp::mean(a, o); }));
}

value call_ufunc_reduce(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string name = std::string(f.name()) + ".reduce";
  const cupp::reduce_options o = reduce_keywords(name, args, keywords);
  return value(f.reduce(array_argument(name, args), o));
}

}  // namespace cupp::eval
