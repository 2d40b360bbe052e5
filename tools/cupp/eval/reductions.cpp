// cupp eval: the reductions (sum, prod, max/amax, min/amin, all, any, mean, and u.reduce for a
// ufunc u) with NumPy's keyword arguments axis= (None, an int, a tuple), keepdims= and dtype=;
// argmax/argmin/nanargmax/nanargmin (axis None or an int, keepdims), count_nonzero (axis,
// keepdims), var/std/nanvar/nanstd (axis, dtype, ddof, keepdims), ptp (axis, keepdims) and
// nansum/nanprod/nanmax/nanmin/nanmean (as sum). initial= (a number) and where= (a bool array,
// or True/False) go to the library, which refuses them where NumPy's function has no such
// keyword (all(initial=1): TypeError); var/std/nanvar/nanstd take where=. u.reduceat(a, indices,
// axis=0, dtype=None): indices an integer array or a tuple of integers.
#include <string>
#include <vector>

#include "cupp/creation.hpp"
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

// where=: a bool array, or True (every element: no mask) / False (a 0-d False mask).
cupp::ndarray where_mask(const value& v, std::string_view function) {
  if (v.is_array()) return v.array();
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::bool_)
    return v.scalar().b ? cupp::ndarray() : cupp::full(std::span<const std::int64_t>(), false, cupp::bool_);
  throw cupp::TypeError(std::string(function) + "(): where must be a bool array, True or False, not '" +
                        v.type_name() + "'");
}

// reduce_options from the positional arguments after the array (axis) and the keywords.
cupp::reduce_options reduce_keywords(std::string_view function, std::span<const value> args,
                                     std::span<const keyword_value> keywords) {
  cupp::reduce_options o;
  auto set_axis = [&](const value& v) {
    if (v.is_none()) {
      o.axis = cupp::axes::none();  // ufunc.reduce's default is axis 0; None is every axis
      return;
    }
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
    } else if (k.name == "initial") {
      if (k.v.is_none()) continue;
      if (!k.v.is_scalar())
        throw cupp::TypeError(std::string(function) + "(): initial must be a number, not '" + k.v.type_name() + "'");
      o.initial = to_weak(k.v.scalar());
    } else if (k.name == "where") {
      o.where = where_mask(k.v, function);
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

// keepdims= as a bool (NumPy accepts only True/False here).
bool keepdims_value(const value& v, std::string_view function) {
  if (!v.is_scalar() || v.scalar().k != py_scalar::kind::bool_)
    throw cupp::TypeError(std::string(function) + "(): keepdims must be True or False");
  return v.scalar().b;
}

[[noreturn]] void no_out(std::string_view function) {
  throw cupp::ValueError(std::string(function) + "(): out= is not allowed in cupp eval; name the output files with -o");
}

// argmax(a, axis=None, out=None, *, keepdims=False): axis None or an int.
cupp::arg_options arg_keywords(std::string_view function, std::span<const value> args,
                               std::span<const keyword_value> keywords) {
  cupp::arg_options o;
  auto set_axis = [&](const value& v) {
    if (v.is_none()) return;
    if (!v.is_scalar() || v.scalar().k != py_scalar::kind::int_)
      throw cupp::TypeError(std::string("'") + v.type_name() + "' object cannot be interpreted as an integer");
    o.axis = static_cast<std::int64_t>(v.scalar().i);
  };
  if (args.size() > 2)
    throw cupp::TypeError(std::string(function) + "() takes at most 2 positional arguments but " +
                          std::to_string(args.size()) + " were given");
  if (args.size() == 2) set_axis(args[1]);
  for (const keyword_value& k : keywords) {
    if (k.name == "axis") set_axis(k.v);
    else if (k.name == "keepdims") o.keepdims = keepdims_value(k.v, function);
    else if (k.name == "out") no_out(function);
    else throw cupp::TypeError(std::string(function) + "() got an unexpected keyword argument '" + std::string(k.name) + "'");
  }
  return o;
}

// var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False): ddof an int or a float
// (bool is an int in Python).
cupp::var_options var_keywords(std::string_view function, std::span<const value> args,
                               std::span<const keyword_value> keywords) {
  std::vector<keyword_value> rest;
  cupp::var_options o;
  for (const keyword_value& k : keywords) {
    if (k.name == "initial")
      throw cupp::TypeError(std::string(function) + "() got an unexpected keyword argument 'initial'");
    if (k.name != "ddof") {
      rest.push_back(k);
      continue;
    }
    const value& v = k.v;
    if (!v.is_scalar() || v.scalar().k == py_scalar::kind::complex_)
      throw cupp::TypeError(std::string(function) + "(): ddof must be a real number, not '" + v.type_name() + "'");
    const py_scalar& s = v.scalar();
    o.ddof = s.k == py_scalar::kind::bool_ ? (s.b ? 1.0 : 0.0)
             : s.k == py_scalar::kind::int_ ? static_cast<double>(s.i)
                                            : s.f;
  }
  const cupp::reduce_options r = reduce_keywords(function, args, rest);
  o.axis = r.axis;
  o.keepdims = r.keepdims;
  o.dtype = r.dtype;
  o.where = r.where;
  return o;
}

// count_nonzero(a, axis=None, *, keepdims=False) and ptp(a, axis=None, out=None, keepdims=False):
// no dtype=.
cupp::reduce_options no_dtype_keywords(std::string_view function, std::span<const value> args,
                                       std::span<const keyword_value> keywords) {
  for (const keyword_value& k : keywords)
    if (k.name == "dtype")
      throw cupp::TypeError(std::string(function) + "() got an unexpected keyword argument 'dtype'");
  return reduce_keywords(function, args, keywords);
}

template <class F>
function arg_reduction(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    const cupp::arg_options o = arg_keywords(name, args, keywords);
    return value(f(array_argument(name, args), o));
  };
}

template <class F>
function var_reduction(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    const cupp::var_options o = var_keywords(name, args, keywords);
    return value(f(array_argument(name, args), o));
  };
}

