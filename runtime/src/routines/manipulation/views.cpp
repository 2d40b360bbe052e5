// The NumPy 2 forms of the shape and axis views that the ndarray's methods lack (cupp/manipulation.hpp,
// "shapes and axes"): reshape with order= and copy=, ravel with order=, matrix_transpose, rollaxis,
// moveaxis, expand_dims and squeeze with several axes, and parse_order. Each is a permutation,
// reshape or expand_dims of the ndarray (runtime/src/array/ndarray.cpp), so no device work unless
// reshape or ravel needs the copy NumPy would make.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"

namespace cupp {

namespace {

using std::int64_t;

std::string str(int64_t v) { return std::to_string(v); }

// NumPy's order='A': F for an array that is Fortran- but not C-contiguous, else C.
cupp::order resolve_any_order(const ndarray& a) {
  return a.is_f_contiguous() && !a.is_c_contiguous() ? cupp::order::F : cupp::order::C;
}

// The axes in the order NumPy's ravel(order='K') reads them, outermost first: its iterator's
// stable insertion sort (npyiter_find_best_axis_ordering) from the innermost axis outwards, each
// axis moving inwards past axes of larger |stride|; a comparison with a zero stride (a broadcast
// axis) decides nothing and is passed over. Negative strides are not flipped (NumPy's flatten
// iterates with NPY_ITER_DONT_NEGATE_STRIDES), so every axis is read forwards.
std::vector<int> keep_order_axes(std::span<const int64_t> strides) {
  const int nd = static_cast<int>(strides.size());
  std::vector<int> perm;  // innermost first
  for (int ax = nd - 1; ax >= 0; --ax) perm.push_back(ax);
  for (int i0 = 1; i0 < nd; ++i0) {
    const int j0 = perm[static_cast<std::size_t>(i0)];
    const int64_t s0 = strides[static_cast<std::size_t>(j0)];
    int ipos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int64_t s1 = strides[static_cast<std::size_t>(perm[static_cast<std::size_t>(i1)])];
      if (s0 == 0 || s1 == 0) continue;  // ambiguous
      if (std::llabs(s1) <= std::llabs(s0)) break;
      ipos = i1;
    }
    perm.erase(perm.begin() + i0);
    perm.insert(perm.begin() + ipos, j0);
  }
  std::reverse(perm.begin(), perm.end());
  return perm;
}

}  // namespace

cupp::order parse_order(std::string_view order) {
  if (order == "C") return cupp::order::C;
  if (order == "F") return cupp::order::F;
  if (order == "A") return cupp::order::A;
  if (order == "K") return cupp::order::K;
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + std::string(order) + "')");
}

ndarray reshape(const ndarray& a, std::span<const std::int64_t> shape, const reshape_options& options) {
  detail::require_array(a, "reshape");
  cupp::order order = options.order;
  if (order == cupp::order::K) throw ValueError("order 'K' is not permitted for reshaping");
  if (order == cupp::order::A) order = resolve_any_order(a);
  // (The size check and the -1 against a's own shape, so the message names the shape as given.)
  shape_t target = layout::infer_shape(shape, a.size(), a.shape());
  const bool fortran = order == cupp::order::F;
  // Fortran order: a.T read in C order is a read in Fortran order; reshape it to the reversed
  // shape and transpose back.
  const ndarray b = fortran ? a.transpose() : a;
  if (fortran) std::reverse(target.begin(), target.end());
  const bool fits = layout::reshape_strides(b.shape(), b.strides(), target, static_cast<int64_t>(b.itemsize())).has_value();
  if (options.copy == false && !fits) throw ValueError("Unable to avoid creating a copy while reshaping.");
  ndarray r = b.reshape(target);  // a view when it fits, else a C-order copy
  if (options.copy == true && fits) r = r.copy();
  return fortran ? r.transpose() : r;
}

ndarray ravel(const ndarray& a, cupp::order order) {
  detail::require_array(a, "ravel");
  const int64_t flat = -1;
  const std::span<const int64_t> one(&flat, 1);
  if (order == cupp::order::A) order = resolve_any_order(a);
  if (order == cupp::order::K) {
    if (a.is_c_contiguous()) return a.reshape(one);
    if (a.is_f_contiguous()) return a.transpose().reshape(one);
    return a.transpose(keep_order_axes(a.strides())).reshape(one);
  }
  return order == cupp::order::F ? a.transpose().reshape(one) : a.reshape(one);
}

ndarray matrix_transpose(const ndarray& x) {
  detail::require_array(x, "matrix_transpose");
  if (x.ndim() < 2) throw ValueError("Input array must be at least 2-dimensional, but it is " + str(x.ndim()));
  return x.swapaxes(-1, -2);
}

ndarray rollaxis(const ndarray& a, int axis, int start) {
  detail::require_array(a, "rollaxis");
  const int n = a.ndim();
  const int ax = layout::normalize_axis(axis, n);
  int64_t s = start < 0 ? int64_t(start) + n : int64_t(start);
  if (s < 0 || s >= n + 1)
    throw AxisError("'start' arg requires " + str(-n) + " <= start < " + str(n + 1) + ", but " + str(start) +
                    " was passed in");
  if (ax < s) --s;
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (i != ax) order.push_back(i);
  order.insert(order.begin() + s, ax);
  return a.transpose(order);
}

namespace {

// NumPy's normalize_axis_tuple(axes, ndim, argname): each axis in range (AxisError, prefixed with
// the argument's name when there is one), none repeated (ValueError).
std::vector<int> normalize_axis_tuple(std::span<const int> axes, int ndim, std::string_view argname) {
  std::vector<int> out;
  for (int axis : axes) {
    if (axis < -ndim || axis >= ndim)
      throw AxisError((argname.empty() ? std::string() : std::string(argname) + ": ") + "axis " + str(axis) +
                      " is out of bounds for array of dimension " + str(ndim));
    out.push_back(axis < 0 ? axis + ndim : axis);
  }
  std::vector<int> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw ValueError(argname.empty() ? std::string("repeated axis")
                                     : "repeated axis in `" + std::string(argname) + "` argument");
  return out;
}

}  // namespace

ndarray moveaxis(const ndarray& a, std::span<const int> source, std::span<const int> destination) {
  detail::require_array(a, "moveaxis");
  const int n = a.ndim();
  const std::vector<int> src = normalize_axis_tuple(source, n, "source");
  const std::vector<int> dst = normalize_axis_tuple(destination, n, "destination");
  if (src.size() != dst.size())
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;  // (destination, source), inserted by destination
  for (std::size_t k = 0; k < src.size(); ++k) moves.emplace_back(dst[k], src[k]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [d, s] : moves) order.insert(order.begin() + d, s);
  return a.transpose(order);
}

ndarray expand_dims(const ndarray& a, std::span<const int> axes) {
  detail::require_array(a, "expand_dims");
  const int out_ndim = a.ndim() + static_cast<int>(axes.size());
  layout::check_ndim(static_cast<std::size_t>(out_ndim));
  std::vector<int> positions = normalize_axis_tuple(axes, out_ndim, {});
  std::sort(positions.begin(), positions.end());
  // Inserted in increasing order, each position already counts the axes inserted before it.
  ndarray r = a;
  for (int p : positions) r = r.expand_dims(p);
  return r;
}

ndarray expand_dims(const ndarray& a, std::initializer_list<int> axes) {
  return expand_dims(a, std::span<const int>(axes.begin(), axes.size()));
}

ndarray squeeze(const ndarray& a, std::span<const int> axes) { return a.squeeze(axes); }

}  // namespace cupp
