// cupp eval: the tree-walking evaluator, with subscripts (NumPy's a[...], Python's tuple[...]).
#include "evaluator.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::eval {

namespace {

value unary(const node& n, const value& x) {
  if (x.is_scalar()) return value(apply(n.uop, x.scalar()));
  if (!x.is_array())
    throw cupp::TypeError("bad operand type for unary " + std::string(spelling(n.uop)) + ": '" + x.type_name() + "'");
  const cupp::ufunc& f = cupp::ufunc::get(ufunc_name(n.uop));
  const auto lock = lock_if_raising(f);
  return value(f(x.array()));
}

// a @ b: Python's operator for matmul, which is a function (the linalg module's), not a ufunc. A
// module's object on either side is asked first (its __matmul__, then the other's __rmatmul__).
value matmul_operator(const value& x, const value& y, const function_table& functions) {
  if (x.is_object()) {
    if (std::optional<value> r = x.object().matmul(y, false)) return std::move(*r);
  }
  if (y.is_object()) {
    if (std::optional<value> r = y.object().matmul(x, true)) return std::move(*r);
  }
  if (!x.is_array() || !y.is_array())
    throw cupp::TypeError("unsupported operand type(s) for @: '" + std::string(x.type_name()) + "' and '" +
                          y.type_name() + "'" + (x.is_scalar() || y.is_scalar() ? " (matmul takes no scalars)" : ""));
  if (functions.find("matmul") == nullptr)
    throw cupp::ValueError("a @ b is matmul, which this cupp has no binding for yet (it comes with the linalg module)");
  const std::array<value, 2> args = {x, y};
  return functions.call("matmul", args, {});
}

value binary(const node& n, const value& x, const value& y) {
  if (x.is_scalar() && y.is_scalar()) return value(apply(n.bop, x.scalar(), y.scalar()));
  const bool ok = (x.is_array() || x.is_scalar()) && (y.is_array() || y.is_scalar());
  if (!ok) {
    throw cupp::TypeError("unsupported operand type(s) for " + std::string(spelling(n.bop)) + ": '" +
                          x.type_name() + "' and '" + y.type_name() + "'");
  }
  const std::string_view name = ufunc_name(n.bop);
  const std::array<cupp::operand, 2> operands = {to_operand(x, name, 0), to_operand(y, name, 1)};
  const cupp::ufunc& f = cupp::ufunc::get(name);
  const auto lock = lock_if_raising(f);
  std::vector<cupp::ndarray> out = f.call(operands);
  return value(std::move(out.front()));
}

// ---- subscripts

[[noreturn]] void invalid_index() {
  throw cupp::IndexError(
      "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are "
      "valid indices");
}

std::int64_t clamp_to_int64(int128 v) {
  constexpr int128 lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(v < lo ? lo : v > hi ? hi : v);
}

// A slice bound or step as Python reads it (__index__): None, an int (clamped to int64, as
// Python clamps to Py_ssize_t: a[:2**70] is a[:]), a bool, or a 0-d integer (or bool) array.
std::optional<std::int64_t> slice_bound(const value& v) {
  if (v.is_none()) return std::nullopt;
  if (v.is_scalar()) {
    const py_scalar& s = v.scalar();
    if (s.k == py_scalar::kind::bool_) return s.b ? 1 : 0;
    if (s.k == py_scalar::kind::int_) return clamp_to_int64(s.i);
  } else if (v.is_array() && (v.array().dtype().is_integer() || v.array().dtype().is_bool())) {
    if (v.array().ndim() != 0) throw cupp::TypeError("only integer scalar arrays can be converted to a scalar index");
    return v.array().item<std::int64_t>();
  }
  throw cupp::TypeError("slice indices must be integers or None or have an __index__ method");
}

cupp::slice slice_of(const node& n, const bindings& names, const function_table& functions) {
  const std::optional<std::int64_t> start = slice_bound(evaluate(*n.args[0], names, functions));
  const std::optional<std::int64_t> stop = slice_bound(evaluate(*n.args[1], names, functions));
  return cupp::slice(start, stop, slice_bound(evaluate(*n.args[2], names, functions)));
}

// One value's index items, appended: None is newaxis, an array or a bool is advanced, an int
// and a slice object are basic; a tuple is its items when expand_tuple (one level, as NumPy reads
// a[nonzero(m)] or an index given as a tuple), else an error.
void add_index_value(std::vector<cupp::array_index_item>& items, const value& v, bool expand_tuple, bool& advanced) {
  if (v.is_none()) {
    items.emplace_back(cupp::newaxis);
  } else if (v.is_array()) {
    items.emplace_back(v.array());  // its dtype is checked by getitem (IndexError unless integer or bool)
    advanced = true;
  } else if (v.is_scalar() && v.scalar().k == py_scalar::kind::bool_) {
    items.emplace_back(std::in_place_type<bool>, v.scalar().b);
    advanced = true;
  } else if (v.is_scalar() && v.scalar().k == py_scalar::kind::int_) {
    const int128 i = v.scalar().i;
    if (i < std::numeric_limits<std::int64_t>::min() || i > std::numeric_limits<std::int64_t>::max())
      invalid_index();
    items.emplace_back(std::in_place_type<std::int64_t>, static_cast<std::int64_t>(i));
  } else if (v.is_slice()) {
    items.emplace_back(v.slice());
  } else if (v.is_tuple() && expand_tuple) {
    for (const value& x : v.tuple()) add_index_value(items, x, false, advanced);
  } else if (v.is_tuple()) {
    throw cupp::IndexError(
        "a tuple inside an index is not supported in cupp eval (NumPy reads it as an index array: bind that "
        "array as an input)");
  } else {
    invalid_index();  // a float, a complex, a string
  }
}

// The items of a[index] for cupp: the index's items (a tuple node's elements, or the one item;
// a single item whose value is a tuple, a[nonzero(m)], is that tuple's items, as in NumPy).
// `advanced` says whether an array or a bool is among them (then it is cupp::getitem).
std::vector<cupp::array_index_item> index_items(const node& index, const bindings& names,
                                                const function_table& functions, bool& advanced) {
  std::vector<cupp::array_index_item> items;
  const auto add_node = [&](const node& n, bool expand_tuple) {
    if (n.kind == node_kind::slice) {
      items.emplace_back(slice_of(n, names, functions));
    } else if (n.kind == node_kind::ellipsis) {
      items.emplace_back(cupp::ellipsis);
    } else {
      add_index_value(items, evaluate(n, names, functions), expand_tuple, advanced);
    }
  };
  if (index.kind == node_kind::tuple) {
    for (const auto& item : index.args) add_node(*item, false);
  } else {
    add_node(index, true);
  }
  return items;
}

// NumPy's a[index]: only basic items (integers, slices, None, ...) give a view (ndarray::index);
// an integer or bool array, or a bool, is advanced indexing (cupp::getitem, a copy). A structured
// array's a['name'] (a string literal) is its field, a view.
value array_subscript(const cupp::ndarray& a, const node& index, const bindings& names,
                      const function_table& functions) {
  if (a.dtype().is_structured() && index.kind == node_kind::string) return value(a.field(index.text));  // a['x']
  bool advanced = false;
  const std::vector<cupp::array_index_item> items = index_items(index, names, functions, advanced);
  if (advanced) return value(cupp::getitem(a, items));
  std::vector<cupp::index_item> basic;
  basic.reserve(items.size());
  for (const auto& item : items) {
    if (const auto* i = std::get_if<std::int64_t>(&item)) basic.emplace_back(*i);
    else if (const auto* s = std::get_if<cupp::slice>(&item)) basic.emplace_back(*s);
    else if (std::holds_alternative<cupp::newaxis_t>(item)) basic.emplace_back(cupp::newaxis);
    else basic.emplace_back(cupp::ellipsis);
  }
  return value(a.index(basic));
}

// Python's tuple[index] (a function's tuple result: divmod(a, 3)[0], unique(..., return_counts=True)[1]):
// an integer (negative counts from the end) gives the item, a slice a tuple.
value tuple_subscript(const tuple_value& t, const node& index, const bindings& names,
                      const function_table& functions) {
  const int128 n = static_cast<int128>(t.size());
  // Python's slice.indices(), as an array axis resolves it (array/layout.hpp)
  const auto sliced = [&](const cupp::slice& s) {
    const cupp::layout::slice_range r = cupp::layout::resolve_slice(s, static_cast<std::int64_t>(n));
    tuple_value out;
    for (std::int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) out.push_back(t[static_cast<std::size_t>(i)]);
    return value(std::move(out));
  };
  if (index.kind == node_kind::slice) return sliced(slice_of(index, names, functions));
  if (index.kind == node_kind::tuple || index.kind == node_kind::ellipsis)
    throw cupp::TypeError(std::string("tuple indices must be integers or slices, not ") +
                          (index.kind == node_kind::tuple ? "tuple" : "ellipsis"));
  const value v = evaluate(index, names, functions);
  if (v.is_slice()) return sliced(v.slice());  // t[slice(1, None)]
  int128 i = 0;
  if (v.is_scalar() && v.scalar().k == py_scalar::kind::int_) {
    i = v.scalar().i;
  } else if (v.is_scalar() && v.scalar().k == py_scalar::kind::bool_) {
    i = v.scalar().b ? 1 : 0;
  } else if (v.is_array() && v.array().ndim() == 0 && (v.array().dtype().is_integer() || v.array().dtype().is_bool())) {
    i = v.array().item<std::int64_t>();
  } else {
    throw cupp::TypeError(std::string("tuple indices must be integers or slices, not ") + v.type_name());
  }
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw cupp::IndexError("tuple index out of range");
  return t[static_cast<std::size_t>(i)];
}

value subscript(const node& n, const bindings& names, const function_table& functions) {
  const value base = evaluate(*n.args[0], names, functions);
  if (base.is_array()) return array_subscript(base.array(), *n.args[1], names, functions);
  if (base.is_tuple()) return tuple_subscript(base.tuple(), *n.args[1], names, functions);
  if (base.is_string()) throw cupp::TypeError("strings cannot be subscripted in cupp eval");
  throw cupp::TypeError("'" + std::string(base.type_name()) + "' object is not subscriptable");
}

}  // namespace

