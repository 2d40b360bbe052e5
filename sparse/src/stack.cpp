// scipy.sparse's block constructors and triangles on CSR operands: vstack (the blocks' arrays
// concatenated, indptr offset by the nnz before), hstack (vstack of the transposes), block_diag,
// kron (every pair of entries, on the device: repeat and tile) and tril / triu (a mask on the
// entries). Results are CSR (SciPy's default is coo or bsr; docs/deviations.md), of the array
// kind when any operand is, with duplicates summed.
#include <algorithm>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/promotion.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace {

sparse::kind kind_of(const std::vector<csr>& blocks) {
  for (const csr& b : blocks)
    if (b.is_array()) return kind::array;
  return kind::matrix;
}

cupp::dtype common_dtype(const std::vector<csr>& blocks, const std::optional<cupp::dtype>& type) {
  if (type) return *type;
  cupp::dtype t = blocks.front().dtype();
  for (const csr& b : blocks) t = cupp::promote_types(t, b.dtype());
  return t;
}

// The (data, row, col) entries of a CSR object, rows and columns as int64.
detail::entries entries64(const csr& a) {
  return {a.data(), cupp::astype(detail::expand_ptr(a.indptr(), a.nnz()), int64), cupp::astype(a.indices(), int64)};
}

// A CSR object (duplicates summed) of int64 entries in any order.
csr from_entries(const ndarray& data, const ndarray& row, const ndarray& col, shape2 shape, sparse::kind k) {
  return coo(data, coords{row, col}, options{.shape = shape}).tocsr().with_kind(k);
}

}  // namespace

csr vstack(const std::vector<csr>& blocks, std::optional<cupp::dtype> type) {
  if (blocks.empty()) throw ValueError("blocks must not be empty");
  const std::int64_t cols = blocks.front().shape()[1];
  std::int64_t rows = 0, nnz = 0;
  for (const csr& b : blocks) {
    if (b.shape()[1] != cols) throw ValueError("incompatible dimensions for axis 1");
    rows += b.shape()[0], nnz += b.nnz();
  }
  const cupp::dtype t = common_dtype(blocks, type);
  detail::require_value_dtype(t);
  const cupp::dtype idx = detail::index_dtype_for(std::max({rows, cols, nnz}));
  std::vector<ndarray> data, indices, indptr{cupp::zeros({1}, idx)};
  std::int64_t offset = 0;
  for (const csr& b : blocks) {
    data.push_back(cupp::astype(b.data(), t));
    indices.push_back(detail::as_index(b.indices(), idx));
    const ndarray tail = detail::as_index(b.indptr()(cupp::slice(1, std::nullopt)), idx);
    indptr.push_back(offset == 0 ? cupp::ascontiguousarray(tail) : cupp::add(tail, offset));
    offset += b.nnz();
  }
  return csr::from_parts(cupp::concatenate(data), cupp::concatenate(indices), cupp::concatenate(indptr), {rows, cols},
                         kind_of(blocks), std::nullopt, std::nullopt);
}

csr hstack(const std::vector<csr>& blocks, std::optional<cupp::dtype> type) {
  if (blocks.empty()) throw ValueError("blocks must not be empty");
  std::vector<csr> transposed;
  for (const csr& b : blocks) {
    if (b.shape()[0] != blocks.front().shape()[0]) throw ValueError("incompatible dimensions for axis 0");
    transposed.push_back(b.tocsc().transpose());  // the CSC arrays read as the transpose's CSR
  }
  return vstack(transposed, type).transpose().tocsr().with_kind(kind_of(blocks));
}

csr block_diag(const std::vector<csr>& blocks, std::optional<cupp::dtype> type) {
  if (blocks.empty()) throw ValueError("blocks must not be empty");
  const cupp::dtype t = common_dtype(blocks, type);
  detail::require_value_dtype(t);
  std::vector<ndarray> data, rows, cols;
  std::int64_t r0 = 0, c0 = 0;
  for (const csr& b : blocks) {
    const detail::entries e = entries64(b);
    data.push_back(cupp::astype(e.data, t));
    rows.push_back(cupp::add(e.major, r0));
    cols.push_back(cupp::add(e.minor, c0));
    r0 += b.shape()[0], c0 += b.shape()[1];
  }
  return from_entries(cupp::concatenate(data), cupp::concatenate(rows), cupp::concatenate(cols), {r0, c0},
                      kind_of(blocks));
}

csr kron(const csr& a, const csr& b) {
  const auto [ma, na] = a.shape();
  const auto [mb, nb] = b.shape();
  const shape2 shape{ma * mb, na * nb};
  const cupp::dtype t = cupp::promote_types(a.dtype(), b.dtype());
  const sparse::kind k = a.is_array() || b.is_array() ? kind::array : kind::matrix;
  if (a.nnz() == 0 || b.nnz() == 0) return csr(shape, options{.dtype = t}).with_kind(k);
  const detail::entries ea = entries64(a), eb = entries64(b);
  const std::int64_t na_nnz = a.nnz(), nb_nnz = b.nnz();
  const ndarray rows = cupp::add(cupp::multiply(cupp::repeat(ea.major, nb_nnz), mb), cupp::tile(eb.major, na_nnz));
  const ndarray cols = cupp::add(cupp::multiply(cupp::repeat(ea.minor, nb_nnz), nb), cupp::tile(eb.minor, na_nnz));
  const ndarray data = cupp::multiply(cupp::astype(cupp::repeat(ea.data, nb_nnz), t), cupp::astype(cupp::tile(eb.data, na_nnz), t));
  return from_entries(data, rows, cols, shape, k);
}

namespace {
csr triangle(const csr& a, std::int64_t k, bool lower) {
  const detail::entries e = entries64(a);
  if (a.nnz() == 0) return a.copy();
  // tril keeps col - row <= k, triu col - row >= k (SciPy's masks)
  const ndarray offset = cupp::subtract(e.minor, e.major);
  const ndarray keep = cupp::flatnonzero(lower ? cupp::less_equal(offset, k) : cupp::greater_equal(offset, k));
  return from_entries(cupp::take(e.data, keep), cupp::take(e.major, keep), cupp::take(e.minor, keep), a.shape(),
                      a.kind());
}
}  // namespace

csr tril(const csr& a, std::int64_t k) { return triangle(a, k, true); }
csr triu(const csr& a, std::int64_t k) { return triangle(a, k, false); }

}  // namespace cupp::sparse
