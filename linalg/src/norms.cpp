// numpy.linalg.norm, matrix_norm, vector_norm and cond, as NumPy 2.5 computes them: vector norms
// and the entrywise matrix norms from cupp's reductions (bool and integers in float64), the 2, -2
// and nuclear norms from the singular values, cond's other orders from norm(x) * norm(inv(x)) with
// NaN from a singular matrix turned into inf (unless x itself holds a NaN).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// A 0-d array of dtype t (a strong scalar that broadcasts without adding a dimension).
ndarray scalar_of(double v, cupp::dtype t) { return cupp::full(std::span<const std::int64_t>{}, v, t); }

ndarray as_inexact(const ndarray& x) {
  if (x.dtype().is_inexact()) return x;
  return cupp::astype(x, cupp::float64);
}

ndarray abs_squared(const ndarray& x) {
  if (x.dtype().is_complex()) return cupp::square(x.real()) + cupp::square(x.imag());
  return cupp::square(x);
}

int normalize(int axis, int nd) {
  if (axis < -nd || axis >= nd)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(nd));
  return axis < 0 ? axis + nd : axis;
}

cupp::axes axes_of(const std::vector<int>& list) {
  return cupp::axes(std::vector<std::int64_t>(list.begin(), list.end()));
}

ndarray vector_norm_over(const ndarray& x, const std::vector<int>& axes, bool keepdims, const norm_ord& ord) {
  const cupp::reduce_options o{.axis = axes_of(axes), .keepdims = keepdims};
  if (ord.is_name()) throw ValueError("Invalid norm order '" + std::get<std::string>(ord.value) + "' for vectors");
  const double p = std::get<double>(ord.value);
  if (p == inf) return cupp::max(cupp::absolute(x), o);
  if (p == -inf) return cupp::min(cupp::absolute(x), o);
  if (p == 0) return cupp::sum(cupp::astype(x != 0, real_of(x.dtype())), o);
  if (p == 1) return cupp::sum(cupp::absolute(x), o);
  if (p == 2) return cupp::sqrt(cupp::sum(abs_squared(x), o));
  const ndarray absx = cupp::absolute(x);
  return cupp::power(cupp::sum(cupp::power(absx, scalar_of(p, absx.dtype())), o), scalar_of(1.0 / p, absx.dtype()));
}

ndarray svd_norm(const ndarray& x, int row, int col, bool use_max, bool use_sum) {
  const ndarray y = cupp::moveaxis(x, std::vector<int>{row, col}, std::vector<int>{-2, -1});
  const ndarray s = svdvals(y);
  if (use_sum) return cupp::sum(s, {.axis = {-1}});
  return use_max ? cupp::max(s, {.axis = {-1}}) : cupp::min(s, {.axis = {-1}});
}

ndarray matrix_norm_over(const ndarray& x, int row, int col, bool keepdims, const std::optional<norm_ord>& ord) {
  const int nd = x.ndim();
  row = normalize(row, nd);
  col = normalize(col, nd);
  if (row == col) throw ValueError("Duplicate axes given.");
  ndarray ret;
  auto reduce_then = [&](int first, int second, bool use_max) {
    const ndarray s = cupp::sum(cupp::absolute(x), {.axis = {first}});
    if (second > first) --second;
    return use_max ? cupp::max(s, {.axis = {second}}) : cupp::min(s, {.axis = {second}});
  };
  if (!ord) {
    ret = cupp::sqrt(cupp::sum(abs_squared(x), {.axis = {row, col}}));
  } else if (ord->is_name()) {
    const std::string& name = std::get<std::string>(ord->value);
    if (name == "fro" || name == "f") ret = cupp::sqrt(cupp::sum(abs_squared(x), {.axis = {row, col}}));
    else if (name == "nuc") ret = svd_norm(x, row, col, false, true);
    else throw ValueError("Invalid norm order for matrices.");
  } else {
    const double p = std::get<double>(ord->value);
    if (p == 2) ret = svd_norm(x, row, col, true, false);
    else if (p == -2) ret = svd_norm(x, row, col, false, false);
    else if (p == 1) ret = reduce_then(row, col, true);
    else if (p == -1) ret = reduce_then(row, col, false);
    else if (p == inf) ret = reduce_then(col, row, true);
    else if (p == -inf) ret = reduce_then(col, row, false);
    else throw ValueError("Invalid norm order for matrices.");
  }
  if (keepdims) {
    std::vector<i64> shape(x.shape().begin(), x.shape().end());
    shape[row] = 1;
    shape[col] = 1;
    ret = cupp::ascontiguousarray(ret).reshape(shape);
  }
  return ret;
}

}  // namespace
}  // namespace cupp::linalg::detail

