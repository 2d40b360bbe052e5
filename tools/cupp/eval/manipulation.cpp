// cupp eval: the hand bindings of pad, clip and where (cupp/manipulation.hpp), which the typed
// signatures cannot express: pad takes pad_width, constant_values, end_values and stat_length as
// NumPy does (N, (before, after) or ((b0, a0), (b1, a1), ...); a float stat_length is rounded, as
// NumPy's) and reflect_type; clip takes None bounds and NumPy 2.1's min=/max= keywords;
// where(condition) alone is nonzero(condition). The rest of the family's bindings are generated
// from specs/routines/manipulation.yaml.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

// pad's ((before, after), ...) arguments: an integer/number, a tuple of one or two, or a tuple of
// tuples (one or two items each).
template <class T, class Read>
std::pair<std::vector<std::array<T, 2>>, bool> pairs_of(const value& v, Read read) {
  if (!v.is_tuple()) return {{{read(v), read(v)}}, true};
  const tuple_value& items = v.tuple();
  const bool nested = !items.empty() && items.front().is_tuple();
  if (!nested) {
    if (items.size() == 1) return {{{read(items[0]), read(items[0])}}, true};
    if (items.size() == 2) return {{{read(items[0]), read(items[1])}}, true};
    throw cupp::ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: (" +
                           std::to_string(items.size()) + ",)  and requested shape (ndim,2)");
  }
  std::vector<std::array<T, 2>> out;
  for (const value& item : items) {
    if (!item.is_tuple() || item.tuple().empty() || item.tuple().size() > 2)
      throw cupp::ValueError("pad: each item of a sequence of pairs must be (before, after)");
    const tuple_value& p = item.tuple();
    out.push_back({read(p[0]), read(p.size() == 2 ? p[1] : p[0])});
  }
  return {out, false};
}

}  // namespace

void add_manipulation(function_table& t) {
  using span_v = std::span<const value>;
  using span_k = std::span<const keyword_value>;
  t.add("pad", [](span_v args, span_k kw) -> value {
    const arguments a("pad", {"array", "pad_width", "mode", "constant_values", "reflect_type", "end_values", "stat_length"},
                      2, args, kw);
    const auto widths = pairs_of<std::int64_t>(a.get(1), [&](const value& v) {
      if (!arguments::is_int(v)) throw cupp::TypeError("`pad_width` must be of integral type.");
      return a.to_int(v, 1);
    });
    const cupp::pad_widths pw = widths.second && widths.first.size() == 1
                                    ? cupp::pad_widths(widths.first[0][0], widths.first[0][1])
                                    : cupp::pad_widths(widths.first);
    const std::string mode = a.string(2, "constant");
    const std::string reflect_type = a.has(4) ? a.string(4, "even") : std::string();
    auto numbers = [&](std::size_t i, const char* what) {
      cupp::pad_values values;
      if (!a.has(i)) return values;
      const auto given = pairs_of<cupp::weak_scalar>(a.get(i), [&](const value& v) {
        if (!v.is_scalar()) throw cupp::TypeError(std::string("pad(): ") + what + " must be numbers");
        return to_weak(v.scalar());
      });
      return given.second && given.first.size() == 1 ? cupp::pad_values(given.first[0][0], given.first[0][1])
                                                     : cupp::pad_values(given.first);
    };
    cupp::pad_widths stat_length;
    if (a.has(6)) {
      // NumPy's _as_pairs(..., as_index=True): np.round, then intp.
      const auto lengths = pairs_of<std::int64_t>(a.get(6), [&](const value& v) -> std::int64_t {
        if (arguments::is_int(v)) return a.to_int(v, 6);
        if (v.is_scalar() && to_weak(v.scalar()).scalar_kind() == cupp::weak_scalar::kind::float_)
          return static_cast<std::int64_t>(std::nearbyint(to_weak(v.scalar()).real()));
        throw cupp::TypeError("pad(): stat_length must be integers");
      });
      stat_length = lengths.second && lengths.first.size() == 1
                        ? cupp::pad_widths(lengths.first[0][0], lengths.first[0][1])
                        : cupp::pad_widths(lengths.first);
    }
    return value(cupp::pad(a.array(0), pw,
                           {.mode = mode,
                            .constant_values = numbers(3, "constant_values"),
                            .end_values = numbers(5, "end_values"),
                            .stat_length = stat_length,
                            .reflect_type = reflect_type}));
  });
  t.add("clip", [](span_v args, span_k kw) -> value {
    const arguments a("clip", {"a", "a_min", "a_max", "out", "min", "max", "dtype", "casting"}, 1, args, kw);
    if (a.has(3)) throw cupp::TypeError("clip(): out= is not supported by cupp eval (outputs go to the -o files)");
    if ((a.has(1) && a.has(4)) || (a.has(2) && a.has(5)))
      throw cupp::TypeError("clip() got both a positional bound and its keyword (min=/max=)");
    std::optional<cupp::operand> lo, hi;
    if (a.has(1)) lo = a.operand(1);
    if (a.has(4)) lo = a.operand(4);
    if (a.has(2)) hi = a.operand(2);
    if (a.has(5)) hi = a.operand(5);
    return value(cupp::clip(a.array(0), lo, hi, {.dtype = a.dtype(6), .casting = a.casting(7)}));
  });
  t.add("where", [](span_v args, span_k kw) -> value {
    if (args.size() == 1 && kw.empty()) {
      // np.where(condition) is np.asarray(condition).nonzero().
      if (!args[0].is_array()) throw cupp::TypeError("where(): the condition must be an array");
      return tuple_of(cupp::nonzero(args[0].array()));
    }
    const arguments a("where", {"condition", "x", "y"}, 3, args, kw);
    return value(cupp::where(a.operand(0), a.operand(1), a.operand(2)));
  });
}

}  // namespace cupp::eval
