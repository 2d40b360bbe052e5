// cupp eval: the hand bindings of linalg part 2 (cupp/linalg_solvers.hpp) whose arguments or
// results the typed signatures cannot express: qr (one array or a tuple by mode), norm /
// matrix_norm / vector_norm (ord a number or a name with a default that is not None; axis None,
// an int or a tuple), cho_factor (a tuple with a bool), lu_solve and cho_solve (a tuple argument;
// trans also as 'N', 'T', 'C'). The rest of the family is generated from
// specs/routines/linalg_solvers.yaml.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

// ord=: a real number (inf written 1e999) or a name ('fro', 'nuc').
std::optional<cupp::linalg::norm_ord> ord_argument(const arguments& a, std::size_t i) {
  if (!a.has(i)) return std::nullopt;
  if (a.get(i).is_string()) return cupp::linalg::norm_ord(a.get(i).string());
  return cupp::linalg::norm_ord(a.real(i));
}

// axis=: None (absent) or an int or a tuple of ints, as C++ ints.
std::optional<std::vector<int>> axis_argument(const arguments& a, std::size_t i) {
  if (!a.has(i)) return std::nullopt;
  return a.int_list(i, false);
}

// trans= of lu_solve: 0, 1, 2 or 'N', 'T', 'C' (SciPy's).
int trans_argument(const arguments& a, std::size_t i, const char* routine) {
  if (!a.has(i)) return 0;
  if (a.get(i).is_string()) {
    const std::string& s = a.get(i).string();
    if (s == "N") return 0;
    if (s == "T") return 1;
    if (s == "C") return 2;
    throw cupp::ValueError(std::string(routine) + ": trans must be 0, 1, 2 or 'N', 'T', 'C', not '" + s + "'");
  }
  return a.int32(i, 0);
}

// A tuple argument of exactly two items (lu_and_piv, c_and_lower).
const tuple_value& pair_argument(const arguments& a, std::size_t i, const char* routine, const char* what) {
  if (!a.get(i).is_tuple() || a.get(i).tuple().size() != 2)
    throw cupp::TypeError(std::string(routine) + "(): '" + what + "' must be a tuple of two items, not '" +
                          a.get(i).type_name() + "'");
  return a.get(i).tuple();
}

const cupp::ndarray& array_item(const value& v, const char* routine, const char* what) {
  if (!v.is_array())
    throw cupp::TypeError(std::string(routine) + "(): '" + what + "' must be an array, not '" + v.type_name() + "'");
  return v.array();
}

}  // namespace

void add_linalg_solvers(function_table& t) {
  // qr(a, mode='reduced'): (Q, R), R alone for 'r', (h, tau) for 'raw'.
  t.add("linalg.qr", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.qr", {"a", "mode"}, 1, args, kw);
    const std::string mode = a.string(1, "reduced");
    const cupp::linalg::QRResult r = cupp::linalg::qr(a.array(0), {.mode = mode});
    if (mode == "r") return value(r.R);
    return tuple_of({r.Q, r.R});
  });
  // norm(x, ord=None, axis=None, keepdims=False)
  t.add("linalg.norm", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.norm", {"x", "ord", "axis", "keepdims"}, 1, args, kw);
    return value(cupp::linalg::norm(
        a.array(0), {.ord = ord_argument(a, 1), .axis = axis_argument(a, 2), .keepdims = a.boolean(3, false)}));
  });
  // matrix_norm(x, /, *, keepdims=False, ord='fro')
  t.add("linalg.matrix_norm", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.matrix_norm", {"x", "keepdims", "ord"}, 1, 1, args, kw);
    cupp::linalg::matrix_norm_options o{.keepdims = a.boolean(1, false)};
    if (auto ord = ord_argument(a, 2)) o.ord = *ord;
    return value(cupp::linalg::matrix_norm(a.array(0), o));
  });
  // vector_norm(x, /, *, axis=None, keepdims=False, ord=2)
  t.add("linalg.vector_norm", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.vector_norm", {"x", "axis", "keepdims", "ord"}, 1, 1, args, kw);
    cupp::linalg::vector_norm_options o{.axis = axis_argument(a, 1), .keepdims = a.boolean(2, false)};
    if (a.has(3)) {
      if (a.get(3).is_string())
        throw cupp::ValueError("Invalid norm order '" + a.get(3).string() + "' for vectors");
      o.ord = a.real(3);
    }
    return value(cupp::linalg::vector_norm(a.array(0), o));
  });
  // cho_factor(a, lower=False, overwrite_a=False, check_finite=True): (c, lower).
  t.add("linalg.cho_factor", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.cho_factor", {"a", "lower", "overwrite_a", "check_finite"}, 1, args, kw);
    const cupp::linalg::cho_factor_result r = cupp::linalg::cho_factor(a.array(0), {.lower = a.boolean(1, false)});
    return value(tuple_value{value(r.c), value(py_scalar::boolean(r.lower))});
  });
  // lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True)
  t.add("linalg.lu_solve", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.lu_solve", {"lu_and_piv", "b", "trans", "overwrite_b", "check_finite"}, 2, args, kw);
    const tuple_value& p = pair_argument(a, 0, "linalg.lu_solve", "lu_and_piv");
    const cupp::linalg::lu_factor_result f{array_item(p[0], "linalg.lu_solve", "lu"),
                                           array_item(p[1], "linalg.lu_solve", "piv")};
    return value(cupp::linalg::lu_solve(f, a.array(1), {.trans = trans_argument(a, 2, "lu_solve")}));
  });
  // cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True)
  t.add("linalg.cho_solve", [](span_v args, span_k kw) -> value {
    const arguments a("linalg.cho_solve", {"c_and_lower", "b", "overwrite_b", "check_finite"}, 2, args, kw);
    const tuple_value& p = pair_argument(a, 0, "linalg.cho_solve", "c_and_lower");
    bool lower = false;
    if (p[1].is_scalar() && p[1].scalar().k == py_scalar::kind::bool_) {
      lower = p[1].scalar().b;
    } else if (p[1].is_array() && p[1].array().ndim() == 0 && p[1].array().dtype().is_bool()) {
      lower = p[1].array().item<bool>();
    } else {
      throw cupp::TypeError(std::string("linalg.cho_solve(): 'lower' must be True or False, not '") +
                            p[1].type_name() + "'");
    }
    const cupp::linalg::cho_factor_result f{array_item(p[0], "linalg.cho_solve", "c"), lower};
    return value(cupp::linalg::cho_solve(f, a.array(1)));
  });
}

}  // namespace cupp::eval