template <class F>
function plain_reduction(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    const cupp::reduce_options o = no_dtype_keywords(name, args, keywords);
    return value(f(array_argument(name, args), o));
  };
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
  using R = const cupp::reduce_options&;
  using A = const cupp::arg_options&;
  using V = const cupp::var_options&;
  using N = const cupp::ndarray&;
  t.add("argmax", arg_reduction("argmax", [](N a, A o) { return cupp::argmax(a, o); }));
  t.add("argmin", arg_reduction("argmin", [](N a, A o) { return cupp::argmin(a, o); }));
  t.add("nanargmax", arg_reduction("nanargmax", [](N a, A o) { return cupp::nanargmax(a, o); }));
  t.add("nanargmin", arg_reduction("nanargmin", [](N a, A o) { return cupp::nanargmin(a, o); }));
  t.add("count_nonzero", plain_reduction("count_nonzero", [](N a, R o) { return cupp::count_nonzero(a, o); }));
  t.add("ptp", plain_reduction("ptp", [](N a, R o) { return cupp::ptp(a, o); }));
  t.add("var", var_reduction("var", [](N a, V o) { return cupp::var(a, o); }));
  t.add("std", var_reduction("std", [](N a, V o) { return cupp::std_(a, o); }));
  t.add("nanvar", var_reduction("nanvar", [](N a, V o) { return cupp::nanvar(a, o); }));
  t.add("nanstd", var_reduction("nanstd", [](N a, V o) { return cupp::nanstd(a, o); }));
  t.add("nansum", reduction("nansum", [](N a, R o) { return cupp::nansum(a, o); }));
  t.add("nanprod", reduction("nanprod", [](N a, R o) { return cupp::nanprod(a, o); }));
  t.add("nanmax", reduction("nanmax", [](N a, R o) { return cupp::nanmax(a, o); }));
  t.add("nanmin", reduction("nanmin", [](N a, R o) { return cupp::nanmin(a, o); }));
  t.add("nanmean", reduction("nanmean", [](N a, R o) { return cupp::nanmean(a, o); }));
}

value call_ufunc_reduce(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string name = std::string(f.name()) + ".reduce";
  const cupp::reduce_options o = reduce_keywords(name, args, keywords);
  return value(f.reduce(array_argument(name, args), o));
}

}  // namespace cupp::eval

namespace cupp::eval {

// u.reduceat(a, indices, axis=0, dtype=None, out=None): indices an integer array or a tuple of
// integers (made an int64 array).
value call_ufunc_reduceat(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string name = std::string(f.name()) + ".reduceat";
  if (args.size() > 4)
    throw cupp::TypeError(name + "() takes at most 4 positional arguments but " + std::to_string(args.size()) +
                          " were given");
  if (args.size() < 2) throw cupp::TypeError(name + "() missing required argument 'indices' (pos 2)");
  cupp::reduceat_options o;
  auto set_axis = [&](const value& v) { o.axis = axis_number(v, name); };
  auto set_dtype = [&](const value& v) {
    if (v.is_none()) return;
    if (!v.is_string()) throw cupp::TypeError(name + "(): dtype must be a string such as 'float64'");
    o.dtype = cupp::dtype::parse(v.string());
  };
  if (args.size() >= 3) set_axis(args[2]);
  if (args.size() >= 4) set_dtype(args[3]);
  for (const keyword_value& k : keywords) {
    if (k.name == "axis") set_axis(k.v);
    else if (k.name == "dtype") set_dtype(k.v);
    else if (k.name == "out") no_out(name);
    else throw cupp::TypeError(name + "() got an unexpected keyword argument '" + std::string(k.name) + "'");
  }
  const value& iv = args[1];
  cupp::ndarray indices;
  if (iv.is_array()) {
    indices = iv.array();
  } else if (iv.is_tuple() || iv.is_scalar()) {
    std::vector<std::int64_t> list;
    if (iv.is_scalar()) list.push_back(axis_number(iv, name));  // NumPy: ValueError for a 0-d index below
    else
      for (const value& x : iv.tuple()) list.push_back(axis_number(x, name));
    indices = cupp::asarray(list);
    if (iv.is_scalar()) indices = indices.reshape(std::span<const std::int64_t>());
  } else {
    throw cupp::TypeError(name + "(): indices must be an integer array or a tuple of integers, not '" +
                          std::string(iv.type_name()) + "'");
  }
  return value(f.reduceat(array_argument(name, args), indices, o));
}

}  // namespace cupp::eval
