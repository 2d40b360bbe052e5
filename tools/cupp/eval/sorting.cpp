// cupp eval: the sorting routines (cupp/sorting.hpp): sort, argsort, lexsort, partition and
// argpartition, with NumPy's positional and keyword arguments. kind= is a string, stable= a bool,
// axis=None flattens (sort, argsort, partition, argpartition); lexsort's keys are a tuple of
// arrays or one array whose rows are the keys; kth is an integer or a tuple of integers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/sorting.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

// axis, kind, stable at positions i, i + 1, i + 2.
cupp::sort_options sort_options_of(const arguments& a, std::size_t i) {
  cupp::sort_options o{.axis = a.axis_or_none(i, -1)};
  if (a.has(i + 1)) {
    if (!a.get(i + 1).is_string()) throw cupp::TypeError("kind must be a string or None");
    o.kind = a.get(i + 1).string();
  }
  if (a.has(i + 2)) o.stable = a.boolean(i + 2, false);
  return o;
}

}  // namespace

void add_sorting(function_table& t) {
  t.add("sort", [](span_v args, span_k kw) -> value {
    const arguments a("sort", {"a", "axis", "kind", "order", "stable"}, 1, args, kw);
    if (a.has(3)) throw cupp::ValueError("sort: order= (structured field names) is not supported");
    cupp::sort_options o = sort_options_of(a, 1);
    o.stable = a.has(4) ? std::optional<bool>(a.boolean(4, false)) : std::nullopt;
    return value(cupp::sort(a.array(0), o));
  });
  t.add("argsort", [](span_v args, span_k kw) -> value {
    const arguments a("argsort", {"a", "axis", "kind", "order", "stable"}, 1, args, kw);
    if (a.has(3)) throw cupp::ValueError("argsort: order= (structured field names) is not supported");
    cupp::sort_options o = sort_options_of(a, 1);
    o.stable = a.has(4) ? std::optional<bool>(a.boolean(4, false)) : std::nullopt;
    return value(cupp::argsort(a.array(0), o));
  });
  t.add("lexsort", [](span_v args, span_k kw) -> value {
    const arguments a("lexsort", {"keys", "axis"}, 1, args, kw);
    const int axis = static_cast<int>(a.integer(1, -1));
    if (a.get(0).is_tuple()) {
      const std::vector<cupp::ndarray> keys = a.arrays(0);
      return value(cupp::lexsort(std::span<const cupp::ndarray>(keys), axis));
    }
    return value(cupp::lexsort(a.array(0), axis));
  });
  t.add("partition", [](span_v args, span_k kw) -> value {
    const arguments a("partition", {"a", "kth", "axis", "kind", "order"}, 2, args, kw);
    if (a.has(4)) throw cupp::ValueError("partition: order= (structured field names) is not supported");
    const std::vector<std::int64_t> kth = a.integers(1);
    return value(cupp::partition(a.array(0), std::span<const std::int64_t>(kth), a.axis_or_none(2, -1)));
  });
  t.add("argpartition", [](span_v args, span_k kw) -> value {
    const arguments a("argpartition", {"a", "kth", "axis", "kind", "order"}, 2, args, kw);
    if (a.has(4)) throw cupp::ValueError("argpartition: order= (structured field names) is not supported");
    const std::vector<std::int64_t> kth = a.integers(1);
    return value(cupp::argpartition(a.array(0), std::span<const std::int64_t>(kth), a.axis_or_none(2, -1)));
  });
}

}  // namespace cupp::eval