std::optional<std::int64_t> index_bound(const value& v) { return slice_bound(v); }

std::vector<cupp::array_index_item> index_items_of(const value& v, bool& advanced) {
  std::vector<cupp::array_index_item> items;
  add_index_value(items, v, true, advanced);
  return items;
}

value evaluate(const node& n, const bindings& names, const function_table& functions) {
  switch (n.kind) {
    case node_kind::name: {
      const auto it = names.find(n.text);
      if (it == names.end())
        throw cupp::ValueError("name '" + n.text + "' is not defined (bind it with " + n.text + "=FILE.npy)");
      return it->second;
    }
    case node_kind::integer:
      if (n.int_overflow) throw cupp::OverflowError("integer literal " + n.text + " is too large for cupp eval");
      return value(py_scalar::integer(n.int_value));
    case node_kind::floating: return value(py_scalar::floating(n.float_value));
    case node_kind::imaginary: return value(py_scalar::complex({0.0, n.float_value}));
    case node_kind::boolean: return value(py_scalar::boolean(n.bool_value));
    case node_kind::none: return value(none_value{});
    case node_kind::string: return value(n.text);
    case node_kind::tuple: {
      tuple_value t;
      t.reserve(n.args.size());
      for (const auto& a : n.args) t.push_back(evaluate(*a, names, functions));
      return value(std::move(t));
    }
    case node_kind::unary: return unary(n, evaluate(*n.args[0], names, functions));
    case node_kind::binary: {
      const value x = evaluate(*n.args[0], names, functions);
      if (n.bop == binary_op::matmul) return matmul_operator(x, evaluate(*n.args[1], names, functions), functions);
      return binary(n, x, evaluate(*n.args[1], names, functions));
    }
    case node_kind::call: {
      std::vector<value> args;
      args.reserve(n.args.size());
      for (const auto& a : n.args) args.push_back(evaluate(*a, names, functions));
      std::vector<keyword_value> keywords;
      keywords.reserve(n.keywords.size());
      for (const auto& k : n.keywords) keywords.push_back({k.name, evaluate(*k.value, names, functions)});
      return functions.call(n.text, args, keywords);
    }
    case node_kind::subscript: return subscript(n, names, functions);
    case node_kind::slice:  // the parser makes these subscript items only
    case node_kind::ellipsis: throw cupp::TypeError("cupp eval: a slice or '...' outside a subscript");
  }
  throw cupp::ValueError("cupp eval: unknown expression node");
}

}  // namespace cupp::eval
