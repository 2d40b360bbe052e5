// cupp eval: the array manipulation routines (cupp/manipulation.hpp) with NumPy's positional and
// keyword arguments. A sequence of arrays is a tuple: concatenate((a, b), axis=None),
// stack((a, b), axis=-1), split(a, (2, 5)), roll(a, (1, -1), axis=(0, 1)). Routines that NumPy
// gives several arrays (split and friends, atleast_nd of several inputs) give a tuple. out= is
// refused (cupp eval writes outputs to the -o files); delete/insert take an integer, a tuple of
// integers, an integer array or (delete) a boolean mask. pad takes pad_width, constant_values,
// end_values and stat_length as NumPy does (N, (before, after) or ((b0, a0), (b1, a1), ...); a
// float stat_length is rounded, as NumPy's) and reflect_type; clip takes None bounds and
// NumPy 2.1's min=/max= keywords; where(condition) alone is nonzero(condition).
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

// split's indices_or_sections: an integer, or a tuple of integers.
template <class F>
value split_call(const arguments& a, std::size_t i, F&& f) {
  if (a.get(i).is_tuple()) {
    const std::vector<std::int64_t> at = a.integers(i);
    return tuple_of(f(std::span<const std::int64_t>(at), std::nullopt));
  }
  return tuple_of(f(std::span<const std::int64_t>(), a.integer(i, 0)));
}

