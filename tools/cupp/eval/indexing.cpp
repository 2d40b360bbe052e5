// cupp eval: the indexing routines (cupp/indexing.hpp) that return arrays, with NumPy's positional
// and keyword arguments: take, take_along_axis, compress, extract, flatnonzero, nonzero (a tuple),
// argwhere, choose (choices a tuple), unravel_index and ix_ (tuples), ravel_multi_index. mode= is a string ('raise', 'wrap',
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
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

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
  t.add("nonzero", [](span_v args, span_k kw) -> value {
    const arguments a("nonzero", {"a"}, 1, args, kw);
    return tuple_of(cupp::nonzero(a.array(0)));
  });
  t.add("argwhere", [](span_v args, span_k kw) -> value {
    const arguments a("argwhere", {"a"}, 1, args, kw);
    return value(cupp::argwhere(a.array(0)));
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
