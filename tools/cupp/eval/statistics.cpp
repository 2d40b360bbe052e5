// cupp eval: the statistics and logic routines: median, percentile, quantile and their nan forms, average, cov, corrcoef, isclose, allclose, array_equal, array_equiv (cupp/statistics.hpp), with NumPy's positional and keyword arguments.
// axis= is None, an int or a tuple; q and the tolerances are Python numbers (weak) or arrays;
// method= is a string; average(..., returned=True) gives a tuple. out= is refused (cupp eval
// writes outputs to the -o files); overwrite_input= is accepted and has no effect (cupp never
// writes into the input); corrcoef's bias= and ddof= are accepted and ignored, as NumPy (which
// deprecated them) does.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/statistics.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

cupp::axes axes_of(const arguments& a, std::size_t i) {
  if (!a.has(i)) return cupp::axes();
  return cupp::axes(a.integers(i));
}

cupp::ndarray optional_array(const arguments& a, std::size_t i) {
  if (!a.has(i)) return cupp::ndarray();
  return a.array(i);
}

std::string method_of(const arguments& a, std::size_t i) {
  if (!a.has(i)) return "linear";
  if (!a.get(i).is_string()) throw cupp::TypeError("method must be a string such as 'linear'");
  return a.get(i).string();
}

// ddof: an integer, or a float with an integral value (NumPy's ValueError otherwise).
std::optional<std::int64_t> ddof_of(const arguments& a, std::size_t i) {
  if (!a.has(i)) return std::nullopt;
  const value& v = a.get(i);
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::float_) {
    const double d = v.scalar().f;
    if (d != std::trunc(d)) throw cupp::ValueError("ddof must be integer");
    return static_cast<std::int64_t>(d);
  }
  return a.to_int(v, i);
}

}  // namespace

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

void add_statistics(function_table& t) {
  // ---- logic
  auto close_options = [](const arguments& a) {
    cupp::isclose_options o;
    if (a.has(2)) o.rtol = a.operand(2);
    if (a.has(3)) o.atol = a.operand(3);
    o.equal_nan = a.boolean(4, false);
    return o;
  };
  t.add("isclose", [close_options](span_v args, span_k kw) -> value {
    const arguments a("isclose", {"a", "b", "rtol", "atol", "equal_nan"}, 2, args, kw);
    return value(cupp::isclose(a.operand(0), a.operand(1), close_options(a)));
  });
  t.add("allclose", [close_options](span_v args, span_k kw) -> value {
    const arguments a("allclose", {"a", "b", "rtol", "atol", "equal_nan"}, 2, args, kw);
    return value(cupp::allclose(a.operand(0), a.operand(1), close_options(a)));
  });
  t.add("array_equal", [](span_v args, span_k kw) -> value {
    const arguments a("array_equal", {"a1", "a2", "equal_nan"}, 2, args, kw);
    return value(cupp::array_equal(a.operand(0), a.operand(1), a.boolean(2, false)));
  });
  t.add("array_equiv", [](span_v args, span_k kw) -> value {
    const arguments a("array_equiv", {"a1", "a2"}, 2, args, kw);
    return value(cupp::array_equiv(a.operand(0), a.operand(1)));
  });

  // ---- average, cov, corrcoef
  t.add("average", [](span_v args, span_k kw) -> value {
    const arguments a("average", {"a", "axis", "weights", "returned", "keepdims"}, 1, args, kw);
    const cupp::average_options o{.axis = axes_of(a, 1), .weights = optional_array(a, 2), .keepdims = a.boolean(4, false)};
    if (a.boolean(3, false)) {
      auto [avg, scl] = cupp::average_returned(a.array(0), o);
      return tuple_of({avg, scl});
    }
    return value(cupp::average(a.array(0), o));
  });
  t.add("cov", [](span_v args, span_k kw) -> value {
    const arguments a("cov", {"m", "y", "rowvar", "bias", "ddof", "fweights", "aweights", "dtype"}, 1, args, kw);
    return value(cupp::cov(a.array(0), {.y = optional_array(a, 1),
                                        .rowvar = a.boolean(2, true),
                                        .bias = a.boolean(3, false),
                                        .ddof = ddof_of(a, 4),
                                        .fweights = optional_array(a, 5),
                                        .aweights = optional_array(a, 6),
                                        .dtype = a.dtype(7)}));
  });
  t.add("corrcoef", [](span_v args, span_k kw) -> value {
    const arguments a("corrcoef", {"x", "y", "rowvar", "bias", "ddof", "dtype"}, 1, args, kw);
    return value(cupp::corrcoef(a.array(0), {.y = optional_array(a, 1), .rowvar = a.boolean(2, true), .dtype = a.dtype(5)}));
  });

  // ---- median, quantile, percentile and the nan forms
  t.add("median", [](span_v args, span_k kw) -> value {
    const arguments a("median", {"a", "axis", "out", "overwrite_input", "keepdims"}, 1, args, kw);
    return value(cupp::median(a.array(0), {.axis = axes_of(a, 1), .keepdims = a.boolean(4, false)}));
  });
  t.add("nanmedian", [](span_v args, span_k kw) -> value {
    const arguments a("nanmedian", {"a", "axis", "out", "overwrite_input", "keepdims"}, 1, args, kw);
    return value(cupp::nanmedian(a.array(0), {.axis = axes_of(a, 1), .keepdims = a.boolean(4, false)}));
  });
  const std::vector<std::string> qparams = {"a",      "q",        "axis",    "out",          "overwrite_input",
                                            "method", "keepdims", "weights", "interpolation"};
  // Parameter indices: a 0, q 1, axis 2, out 3, overwrite_input 4, method 5, keepdims 6,
  // weights 7, interpolation 8.
  auto qopts = [](const arguments& a) {
    if (a.has(7)) throw cupp::TypeError("weights= is not supported by cupp's quantile routines");
    std::string method = method_of(a, 5);
    if (a.has(8)) {
      if (!a.get(8).is_string()) throw cupp::TypeError("interpolation must be a string");
      method = a.get(8).string();
    }
    return cupp::quantile_options{.axis = axes_of(a, 2), .method = method, .keepdims = a.boolean(6, false)};
  };
  t.add("quantile", [qparams, qopts](span_v args, span_k kw) -> value {
    const arguments a("quantile", qparams, 2, args, kw);
    return value(cupp::quantile(a.array(0), a.operand(1), qopts(a)));
  });
  t.add("percentile", [qparams, qopts](span_v args, span_k kw) -> value {
    const arguments a("percentile", qparams, 2, args, kw);
    return value(cupp::percentile(a.array(0), a.operand(1), qopts(a)));
  });
  t.add("nanquantile", [qparams, qopts](span_v args, span_k kw) -> value {
    const arguments a("nanquantile", qparams, 2, args, kw);
    return value(cupp::nanquantile(a.array(0), a.operand(1), qopts(a)));
  });
  t.add("nanpercentile", [qparams, qopts](span_v args, span_k kw) -> value {
    const arguments a("nanpercentile", qparams, 2, args, kw);
    return value(cupp::nanpercentile(a.array(0), a.operand(1), qopts(a)));
  });
}

}  // namespace cupp::eval
