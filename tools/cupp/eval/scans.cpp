// cupp eval: the scans. cumsum/cumprod/nancumsum/nancumprod(a, axis=None, dtype=None) (axis None or
// an int: a tuple is NumPy's TypeError), cumulative_sum/cumulative_prod(x, axis=None, dtype=None,
// include_initial=False), u.accumulate(a, axis=0, dtype=None), diff(a, n=1, axis=-1, prepend=,
// append=) and ediff1d(ary, to_end=None, to_begin=None). out= is refused (outputs go to -o files).
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/scans.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

std::int64_t int_of(const value& v) {
  if (v.is_scalar() && (v.scalar().k == py_scalar::kind::int_ || v.scalar().k == py_scalar::kind::bool_))
    return v.scalar().k == py_scalar::kind::bool_ ? (v.scalar().b ? 1 : 0) : static_cast<std::int64_t>(v.scalar().i);
  throw cupp::TypeError(std::string("'") + v.type_name() + "' object cannot be interpreted as an integer");
}

const cupp::ndarray& array_of(std::string_view function, std::span<const value> args) {
  if (args.empty()) throw cupp::TypeError(std::string(function) + "() missing required argument 'a'");
  if (!args[0].is_array())
    throw cupp::TypeError(std::string(function) + "() argument 1 must be an array, not '" + args[0].type_name() + "'");
  return args[0].array();
}

// An array, or a Python scalar as a 0-d array of NumPy's default dtype for it (np.asanyarray).
cupp::ndarray array_or_scalar(const value& v, std::string_view function) {
  if (v.is_array()) return v.array();
  if (v.is_scalar()) {
    const py_scalar& s = v.scalar();
    const std::vector<std::int64_t> none;
    switch (s.k) {
      case py_scalar::kind::bool_: return cupp::full(none, cupp::weak_scalar(s.b), cupp::dtype(type_id::bool_));
      case py_scalar::kind::int_:
        return cupp::full(none, cupp::weak_scalar(static_cast<std::int64_t>(s.i)), cupp::dtype(type_id::int64));
      case py_scalar::kind::float_: return cupp::full(none, cupp::weak_scalar(s.f), cupp::dtype(type_id::float64));
      default: return cupp::full(none, cupp::weak_scalar(s.c), cupp::dtype(type_id::complex128));
    }
  }
  throw cupp::TypeError(std::string(function) + "(): expected an array or a number, not '" + v.type_name() + "'");
}

std::optional<cupp::dtype> dtype_of(const value& v, std::string_view function) {
  if (v.is_none()) return std::nullopt;
  if (!v.is_string()) throw cupp::TypeError(std::string(function) + "(): dtype must be a string such as 'float64'");
  return cupp::dtype::parse(v.string());
}

[[noreturn]] void no_out(std::string_view function) {
  throw cupp::ValueError(std::string(function) + "(): out= is not allowed in cupp eval; name the output files with -o");
}
[[noreturn]] void unexpected(std::string_view function, std::string_view name) {
  throw cupp::TypeError(std::string(function) + "() got an unexpected keyword argument '" + std::string(name) + "'");
}

void at_most(std::string_view function, std::size_t n, std::span<const value> args) {
  if (args.size() > n)
    throw cupp::TypeError(std::string(function) + "() takes at most " + std::to_string(n) + " positional arguments but " +
                          std::to_string(args.size()) + " were given");
}

// cumsum(a, axis=None, dtype=None, out=None)
template <class F>
function cum(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    at_most(name, 3, args);
    cupp::scan_options o;
    auto set_axis = [&](const value& v) {
      if (!v.is_none()) o.axis = int_of(v);
    };
    if (args.size() >= 2) set_axis(args[1]);
    if (args.size() >= 3) o.dtype = dtype_of(args[2], name);
    for (const keyword_value& k : keywords) {
      if (k.name == "axis") set_axis(k.v);
      else if (k.name == "dtype") o.dtype = dtype_of(k.v, name);
      else if (k.name == "out") no_out(name);
      else unexpected(name, k.name);
    }
    return value(f(array_of(name, args), o));
  };
}

// cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False)
template <class F>
function cumulative(std::string name, F f) {
  return [name, f](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    at_most(name, 1, args);
    cupp::cumulative_options o;
    for (const keyword_value& k : keywords) {
      if (k.name == "axis") {
        if (!k.v.is_none()) o.axis = int_of(k.v);
      } else if (k.name == "dtype") {
        o.dtype = dtype_of(k.v, name);
      } else if (k.name == "include_initial") {
        if (!k.v.is_scalar() || k.v.scalar().k != py_scalar::kind::bool_)
          throw cupp::TypeError(std::string(name) + "(): include_initial must be True or False");
        o.include_initial = k.v.scalar().b;
      } else if (k.name == "out") {
        no_out(name);
      } else {
        unexpected(name, k.name);
      }
    }
    return value(f(array_of(name, args), o));
  };
}

value diff_call(std::span<const value> args, std::span<const keyword_value> keywords) {
  at_most("diff", 5, args);
  cupp::diff_options o;
  if (args.size() >= 2) o.n = int_of(args[1]);
  if (args.size() >= 3) o.axis = int_of(args[2]);
  if (args.size() >= 4) o.prepend = array_or_scalar(args[3], "diff");
  if (args.size() >= 5) o.append = array_or_scalar(args[4], "diff");
  for (const keyword_value& k : keywords) {
    if (k.name == "n") o.n = int_of(k.v);
    else if (k.name == "axis") o.axis = int_of(k.v);
    else if (k.name == "prepend") o.prepend = array_or_scalar(k.v, "diff");
    else if (k.name == "append") o.append = array_or_scalar(k.v, "diff");
    else unexpected("diff", k.name);
  }
  return value(cupp::diff(array_of("diff", args), o));
}

value ediff1d_call(std::span<const value> args, std::span<const keyword_value> keywords) {
  at_most("ediff1d", 3, args);
  cupp::ediff1d_options o;
  if (args.size() >= 2 && !args[1].is_none()) o.to_end = array_or_scalar(args[1], "ediff1d");
  if (args.size() >= 3 && !args[2].is_none()) o.to_begin = array_or_scalar(args[2], "ediff1d");
  for (const keyword_value& k : keywords) {
    if (k.name == "to_end") o.to_end = k.v.is_none() ? cupp::ndarray() : array_or_scalar(k.v, "ediff1d");
    else if (k.name == "to_begin") o.to_begin = k.v.is_none() ? cupp::ndarray() : array_or_scalar(k.v, "ediff1d");
    else unexpected("ediff1d", k.name);
  }
  return value(cupp::ediff1d(array_of("ediff1d", args), o));
}

}  // namespace

void add_scans(function_table& t) {
  using S = const cupp::scan_options&;
  using C = const cupp::cumulative_options&;
  using N = const cupp::ndarray&;
  t.add("cumsum", cum("cumsum", [](N a, S o) { return cupp::cumsum(a, o); }));
  t.add("cumprod", cum("cumprod", [](N a, S o) { return cupp::cumprod(a, o); }));
  t.add("nancumsum", cum("nancumsum", [](N a, S o) { return cupp::nancumsum(a, o); }));
  t.add("nancumprod", cum("nancumprod", [](N a, S o) { return cupp::nancumprod(a, o); }));
  t.add("cumulative_sum", cumulative("cumulative_sum", [](N a, C o) { return cupp::cumulative_sum(a, o); }));
  t.add("cumulative_prod", cumulative("cumulative_prod", [](N a, C o) { return cupp::cumulative_prod(a, o); }));
  t.add("diff", diff_call);
  t.add("ediff1d", ediff1d_call);
}

value call_ufunc_accumulate(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string name = std::string(f.name()) + ".accumulate";
  at_most(name, 4, args);
  cupp::accumulate_options o;
  if (args.size() >= 2) o.axis = int_of(args[1]);
  if (args.size() >= 3) o.dtype = dtype_of(args[2], name);
  for (const keyword_value& k : keywords) {
    if (k.name == "axis") o.axis = int_of(k.v);
    else if (k.name == "dtype") o.dtype = dtype_of(k.v, name);
    else if (k.name == "out") no_out(name);
    else unexpected(name, k.name);
  }
  return value(cupp::accumulate(f, array_of(name, args), o));
}

}  // namespace cupp::eval
