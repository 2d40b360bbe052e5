// cupp eval: the searching, counting and set routines (cupp/searching.hpp) with NumPy's positional
// and keyword arguments: searchsorted (side= a string; v an array or a number), digitize, bincount,
// histogram (bins an integer or an array of edges; range a tuple of two numbers; gives the tuple
// (hist, bin_edges)), unique (the return_* flags give a tuple as NumPy's; axis= an integer or None;
// sorted= accepted), unique_values, unique_counts, unique_inverse, unique_all (tuples in the
// namedtuples' order),
// isin, in1d, intersect1d (return_indices gives a tuple), union1d, setdiff1d, setxor1d.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/searching.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

double real_of(const value& v, const std::string& what) {
  if (!v.is_scalar()) throw cupp::TypeError(what + " must be a number, not '" + v.type_name() + "'");
  return to_weak(v.scalar()).real();
}

}  // namespace

void add_searching(function_table& t) {
  t.add("searchsorted", [](span_v args, span_k kw) -> value {
    const arguments a("searchsorted", {"a", "v", "side", "sorter"}, 2, args, kw);
    cupp::searchsorted_options o;
    if (a.has(2)) {
      if (!a.get(2).is_string()) throw cupp::TypeError("side must be a string: 'left' or 'right'");
      o.side = cupp::parse_search_side(a.get(2).string());
    }
    if (a.has(3)) o.sorter = a.array(3);
    if (a.get(1).is_scalar()) return value(cupp::searchsorted(a.array(0), a.number(1), o));
    return value(cupp::searchsorted(a.array(0), a.array(1), o));
  });
  t.add("digitize", [](span_v args, span_k kw) -> value {
    const arguments a("digitize", {"x", "bins", "right"}, 2, args, kw);
    return value(cupp::digitize(a.array(0), a.array(1), a.boolean(2, false)));
  });
  t.add("bincount", [](span_v args, span_k kw) -> value {
    const arguments a("bincount", {"x", "weights", "minlength"}, 1, args, kw);
    cupp::bincount_options o{.minlength = a.integer(2, 0)};
    if (a.has(1)) o.weights = a.array(1);
    return value(cupp::bincount(a.array(0), o));
  });
  t.add("histogram", [](span_v args, span_k kw) -> value {
    const arguments a("histogram", {"a", "bins", "range", "density", "weights"}, 1, args, kw);
    cupp::histogram_options o{.density = a.boolean(3, false)};
    if (a.has(2)) {
      const value& r = a.get(2);
      if (!r.is_tuple() || r.tuple().size() != 2) throw cupp::ValueError("range must be a tuple (min, max)");
      o.range = std::pair{real_of(r.tuple()[0], "range"), real_of(r.tuple()[1], "range")};
    }
    if (a.has(4)) o.weights = a.array(4);
    cupp::histogram_result h = a.has(1) && a.get(1).is_array() ? cupp::histogram(a.array(0), a.array(1), o)
                                                              : cupp::histogram(a.array(0), a.integer(1, 10), o);
    return tuple_of({h.hist, h.bin_edges});
  });
  t.add("unique", [](span_v args, span_k kw) -> value {
    const arguments a("unique",
                      {"ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", "sorted"}, 1, args,
                      kw);
    (void)a.boolean(6, true);  // sorted=False allows any order; cupp's is sorted either way
    const cupp::unique_options o{.return_index = a.boolean(1, false),
                                 .return_inverse = a.boolean(2, false),
                                 .return_counts = a.boolean(3, false),
                                 .axis = a.optional_axis(4),
                                 .equal_nan = a.boolean(5, true)};
    const cupp::unique_result r = cupp::unique(a.array(0), o);
    if (!o.return_index && !o.return_inverse && !o.return_counts) return value(r.values);
    std::vector<cupp::ndarray> out{r.values};
    if (o.return_index) out.push_back(r.index);
    if (o.return_inverse) out.push_back(r.inverse);
    if (o.return_counts) out.push_back(r.counts);
    return tuple_of(std::move(out));
  });
  t.add("unique_values", [](span_v args, span_k kw) -> value {
    const arguments a("unique_values", {"x"}, 1, args, kw);
    return value(cupp::unique_values(a.array(0)));
  });
  t.add("unique_counts", [](span_v args, span_k kw) -> value {
    const arguments a("unique_counts", {"x"}, 1, args, kw);
    const auto r = cupp::unique_counts(a.array(0));
    return tuple_of({r.values, r.counts});
  });
  t.add("unique_inverse", [](span_v args, span_k kw) -> value {
    const arguments a("unique_inverse", {"x"}, 1, args, kw);
    const auto r = cupp::unique_inverse(a.array(0));
    return tuple_of({r.values, r.inverse_indices});
  });
  t.add("unique_all", [](span_v args, span_k kw) -> value {
    const arguments a("unique_all", {"x"}, 1, args, kw);
    const auto r = cupp::unique_all(a.array(0));
    return tuple_of({r.values, r.indices, r.inverse_indices, r.counts});
  });
  t.add("isin", [](span_v args, span_k kw) -> value {
    const arguments a("isin", {"element", "test_elements", "assume_unique", "invert", "kind"}, 2, args, kw);
    return value(cupp::isin(a.array(0), a.array(1),
                            {.assume_unique = a.boolean(2, false), .invert = a.boolean(3, false)}));
  });
  t.add("in1d", [](span_v args, span_k kw) -> value {
    const arguments a("in1d", {"ar1", "ar2", "assume_unique", "invert", "kind"}, 2, args, kw);
    return value(cupp::in1d(a.array(0), a.array(1), {.assume_unique = a.boolean(2, false), .invert = a.boolean(3, false)}));
  });
  t.add("intersect1d", [](span_v args, span_k kw) -> value {
    const arguments a("intersect1d", {"ar1", "ar2", "assume_unique", "return_indices"}, 2, args, kw);
    if (a.boolean(3, false)) {
      const auto r = cupp::intersect1d_with_indices(a.array(0), a.array(1), a.boolean(2, false));
      return tuple_of({r.values, r.indices1, r.indices2});
    }
    return value(cupp::intersect1d(a.array(0), a.array(1), a.boolean(2, false)));
  });
  t.add("union1d", [](span_v args, span_k kw) -> value {
    const arguments a("union1d", {"ar1", "ar2"}, 2, args, kw);
    return value(cupp::union1d(a.array(0), a.array(1)));
  });
  t.add("setdiff1d", [](span_v args, span_k kw) -> value {
    const arguments a("setdiff1d", {"ar1", "ar2", "assume_unique"}, 2, args, kw);
    return value(cupp::setdiff1d(a.array(0), a.array(1), a.boolean(2, false)));
  });
  t.add("setxor1d", [](span_v args, span_k kw) -> value {
    const arguments a("setxor1d", {"ar1", "ar2", "assume_unique"}, 2, args, kw);
    return value(cupp::setxor1d(a.array(0), a.array(1), a.boolean(2, false)));
  });
}

}  // namespace cupp::eval
