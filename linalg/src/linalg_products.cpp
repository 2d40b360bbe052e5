// numpy.linalg's product routines (NumPy 2, the Array API's names): matmul, multi_dot (the
// cheapest parenthesisation by NumPy's matrix-chain order), tensordot, vecdot, outer (1-D only),
// cross (3-vectors only), matrix_power (NumPy's binary decomposition, so the same products in the
// same order), diagonal and matrix_transpose over the last two axes.
#include <limits>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"

namespace cupp::linalg {

namespace {

using i64 = std::int64_t;

// NumPy's _multi_dot_matrix_chain_order: split[i][j] is where the cheapest product of arrays
// i..j splits (Cormen's DP over the chain's dimensions).
std::vector<std::vector<std::size_t>> chain_order(std::span<const ndarray> arrays) {
  const std::size_t n = arrays.size();
  std::vector<double> p;
  for (const ndarray& a : arrays) p.push_back(static_cast<double>(a.shape()[0]));
  p.push_back(static_cast<double>(arrays.back().shape()[1]));
  std::vector<std::vector<double>> m(n, std::vector<double>(n, 0.0));
  std::vector<std::vector<std::size_t>> s(n, std::vector<std::size_t>(n, 0));
  for (std::size_t l = 1; l < n; ++l)
    for (std::size_t i = 0; i + l < n; ++i) {
      const std::size_t j = i + l;
      m[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t k = i; k < j; ++k) {
        const double q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (q < m[i][j]) {
          m[i][j] = q;
          s[i][j] = k;
        }
      }
    }
  return s;
}

ndarray chain(std::span<const ndarray> arrays, const std::vector<std::vector<std::size_t>>& order, std::size_t i,
              std::size_t j, const ndarray& out) {
  if (i == j) return arrays[i];
  return dot(chain(arrays, order, i, order[i][j], {}), chain(arrays, order, order[i][j] + 1, j, {}), out);
}

}  // namespace

ndarray matmul(const ndarray& x1, const ndarray& x2) { return cupp::matmul(x1, x2); }

ndarray multi_dot(std::initializer_list<ndarray> arrays, const ndarray& out) {
  return multi_dot(std::span<const ndarray>(arrays.begin(), arrays.size()), out);
}

ndarray multi_dot(std::span<const ndarray> arrays0, const ndarray& out) {
  const std::size_t n = arrays0.size();
  if (n < 2) throw ValueError("Expecting at least two arrays.");
  for (const ndarray& a : arrays0)
    if (a.is_null()) throw ValueError("multi_dot: a null array");
  if (n == 2) return dot(arrays0[0], arrays0[1], out);
  std::vector<ndarray> arrays(arrays0.begin(), arrays0.end());
  const int first = arrays.front().ndim(), last = arrays.back().ndim();
  if (first == 1) arrays.front() = arrays.front().reshape({1, arrays.front().size()});
  if (last == 1) arrays.back() = arrays.back().reshape({arrays.back().size(), 1});
  for (const ndarray& a : arrays)
    if (a.ndim() != 2)
      throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be two-dimensional");
  ndarray result;
  if (n == 3) {  // NumPy's _multi_dot_three
    const i64 a0 = arrays[0].shape()[0], a1b0 = arrays[0].shape()[1];
    const i64 b1c0 = arrays[2].shape()[0], c1 = arrays[2].shape()[1];
    const double cost1 = static_cast<double>(a0) * static_cast<double>(b1c0) * static_cast<double>(a1b0 + c1);
    const double cost2 = static_cast<double>(a1b0) * static_cast<double>(c1) * static_cast<double>(a0 + b1c0);
    result = cost1 < cost2 ? dot(dot(arrays[0], arrays[1]), arrays[2], out)
                           : dot(arrays[0], dot(arrays[1], arrays[2]), out);
  } else {
    result = chain(arrays, chain_order(arrays), 0, n - 1, out);
  }
  if (first == 1 && last == 1) return result(0, 0);
  if (first == 1 || last == 1) return result.ravel();
  return result;
}

ndarray tensordot(const ndarray& x1, const ndarray& x2, std::int64_t axes) { return cupp::tensordot(x1, x2, axes); }
ndarray tensordot(const ndarray& x1, const ndarray& x2, std::span<const int> axes1, std::span<const int> axes2) {
  return cupp::tensordot(x1, x2, axes1, axes2);
}

ndarray vecdot(const ndarray& x1, const ndarray& x2, int axis) { return cupp::vecdot(x1, x2, {.axis = axis}); }

ndarray outer(const ndarray& x1, const ndarray& x2) {
  if (x1.is_null() || x2.is_null()) throw ValueError("outer: a null array");
  if (x1.ndim() != 1 || x2.ndim() != 1)
    throw ValueError("Input arrays must be one-dimensional, but they are x1.ndim=" + std::to_string(x1.ndim()) +
                     " and x2.ndim=" + std::to_string(x2.ndim()) + ".");
  return cupp::outer(x1, x2);
}

ndarray cross(const ndarray& x1, const ndarray& x2, int axis) {
  if (x1.is_null() || x2.is_null()) throw ValueError("cross: a null array");
  auto length = [axis](const ndarray& x) {
    const int nd = x.ndim();
    if (axis < -nd || axis >= nd)  // NumPy 2.5: an AxisError before the length check
      throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(nd));
    return x.shape()[axis < 0 ? axis + nd : axis];
  };
  const i64 n1 = length(x1), n2 = length(x2);
  if (n1 != 3 || n2 != 3)
    throw ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                     std::to_string(n1) + " and " + std::to_string(n2) + " dimensional instead.");
  return cupp::cross(x1, x2, {.axis = axis});
}

ndarray matrix_power(const ndarray& a, std::int64_t n) {
  if (a.is_null()) throw ValueError("matrix_power: a null array");
  if (a.ndim() < 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  if (a.shape(-1) != a.shape(-2)) throw LinAlgError("Last 2 dimensions of the array must be square");
  if (n == 0) {
    const ndarray r = empty_like(a);
    r.assign(eye(a.shape(-2), std::nullopt, 0, a.dtype()));
    return r;
  }
  if (n < 0) throw ValueError("matrix_power: a negative exponent needs linalg.inv, which cupp does not have yet");
  if (n == 1) return a;
  if (n == 2) return cupp::matmul(a, a);
  if (n == 3) return cupp::matmul(cupp::matmul(a, a), a);
  ndarray z, result;  // NumPy's binary decomposition, bits from the lowest
  while (n > 0) {
    z = z.is_null() ? a : cupp::matmul(z, z);
    const bool bit = n % 2 != 0;
    n /= 2;
    if (bit) result = result.is_null() ? z : cupp::matmul(result, z);
  }
  return result;
}

ndarray diagonal(const ndarray& x, std::int64_t offset) {
  if (x.is_null()) throw ValueError("diagonal: a null array");
  if (x.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  return x.diagonal(offset, -2, -1);
}

ndarray matrix_transpose(const ndarray& x) { return cupp::matrix_transpose(x); }

}  // namespace cupp::linalg
