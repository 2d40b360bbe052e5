// cupp eval: the tree-walking evaluator.
#include "evaluator.hpp"

#include <array>
#include <string>
#include <vector>

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

// a @ b: Python's operator for matmul, which is a function (the linalg module's), not a ufunc.
value matmul_operator(const value& x, const value& y, const function_table& functions) {
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

}  // namespace

value evaluate(const node& n, const bindings& names, const function_table& functions) {
  switch (n.kind) {
    case node_kind::name: {
      const auto it = names.find(n.text);
      if (it == names.end())
        throw cupp::ValueError("name '" + n.text + "' is not defined (bind it with " + n.text + "=FILE.npy)");
      return value(it->second);
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
  }
  throw cupp::ValueError("cupp eval: unknown expression node");
}

}  // namespace cupp::eval
