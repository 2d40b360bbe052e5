// NumPy's other matrix products over cupp::matmul (each as NumPy's numpy/_core/numeric.py or
// multiarray builds it, so shapes, dtypes, rounding order and errors agree): dot, vdot, inner,
// outer, tensordot (transpose + reshape to one 2-D product), kron (interleaved broadcast
// multiply) and cross (component products with out=, NumPy's order of operations; 3-vectors, as NumPy 2.5).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

namespace {

using i64 = std::int64_t;

std::string shape_text(std::span<const i64> s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

void require_arrays(const ndarray& a, const ndarray& b, const char* name) {
  if (a.is_null() || b.is_null()) throw ValueError(std::string(name) + ": a null array");
}

// NumPy's "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)".
[[noreturn]] void not_aligned(const ndarray& a, const ndarray& b, int da, int db) {
  throw ValueError("shapes " + shape_text(a.shape()) + " and " + shape_text(b.shape()) + " not aligned: " +
                   std::to_string(a.shape()[da]) + " (dim " + std::to_string(da) + ") != " +
                   std::to_string(b.shape()[db]) + " (dim " + std::to_string(db) + ")");
}

i64 product_of(std::span<const i64> s) { return std::accumulate(s.begin(), s.end(), i64{1}, std::multiplies<>()); }

// dot's out=: the result's exact shape and dtype, C-contiguous (NumPy's check in PyArray_MatrixProduct2).
void check_dot_out(const ndarray& out, std::span<const i64> shape, const dtype& type) {
  if (out.is_null()) return;
  if (out.dtype() != type || !std::equal(out.shape().begin(), out.shape().end(), shape.begin(), shape.end()) ||
      !out.is_c_contiguous())
    throw ValueError("output array is not acceptable (must have the right datatype, number of dimensions, and be a "
                     "C-Array)");
  if (!out.writeable()) throw ValueError("output array is read-only");
}

ndarray into_out(const ndarray& r, const ndarray& out) {
  if (out.is_null()) return r;
  out.assign(r);
  return out;
}

}  // namespace

ndarray dot(const ndarray& a, const ndarray& b, const ndarray& out) {
  require_arrays(a, b, "dot");
  if (a.ndim() == 0 || b.ndim() == 0) return out.is_null() ? multiply(a, b) : multiply(a, b, {.out = out});
  const dtype type = result_type(a.dtype(), b.dtype());
  const int kb = b.ndim() == 1 ? 0 : b.ndim() - 2;  // b's summed axis
  if (a.shape(-1) != b.shape()[kb]) not_aligned(a, b, a.ndim() - 1, kb);
  std::vector<i64> shape(a.shape().begin(), a.shape().end() - 1);
  if (b.ndim() >= 2) {
    shape.insert(shape.end(), b.shape().begin(), b.shape().end() - 2);
    shape.push_back(b.shape(-1));
  }
  check_dot_out(out, shape, type);
  if (b.ndim() == 1 || (a.ndim() <= 2 && b.ndim() == 2)) return into_out(matmul(a, b), out);
  // N-D . M-D: a as (rows, k), b's summed axis first as (k, columns), one product.
  const i64 k = a.shape(-1);
  const i64 rows = product_of(std::span<const i64>(a.shape()).first(a.ndim() - 1));
  const ndarray bt = b.moveaxis(-2, 0);
  const i64 cols = product_of(std::span<const i64>(bt.shape()).subspan(1));
  return into_out(matmul(a.reshape({rows, k}), bt.reshape({k, cols})).reshape(shape), out);
}

ndarray vdot(const ndarray& a, const ndarray& b) {
  require_arrays(a, b, "vdot");
  if (a.size() != b.size()) throw ValueError("vectors have different lengths");
  const ndarray x = a.dtype().kind() == 'c' ? conjugate(a.ravel()) : a.ravel();
  return matmul(x, b.ravel());
}

ndarray inner(const ndarray& a, const ndarray& b) {
  require_arrays(a, b, "inner");
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const i64 k = a.shape(-1);
  if (b.shape(-1) != k) not_aligned(a, b, a.ndim() - 1, b.ndim() - 1);
  std::vector<i64> shape(a.shape().begin(), a.shape().end() - 1);
  shape.insert(shape.end(), b.shape().begin(), b.shape().end() - 1);
  const i64 ra = product_of(std::span<const i64>(a.shape()).first(a.ndim() - 1));
  const i64 rb = product_of(std::span<const i64>(b.shape()).first(b.ndim() - 1));
  return matmul(a.reshape({ra, k}), b.reshape({rb, k}).T()).reshape(shape);
}

ndarray outer(const ndarray& a, const ndarray& b, const ndarray& out) {
  require_arrays(a, b, "outer");
  const ndarray x = a.reshape({a.size(), 1}), y = b.reshape({1, b.size()});
  return out.is_null() ? multiply(x, y) : multiply(x, y, {.out = out});
}

ndarray tensordot(const ndarray& a, const ndarray& b, std::int64_t axes) {
  std::vector<int> axes_a, axes_b;
  for (i64 i = -axes; i < 0; ++i) axes_a.push_back(static_cast<int>(i));  // NumPy's range(-N, 0)
  for (i64 i = 0; i < axes; ++i) axes_b.push_back(static_cast<int>(i));   // and range(0, N)
  return tensordot(a, b, axes_a, axes_b);
}

ndarray tensordot(const ndarray& a, const ndarray& b, std::span<const int> axes_a0, std::span<const int> axes_b0) {
  require_arrays(a, b, "tensordot");
  std::vector<int> axes_a(axes_a0.begin(), axes_a0.end()), axes_b(axes_b0.begin(), axes_b0.end());
  const int nda = a.ndim(), ndb = b.ndim();
  bool equal = axes_a.size() == axes_b.size();
  for (std::size_t k = 0; equal && k < axes_a.size(); ++k) {
    if (axes_a[k] < -nda || axes_a[k] >= nda || axes_b[k] < -ndb || axes_b[k] >= ndb)
      throw IndexError("tuple index out of range");  // NumPy's as_[axes_a[k]]
    if (a.shape()[(axes_a[k] + nda) % nda] != b.shape()[(axes_b[k] + ndb) % ndb]) {
      equal = false;
      break;
    }
    if (axes_a[k] < 0) axes_a[k] += nda;
    if (axes_b[k] < 0) axes_b[k] += ndb;
  }
  if (!equal) throw ValueError("shape-mismatch for sum");
  std::vector<int> perm_a, perm_b(axes_b);
  std::vector<i64> free_a, free_b;
  i64 rows = 1, cols = 1, sum = 1;
  for (int k = 0; k < nda; ++k)
    if (std::find(axes_a.begin(), axes_a.end(), k) == axes_a.end()) {
      perm_a.push_back(k);
      free_a.push_back(a.shape()[k]);
      rows *= a.shape()[k];
    }
  for (int k : axes_a) {
    perm_a.push_back(k);
    sum *= a.shape()[k];
  }
  for (int k = 0; k < ndb; ++k)
    if (std::find(axes_b.begin(), axes_b.end(), k) == axes_b.end()) {
      perm_b.push_back(k);
      free_b.push_back(b.shape()[k]);
      cols *= b.shape()[k];
    }
  const ndarray at = a.transpose(perm_a).reshape({rows, sum});
  const ndarray bt = b.transpose(perm_b).reshape({sum, cols});
  free_a.insert(free_a.end(), free_b.begin(), free_b.end());
  return matmul(at, bt).reshape(free_a);
}

ndarray kron(const ndarray& a, const ndarray& b) {
  require_arrays(a, b, "kron");
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int nd = std::max(a.ndim(), b.ndim());
  std::vector<i64> sa(nd - a.ndim(), 1), sb(nd - b.ndim(), 1);
  sa.insert(sa.end(), a.shape().begin(), a.shape().end());
  sb.insert(sb.end(), b.shape().begin(), b.shape().end());
  std::vector<i64> ia, ib, result;
  for (int d = 0; d < nd; ++d) {
    ia.insert(ia.end(), {sa[d], 1});
    ib.insert(ib.end(), {1, sb[d]});
    result.push_back(sa[d] * sb[d]);
  }
  return multiply(a.reshape(ia), b.reshape(ib)).reshape(result);
}

ndarray cross(const ndarray& a0, const ndarray& b0, const cross_options& options) {
  require_arrays(a0, b0, "cross");
  const int axisa = options.axis.value_or(options.axisa), axisb = options.axis.value_or(options.axisb);
  const int axisc = options.axis.value_or(options.axisc);
  const ndarray a = a0.moveaxis(axisa, -1), b = b0.moveaxis(axisb, -1);
  // NumPy 2.5: 3-vectors only (the 2-vector form, deprecated in NumPy 2.0, is gone).
  if (a.shape(-1) != 3 || b.shape(-1) != 3)
    throw ValueError("incompatible dimensions for cross product\n(dimension must be 3)");
  const ndarray at = a.moveaxis(-1, 0), bt = b.moveaxis(-1, 0);  // at(i): a[..., i]
  const ndarray a0v = at(0), a1 = at(1), a2 = at(2), b0v = bt(0), b1 = bt(1), b2 = bt(2);
  shape_t shape = broadcast_shapes({shape_t(a0v.shape().begin(), a0v.shape().end()),
                                    shape_t(b0v.shape().begin(), b0v.shape().end())});
  shape.push_back(3);
  const int nd = static_cast<int>(shape.size());
  if (axisc < -nd || axisc >= nd)
    throw AxisError("axisc: axis " + std::to_string(axisc) + " is out of bounds for array of dimension " +
                    std::to_string(nd));
  const ndarray cp = empty(shape, promote_types(a.dtype(), b.dtype()));
  const ndarray ct = cp.moveaxis(-1, 0);
  const ndarray c0 = ct(0), c1 = ct(1), c2 = ct(2);
  // NumPy's order: each component a product into cp, minus the other product.
  multiply(a1, b2, {.out = c0});
  subtract(c0, multiply(a2, b1), {.out = c0});
  multiply(a2, b0v, {.out = c1});
  subtract(c1, multiply(a0v, b2), {.out = c1});
  multiply(a0v, b1, {.out = c2});
  subtract(c2, multiply(a1, b0v), {.out = c2});
  return cp.moveaxis(-1, axisc);
}

}  // namespace cupp