// delete/insert's obj: an integer, a tuple of integers, an integer array.
cupp::index_spec index_obj(const arguments& a, std::size_t i) {
  const value& v = a.get(i);
  if (v.is_tuple()) return a.integers(i);
  if (v.is_array()) {
    const cupp::ndarray& x = v.array();
    if (x.ndim() > 1)
      throw cupp::ValueError("index array argument obj must be one dimensional or scalar");
    if (!cupp::can_cast(x.dtype(), cupp::int64, cupp::casting::same_kind) || x.dtype().is_bool())
      throw cupp::IndexError("arrays used as indices must be of integer (or boolean) type");
    std::vector<std::int64_t> idx = cupp::astype(x, cupp::int64).to_vector<std::int64_t>();
    if (x.ndim() == 0) return idx[0];
    return idx;
  }
  return a.integer(i, 0);
}

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
  for (const char* name : {"concatenate", "concat"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments a(n, {"arrays", "axis", "out", "dtype", "casting"}, 1, args, kw);
      if (a.has(2)) throw cupp::TypeError(n + "(): out= is not supported by cupp eval (outputs go to the -o files)");
      const cupp::concatenate_options o{.axis = a.axis_or_none(1, 0), .dtype = a.dtype(3), .casting = a.casting(4)};
      return value(cupp::concatenate(a.arrays(0), o));
    });
  }
  t.add("stack", [](span_v args, span_k kw) -> value {
    const arguments a("stack", {"arrays", "axis", "out", "dtype", "casting"}, 1, args, kw);
    if (a.has(2)) throw cupp::TypeError("stack(): out= is not supported by cupp eval (outputs go to the -o files)");
    return value(cupp::stack(a.arrays(0), {.axis = static_cast<int>(a.integer(1, 0)), .dtype = a.dtype(3),
                                           .casting = a.casting(4)}));
  });
  t.add("hstack", [](span_v args, span_k kw) -> value {
    const arguments a("hstack", {"tup", "dtype", "casting"}, 1, args, kw);
    return value(cupp::hstack(a.arrays(0), {.dtype = a.dtype(1), .casting = a.casting(2)}));
  });
  t.add("vstack", [](span_v args, span_k kw) -> value {
    const arguments a("vstack", {"tup", "dtype", "casting"}, 1, args, kw);
    return value(cupp::vstack(a.arrays(0), {.dtype = a.dtype(1), .casting = a.casting(2)}));
  });
  t.add("dstack", [](span_v args, span_k kw) -> value {
    const arguments a("dstack", {"tup"}, 1, args, kw);
    return value(cupp::dstack(a.arrays(0)));
  });
  t.add("column_stack", [](span_v args, span_k kw) -> value {
    const arguments a("column_stack", {"tup"}, 1, args, kw);
    return value(cupp::column_stack(a.arrays(0)));
  });
  t.add("append", [](span_v args, span_k kw) -> value {
    const arguments a("append", {"arr", "values", "axis"}, 2, args, kw);
    return value(cupp::append(a.array(0), a.array(1), a.optional_axis(2)));
  });
  for (const char* name : {"split", "array_split"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments a(n, {"ary", "indices_or_sections", "axis"}, 2, args, kw);
      const cupp::ndarray& x = a.array(0);
      const int axis = static_cast<int>(a.integer(2, 0));
      return split_call(a, 1, [&](std::span<const std::int64_t> at, std::optional<std::int64_t> sections) {
        if (n == "split") return sections ? cupp::split(x, *sections, axis) : cupp::split(x, at, axis);
        return sections ? cupp::array_split(x, *sections, axis) : cupp::array_split(x, at, axis);
      });
    });
  }
  for (const char* name : {"hsplit", "vsplit", "dsplit"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments a(n, {"ary", "indices_or_sections"}, 2, args, kw);
      const cupp::ndarray& x = a.array(0);
      return split_call(a, 1, [&](std::span<const std::int64_t> at, std::optional<std::int64_t> sections) {
        if (n == "hsplit") return sections ? cupp::hsplit(x, *sections) : cupp::hsplit(x, at);
        if (n == "vsplit") return sections ? cupp::vsplit(x, *sections) : cupp::vsplit(x, at);
        return sections ? cupp::dsplit(x, *sections) : cupp::dsplit(x, at);
      });
    });
  }
  t.add("flip", [](span_v args, span_k kw) -> value {
    const arguments a("flip", {"m", "axis"}, 1, args, kw);
    if (!a.has(1)) return value(cupp::flip(a.array(0)));
    const std::vector<std::int64_t> axes = a.integers(1);
    const std::vector<int> ax(axes.begin(), axes.end());
    return value(cupp::flip(a.array(0), std::span<const int>(ax)));
  });
  t.add("fliplr", [](span_v args, span_k kw) -> value {
    const arguments a("fliplr", {"m"}, 1, args, kw);
    return value(cupp::fliplr(a.array(0)));
  });
  t.add("flipud", [](span_v args, span_k kw) -> value {
    const arguments a("flipud", {"m"}, 1, args, kw);
    return value(cupp::flipud(a.array(0)));
  });
  t.add("rot90", [](span_v args, span_k kw) -> value {
    const arguments a("rot90", {"m", "k", "axes"}, 1, args, kw);
    std::array<int, 2> axes{0, 1};
    if (a.has(2)) {
      const std::vector<std::int64_t> ax = a.integers(2);
      if (ax.size() != 2) throw cupp::ValueError("len(axes) must be 2.");
      axes = {static_cast<int>(ax[0]), static_cast<int>(ax[1])};
    }
    return value(cupp::rot90(a.array(0), a.integer(1, 1), axes));
  });
  t.add("roll", [](span_v args, span_k kw) -> value {
    const arguments a("roll", {"a", "shift", "axis"}, 2, args, kw);
    const std::vector<std::int64_t> shifts = a.integers(1);
    if (!a.has(2)) {
      std::int64_t total = 0;
      for (std::int64_t s : shifts) total += s;
      return value(cupp::roll(a.array(0), total));
    }
    const std::vector<std::int64_t> axes = a.integers(2);
    const std::vector<int> ax(axes.begin(), axes.end());
    return value(cupp::roll(a.array(0), std::span<const std::int64_t>(shifts), std::span<const int>(ax)));
  });
  t.add("tile", [](span_v args, span_k kw) -> value {
    const arguments a("tile", {"A", "reps"}, 2, args, kw);
    const std::vector<std::int64_t> reps = a.integers(1);
    return value(cupp::tile(a.array(0), std::span<const std::int64_t>(reps)));
  });
  t.add("repeat", [](span_v args, span_k kw) -> value {
    const arguments a("repeat", {"a", "repeats", "axis"}, 2, args, kw);
    if (a.get(1).is_array()) return value(cupp::repeat(a.array(0), a.array(1), a.optional_axis(2)));
    if (a.get(1).is_tuple()) {
      const std::vector<std::int64_t> counts = a.integers(1);
      return value(cupp::repeat(a.array(0), std::span<const std::int64_t>(counts), a.optional_axis(2)));
    }
    return value(cupp::repeat(a.array(0), a.integer(1, 0), a.optional_axis(2)));
  });
  t.add("resize", [](span_v args, span_k kw) -> value {
    const arguments a("resize", {"a", "new_shape"}, 2, args, kw);
    const std::vector<std::int64_t> shape = a.integers(1);
    return value(cupp::resize(a.array(0), std::span<const std::int64_t>(shape)));
  });
  for (const char* name : {"atleast_1d", "atleast_2d", "atleast_3d"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments none(n, {}, 0, {}, kw);
      const std::vector<cupp::ndarray> xs = positional_arrays(n, args);
      std::vector<cupp::ndarray> out = n == "atleast_1d"   ? cupp::atleast_1d(xs)
                                       : n == "atleast_2d" ? cupp::atleast_2d(xs)
                                                           : cupp::atleast_3d(xs);
      if (out.size() == 1) return value(out[0]);
      return tuple_of(std::move(out));
    });
  }
  t.add("delete", [](span_v args, span_k kw) -> value {
    const arguments a("delete", {"arr", "obj", "axis"}, 2, args, kw);
    if (a.get(1).is_array() && a.get(1).array().dtype().is_bool()) {
      const cupp::ndarray& m = a.get(1).array();
      if (m.ndim() != 1)
        throw cupp::ValueError("boolean array argument obj to delete must be one dimensional");
      const std::vector<std::uint8_t> bytes = m.view(cupp::uint8).to_vector<std::uint8_t>();
      return value(cupp::delete_(a.array(0), std::vector<bool>(bytes.begin(), bytes.end()), a.optional_axis(2)));
    }
    return value(cupp::delete_(a.array(0), index_obj(a, 1), a.optional_axis(2)));
  });
  t.add("insert", [](span_v args, span_k kw) -> value {
    const arguments a("insert", {"arr", "obj", "values", "axis"}, 3, args, kw);
    return value(cupp::insert(a.array(0), index_obj(a, 1), a.operand(2), a.optional_axis(3)));
  });
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
  for (const char* name : {"round", "around"}) {
    const std::string n = name;
    t.add(n, [n](span_v args, span_k kw) -> value {
      const arguments a(n, {"a", "decimals", "out"}, 1, args, kw);
      if (a.has(2)) throw cupp::TypeError(n + "(): out= is not supported by cupp eval (outputs go to the -o files)");
      const int decimals = static_cast<int>(a.integer(1, 0));
      return value(n == "round" ? cupp::round(a.array(0), decimals) : cupp::around(a.array(0), decimals));
    });
  }
  t.add("nan_to_num", [](span_v args, span_k kw) -> value {
    const arguments a("nan_to_num", {"x", "copy", "nan", "posinf", "neginf"}, 1, args, kw);
    cupp::nan_to_num_options o{.copy = a.boolean(1, true)};
    if (a.has(2)) o.nan = a.number(2).real();
    if (a.has(3)) o.posinf = a.number(3).real();
    if (a.has(4)) o.neginf = a.number(4).real();
    return value(cupp::nan_to_num(a.array(0), o));
  });
  t.add("angle", [](span_v args, span_k kw) -> value {
    const arguments a("angle", {"z", "deg"}, 1, args, kw);
    return value(cupp::angle(a.array(0), a.boolean(1, false)));
  });
  t.add("trim_zeros", [](span_v args, span_k kw) -> value {
    const arguments a("trim_zeros", {"filt", "trim", "axis"}, 1, args, kw);
    return value(cupp::trim_zeros(a.array(0), a.string(1, "fb"), a.optional_axis(2)));
  });
  t.add("interp", [](span_v args, span_k kw) -> value {
    const arguments a("interp", {"x", "xp", "fp", "left", "right", "period"}, 3, args, kw);
    cupp::interp_options o;
    if (a.has(3)) o.left = std::complex<double>(a.number(3).real(), a.number(3).imag());
    if (a.has(4)) o.right = std::complex<double>(a.number(4).real(), a.number(4).imag());
    if (a.has(5)) o.period = a.number(5).real();
    return value(cupp::interp(a.array(0), a.array(1), a.array(2), o));
  });
  t.add("convolve", [](span_v args, span_k kw) -> value {
    const arguments a("convolve", {"a", "v", "mode"}, 2, args, kw);
    return value(cupp::convolve(a.array(0), a.array(1), a.string(2, "full")));
  });
  t.add("correlate", [](span_v args, span_k kw) -> value {
    const arguments a("correlate", {"a", "v", "mode"}, 2, args, kw);
    return value(cupp::correlate(a.array(0), a.array(1), a.string(2, "valid")));
  });
}

}  // namespace cupp::eval
