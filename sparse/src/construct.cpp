// scipy.sparse's constructors eye, identity and diags (and the *_array forms), built as CSR on the
// device: eye directly (arange and clip make its indices and indptr), diags through COO entries
// (zeros dropped and duplicates summed, as SciPy's dia -> csr conversion).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

csr eye(std::int64_t m, std::optional<std::int64_t> n_opt, std::int64_t k, cupp::dtype type) {
  const std::int64_t n = n_opt.value_or(m);
  if (m < 0 || n < 0) throw ValueError("'shape' elements cannot be negative");
  detail::require_value_dtype(type);
  // SciPy 1.18 builds eye through diags_array, which refuses a diagonal outside the shape
  if (std::min(m + k, n - k) < 0)
    throw ValueError("Offset " + std::to_string(k) + " (index 0) out of bounds");
  const std::int64_t length = std::max<std::int64_t>(0, k >= 0 ? std::min(m, n - k) : std::min(m + k, n));
  const std::int64_t row_start = k >= 0 ? 0 : -k, col_start = k >= 0 ? k : 0;
  const cupp::dtype idx = detail::index_dtype_for(std::max({m, n, length}));
  const ndarray data = cupp::ones({length}, type);
  const ndarray indices = cupp::arange(col_start, col_start + length, 1, idx);
  const ndarray steps = cupp::arange(-row_start, m + 1 - row_start, 1, int64);
  const ndarray indptr = detail::as_index(
      cupp::clip(steps, std::optional<operand>(operand(std::int64_t{0})), std::optional<operand>(operand(length))), idx);
  return csr::from_parts(data, indices, indptr, {m, n}, kind::matrix, true, true);
}

csr eye_array(std::int64_t m, std::optional<std::int64_t> n, std::int64_t k, cupp::dtype type) {
  return sparse::eye(m, n, k, type).with_kind(kind::array);
}

csr identity(std::int64_t n, cupp::dtype type) { return sparse::eye(n, n, 0, type); }

namespace {

// np.common_type of the diagonals: integers and bool count as float64.
cupp::dtype common_type(const std::vector<ndarray>& arrays) {
  bool complex = false;
  int bits = 0;
  for (const ndarray& a : arrays) {
    const cupp::dtype t = a.dtype();
    complex = complex || t.is_complex();
    const int b = t.is_complex() ? static_cast<int>(t.itemsize()) * 4 : t.is_floating() ? static_cast<int>(t.itemsize()) * 8 : 64;
    bits = std::max(bits, b);
  }
  if (complex) return bits > 32 ? complex128 : complex64;
  return bits > 32 ? float64 : bits > 16 ? float32 : float16;
}

}  // namespace

csr diags(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets, std::optional<shape2> shape_opt,
          std::optional<cupp::dtype> type_opt) {
  if (diagonals.size() != offsets.size()) throw ValueError("Different number of diagonals and offsets.");
  if (diagonals.empty()) throw ValueError("diags: no diagonals given");
  std::vector<ndarray> diag;
  for (const ndarray& d : diagonals) {
    if (d.is_null()) throw ValueError("diags: a null array");
    if (d.ndim() > 1) throw ValueError("diags: each diagonal must be 1-D");
    diag.push_back(d.ndim() == 0 ? d.reshape({1}) : d);
  }
  const shape2 shape = shape_opt ? *shape_opt
                                 : shape2{diag[0].size() + std::abs(offsets[0]), diag[0].size() + std::abs(offsets[0])};
  const auto [m, n] = shape;
  if (m < 0 || n < 0) throw ValueError("'shape' elements cannot be negative");
  const cupp::dtype type = type_opt ? *type_opt : common_type(diag);
  detail::require_value_dtype(type);
  const std::int64_t smaller = std::min(m, n);
  std::vector<ndarray> values, rows, cols;
  for (std::size_t j = 0; j < diag.size(); ++j) {
    const std::int64_t offset = offsets[j];
    const std::int64_t length = std::min({m + offset, n - offset, smaller});
    if (length < 0) throw ValueError("Offset " + std::to_string(offset) + " (index " + std::to_string(j) + ") out of bounds");
    const std::int64_t given = diag[j].size();
    if (given < length && given != 1)
      throw ValueError("Diagonal length (index " + std::to_string(j) + ": " + std::to_string(given) + " at offset " +
                       std::to_string(offset) + ") does not agree with array size (" + std::to_string(m) + ", " +
                       std::to_string(n) + ").");
    if (length == 0) continue;
    ndarray v = given == 1 ? cupp::broadcast_to(diag[j], std::vector<std::int64_t>{length}).copy()
                           : diag[j](cupp::slice(std::nullopt, length)).copy();
    values.push_back(cupp::astype(v, type));
    const std::int64_t r0 = offset >= 0 ? 0 : -offset, c0 = offset >= 0 ? offset : 0;
    rows.push_back(cupp::arange(r0, r0 + length, 1, int64));
    cols.push_back(cupp::arange(c0, c0 + length, 1, int64));
  }
  if (values.empty()) return csr(shape, options{.dtype = type});
  coo c(cupp::concatenate(values), coords{cupp::concatenate(rows), cupp::concatenate(cols)}, options{.shape = shape});
  c.eliminate_zeros();
  return c.tocsr();
}

csr diags_array(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets,
                std::optional<shape2> shape, std::optional<cupp::dtype> type) {
  return diags(diagonals, offsets, shape, type).with_kind(kind::array);
}

}  // namespace cupp::sparse
