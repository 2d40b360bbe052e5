// cupp eval: the array manipulation routines (cupp/manipulation.hpp) with NumPy's positional and
// keyword arguments. A sequence of arrays is a tuple: concatenate((a, b), axis=None),
// stack((a, b), axis=-1), split(a, (2, 5)), roll(a, (1, -1), axis=(0, 1)). Routines that NumPy
// gives several arrays (split and friends, atleast_nd of several inputs) give a tuple. out= is
// refused (cupp eval writes outputs to the -o files); delete/insert take an integer, a tuple of
// integers, an integer array or (delete) a boolean mask.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
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
}

}  // namespace cupp::eval