namespace cupp::linalg {

using detail::i64;

ndarray norm(const ndarray& x0, const norm_options& options) {
  if (x0.is_null()) throw ValueError("norm: a null array");
  const ndarray x = detail::as_inexact(x0);
  const int nd = x.ndim();
  const auto& ord = options.ord;
  if (!options.axis) {
    const bool frobenius = !ord || (ord->is_name() && nd == 2 &&
                                    (std::get<std::string>(ord->value) == "fro" || std::get<std::string>(ord->value) == "f")) ||
                           (!ord->is_name() && nd == 1 && std::get<double>(ord->value) == 2);
    if (frobenius) {
      ndarray ret = cupp::sqrt(cupp::sum(detail::abs_squared(x)));
      if (options.keepdims) ret = ret.reshape(std::vector<i64>(static_cast<std::size_t>(nd), 1));
      return ret;
    }
    if (nd == 1) return detail::vector_norm_over(x, {0}, options.keepdims, *ord);
    if (nd == 2) return detail::matrix_norm_over(x, 0, 1, options.keepdims, ord);
    throw ValueError("Improper number of dimensions to norm.");
  }
  const std::vector<int>& axis = *options.axis;
  if (axis.size() == 1) {
    detail::normalize(axis[0], nd);
    return detail::vector_norm_over(x, axis, options.keepdims, ord ? *ord : norm_ord(2));
  }
  if (axis.size() == 2) return detail::matrix_norm_over(x, axis[0], axis[1], options.keepdims, ord);
  throw ValueError("Improper number of dimensions to norm.");
}

ndarray matrix_norm(const ndarray& x, const matrix_norm_options& options) {
  if (x.is_null()) throw ValueError("matrix_norm: a null array");
  // fewer than 2 dimensions: norm's AxisError for axis -2, as NumPy's
  return norm(x, {.ord = options.ord, .axis = std::vector<int>{-2, -1}, .keepdims = options.keepdims});
}

ndarray vector_norm(const ndarray& x0, const vector_norm_options& options) {
  if (x0.is_null()) throw ValueError("vector_norm: a null array");
  const ndarray x = detail::as_inexact(x0);
  std::vector<int> axes;
  if (options.axis) {
    for (int a : *options.axis) axes.push_back(detail::normalize(a, x.ndim()));
  } else {
    for (int a = 0; a < x.ndim(); ++a) axes.push_back(a);
  }
  if (x.ndim() == 0) return detail::vector_norm_over(x.reshape({1}), {0}, false, options.ord).reshape({});
  return detail::vector_norm_over(x, axes, options.keepdims, options.ord);
}

ndarray cond(const ndarray& x, std::optional<norm_ord> p) {
  detail::require_ndim(x, 2, "cond");
  if (x.size() == 0) throw LinAlgError("cond is not defined on empty arrays");
  ndarray r;
  const bool svd_order = !p || (!p->is_name() && (std::get<double>(p->value) == 2 || std::get<double>(p->value) == -2));
  if (svd_order) {
    const ndarray s = svdvals(x);
    const ndarray first = s(cupp::ellipsis, 0), last = s(cupp::ellipsis, -1);
    r = p && std::get<double>(p->value) == -2 ? last / first : first / last;
  } else {
    detail::require_square(x, "cond");
    const ndarray invx = detail::inv_impl(x, false);
    const std::vector<int> ax{-2, -1};
    r = norm(x, {.ord = p, .axis = ax}) * norm(invx, {.ord = p, .axis = ax});
  }
  const ndarray x_nan = cupp::any(cupp::isnan(x), {.axis = {-2, -1}});
  const ndarray to_inf = cupp::isnan(r) & ~x_nan;
  return cupp::where(to_inf, detail::scalar_of(detail::inf, r.dtype()), r);
}

}  // namespace cupp::linalg
