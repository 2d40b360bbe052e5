// cupp eval: the array creation routines (cupp/creation.hpp) with NumPy's positional and keyword
// arguments: zeros((2, 3), dtype='int32'), arange(0, 1, 0.25), linspace(0, 1, 5, endpoint=False,
// retstep=True), eye(3, k=1), meshgrid(x, y, indexing='ij'), ... (fromfunction takes a Python
// function, which cupp eval has no syntax for: C++ only).
#include <optional>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

std::optional<cupp::shape_t> shape_override(const arguments& a, std::size_t i) {
  if (!a.has(i)) return std::nullopt;
  return a.shape(i);
}

}  // namespace

void add_creation(function_table& t) {
  using span_v = std::span<const value>;
  using span_k = std::span<const keyword_value>;
  t.add("empty", [](span_v args, span_k kw) -> value {
    const arguments a("empty", {"shape", "dtype"}, 1, args, kw);
    return value(cupp::empty(a.shape(0), a.dtype(1).value_or(cupp::float64)));
  });
  t.add("zeros", [](span_v args, span_k kw) -> value {
    const arguments a("zeros", {"shape", "dtype"}, 1, args, kw);
    return value(cupp::zeros(a.shape(0), a.dtype(1).value_or(cupp::float64)));
  });
  t.add("ones", [](span_v args, span_k kw) -> value {
    const arguments a("ones", {"shape", "dtype"}, 1, args, kw);
    return value(cupp::ones(a.shape(0), a.dtype(1).value_or(cupp::float64)));
  });
  t.add("full", [](span_v args, span_k kw) -> value {
    const arguments a("full", {"shape", "fill_value", "dtype"}, 2, args, kw);
    if (a.get(1).is_array()) return value(cupp::full(a.shape(0), a.array(1), a.dtype(2)));
    return value(cupp::full(a.shape(0), a.number(1), a.dtype(2)));
  });
  for (const char* name : {"empty_like", "zeros_like", "ones_like"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments a(n, {"prototype", "dtype", "shape"}, 1, args, kw);
      const cupp::like_options o{.dtype = a.dtype(1), .shape = shape_override(a, 2)};
      if (n == "empty_like") return value(cupp::empty_like(a.array(0), o));
      if (n == "zeros_like") return value(cupp::zeros_like(a.array(0), o));
      return value(cupp::ones_like(a.array(0), o));
    });
  }
  t.add("full_like", [](span_v args, span_k kw) -> value {
    const arguments a("full_like", {"a", "fill_value", "dtype", "shape"}, 2, args, kw);
    const cupp::like_options o{.dtype = a.dtype(2), .shape = shape_override(a, 3)};
    if (a.get(1).is_array()) return value(cupp::full_like(a.array(0), a.array(1), o));
    return value(cupp::full_like(a.array(0), a.number(1), o));
  });
  t.add("arange", [](span_v args, span_k kw) -> value {
    const arguments a("arange", {"start", "stop", "step", "dtype"}, 1, args, kw);
    const std::optional<cupp::dtype> type = a.dtype(3);
    if (!a.has(1)) {
      if (a.has(2)) return value(cupp::arange(0, a.number(0), a.number(2), type));
      return value(cupp::arange(a.number(0), type));
    }
    return value(cupp::arange(a.number(0), a.number(1), a.has(2) ? a.number(2) : cupp::weak_scalar(1), type));
  });
  t.add("linspace", [](span_v args, span_k kw) -> value {
    const arguments a("linspace", {"start", "stop", "num", "endpoint", "retstep", "dtype", "axis"}, 2, args, kw);
    const cupp::linspace_options o{.endpoint = a.boolean(3, true), .dtype = a.dtype(5),
                                   .axis = static_cast<int>(a.integer(6, 0))};
    auto [y, step] = cupp::linspace_with_step(a.operand(0), a.operand(1), a.integer(2, 50), o);
    if (a.boolean(4, false)) return tuple_of({y, step});
    return value(y);
  });
  t.add("logspace", [](span_v args, span_k kw) -> value {
    const arguments a("logspace", {"start", "stop", "num", "endpoint", "base", "dtype", "axis"}, 2, args, kw);
    const cupp::logspace_options o{.endpoint = a.boolean(3, true), .base = a.has(4) ? a.operand(4) : cupp::operand(10.0),
                                   .dtype = a.dtype(5), .axis = static_cast<int>(a.integer(6, 0))};
    return value(cupp::logspace(a.operand(0), a.operand(1), a.integer(2, 50), o));
  });
  t.add("geomspace", [](span_v args, span_k kw) -> value {
    const arguments a("geomspace", {"start", "stop", "num", "endpoint", "dtype", "axis"}, 2, args, kw);
    const cupp::geomspace_options o{.endpoint = a.boolean(3, true), .dtype = a.dtype(4),
                                    .axis = static_cast<int>(a.integer(5, 0))};
    return value(cupp::geomspace(a.operand(0), a.operand(1), a.integer(2, 50), o));
  });
  t.add("eye", [](span_v args, span_k kw) -> value {
    const arguments a("eye", {"N", "M", "k", "dtype"}, 1, args, kw);
    return value(cupp::eye(a.integer(0, 0), a.optional_integer(1), a.integer(2, 0), a.dtype(3).value_or(cupp::float64)));
  });
  t.add("identity", [](span_v args, span_k kw) -> value {
    const arguments a("identity", {"n", "dtype"}, 1, args, kw);
    return value(cupp::identity(a.integer(0, 0), a.dtype(1).value_or(cupp::float64)));
  });
  t.add("tri", [](span_v args, span_k kw) -> value {
    const arguments a("tri", {"N", "M", "k", "dtype"}, 1, args, kw);
    return value(cupp::tri(a.integer(0, 0), a.optional_integer(1), a.integer(2, 0), a.dtype(3).value_or(cupp::float64)));
  });
  t.add("tril", [](span_v args, span_k kw) -> value {
    const arguments a("tril", {"m", "k"}, 1, args, kw);
    return value(cupp::tril(a.array(0), a.integer(1, 0)));
  });
  t.add("triu", [](span_v args, span_k kw) -> value {
    const arguments a("triu", {"m", "k"}, 1, args, kw);
    return value(cupp::triu(a.array(0), a.integer(1, 0)));
  });
  t.add("diag", [](span_v args, span_k kw) -> value {
    const arguments a("diag", {"v", "k"}, 1, args, kw);
    return value(cupp::diag(a.array(0), a.integer(1, 0)));
  });
  t.add("diagflat", [](span_v args, span_k kw) -> value {
    const arguments a("diagflat", {"v", "k"}, 1, args, kw);
    return value(cupp::diagflat(a.array(0), a.integer(1, 0)));
  });
  t.add("meshgrid", [](span_v args, span_k kw) -> value {
    const arguments a("meshgrid", {"copy", "sparse", "indexing"}, 0, {}, kw);
    std::vector<cupp::ndarray> xs;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!args[i].is_array())
        throw cupp::TypeError("meshgrid() argument " + std::to_string(i + 1) + " must be an array, not '" +
                              args[i].type_name() + "'");
      xs.push_back(args[i].array());
    }
    const cupp::meshgrid_options o{.indexing = a.string(2, "xy"), .sparse = a.boolean(1, false),
                                   .copy = a.boolean(0, true)};
    return tuple_of(cupp::meshgrid(xs, o));
  });
  t.add("indices", [](span_v args, span_k kw) -> value {
    const arguments a("indices", {"dimensions", "dtype", "sparse"}, 1, args, kw);
    const cupp::dtype type = a.dtype(1).value_or(cupp::int64);
    if (a.boolean(2, false)) return tuple_of(cupp::indices_sparse(a.shape(0), type));
    return value(cupp::indices(a.shape(0), type));
  });
}

}  // namespace cupp::eval
