// cupp::sparse::coo: construction from dense, (data, (row, col)) (checked as SciPy's _check, with
// its messages) and the compressed formats; canonical form (sorted by row, then column, duplicates
// summed); conversions to CSR and CSC, which sum duplicates as SciPy's do.
#include <algorithm>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace detail {
void check_shape(shape2 s);
entries summed(const coo& a);
ndarray dense_2d(const ndarray& dense, const std::optional<cupp::dtype>& type);
}  // namespace detail

coo::coo() : coo(shape2{0, 0}) {}

coo::coo(shape2 shape, const options& opts) {
  detail::check_shape(shape);
  const cupp::dtype type = opts.dtype ? *opts.dtype : float64;
  detail::require_value_dtype(type);
  const cupp::dtype idx = detail::index_dtype_for(std::max(shape[0], shape[1]));
  shape_ = shape;
  data_ = cupp::empty({0}, type), row_ = cupp::empty({0}, idx), col_ = cupp::empty({0}, idx);
  canonical_ = true;
}

coo::coo(const ndarray& dense, const options& opts) {
  const ndarray d = detail::dense_2d(dense, opts.dtype);
  shape_ = {d.shape(0), d.shape(1)};
  const detail::entries e = detail::dense_entries(d);
  data_ = e.data, row_ = e.major, col_ = e.minor;
  canonical_ = true;
}

coo::coo(const ndarray& data, const coords& ij, const options& opts) {
  if (data.is_null() || ij.row.is_null() || ij.col.is_null()) throw ValueError("sparse: a null array");
  if (data.ndim() != 1 || ij.row.ndim() != 1 || ij.col.ndim() != 1)
    throw ValueError("row, column, and data arrays must be 1-D");
  if (ij.row.size() != data.size() || ij.col.size() != data.size())
    throw ValueError("all index and data arrays must have the same length");
  const std::int64_t nnz = data.size();
  shape2 shape{};
  if (opts.shape) {
    shape = *opts.shape;
  } else {
    if (nnz == 0) throw ValueError("cannot infer dimensions from zero sized index arrays");
    shape = {detail::max_of(ij.row) + 1, detail::max_of(ij.col) + 1};
  }
  detail::check_shape(shape);
  const cupp::dtype idx = detail::index_dtype_of({&ij.row, &ij.col}, std::max(shape[0], shape[1]));
  ndarray row = cupp::ascontiguousarray(detail::as_index(ij.row, idx));
  ndarray col = cupp::ascontiguousarray(detail::as_index(ij.col, idx));
  if (opts.copy && row.data() == ij.row.data()) row = row.copy();
  if (opts.copy && col.data() == ij.col.data()) col = col.copy();
  const ndarray* axes[2] = {&row, &col};
  if (nnz > 0) {
    for (int axis = 0; axis < 2; ++axis) {
      const std::int64_t hi = detail::max_of(*axes[axis]), lo = detail::min_of(*axes[axis]);
      if (hi >= shape[axis])
        throw ValueError("axis " + std::to_string(axis) + " index " + std::to_string(hi) +
                         " exceeds matrix dimension " + std::to_string(shape[axis]));
      if (lo < 0) throw ValueError("negative axis " + std::to_string(axis) + " index: " + std::to_string(lo));
    }
  }
  shape_ = shape;
  data_ = detail::values_as(data, opts.dtype, opts.copy), row_ = row, col_ = col;
}

coo::coo(const csr& other, const options& opts) {
  const coo c = other.tocoo(opts.copy);
  *this = opts.dtype ? c.astype(*opts.dtype, false) : c;
}

coo::coo(const csc& other, const options& opts) {
  const coo c = other.tocoo(opts.copy);
  *this = opts.dtype ? c.astype(*opts.dtype, false) : c;
}

coo coo::from_parts(ndarray data, ndarray row, ndarray col, shape2 shape, sparse::kind k,
                    std::optional<bool> canonical) {
  coo c{no_init{}};
  c.data_ = std::move(data), c.row_ = std::move(row), c.col_ = std::move(col);
  c.shape_ = shape, c.kind_ = k, c.canonical_ = canonical;
  return c;
}

coo coo::with_kind(sparse::kind k) const {
  coo c = *this;
  c.kind_ = k;
  return c;
}

bool coo::has_canonical_format() const {
  if (!canonical_) canonical_ = detail::order_of(row_, col_).second;
  return *canonical_;
}

void coo::sum_duplicates() {
  if (has_canonical_format()) return;
  const detail::entries e = detail::sort_entries({data_, row_, col_}, true);
  data_ = e.data, row_ = e.major, col_ = e.minor;
  canonical_ = true;
}

void coo::eliminate_zeros() {
  const detail::entries e = detail::drop_zeros({data_, row_, col_});
  if (e.data.size() == nnz()) return;
  data_ = e.data, row_ = e.major, col_ = e.minor;
  if (canonical_ && !*canonical_) canonical_.reset();
}

coo coo::transpose() const { return from_parts(data_, col_, row_, {shape_[1], shape_[0]}, kind_, std::nullopt); }

coo coo::conj() const {
  ndarray d = data_.dtype().is_complex() ? cupp::conjugate(data_) : data_.copy();
  return from_parts(d, row_.copy(), col_.copy(), shape_, kind_, canonical_);
}

coo coo::copy() const { return from_parts(data_.copy(), row_.copy(), col_.copy(), shape_, kind_, canonical_); }

coo coo::astype(cupp::dtype type, bool copy) const {
  if (type == dtype() && !copy) return *this;
  return from_parts(detail::cast_values(data_, type, true), copy ? row_.copy() : row_, copy ? col_.copy() : col_,
                    shape_, kind_, canonical_);
}

// The entries with duplicates summed in index order (deterministic; ufunc.at's float atomics
// are not).
detail::entries detail::summed(const coo& a) {
  detail::entries e{a.data(), a.row(), a.col()};
  return a.has_canonical_format() ? e : detail::sort_entries(e, /*sum=*/true);
}

ndarray coo::diagonal(std::int64_t k) const { return detail::diagonal_of(detail::summed(*this), shape_[0], shape_[1], k); }

std::int64_t coo::count_nonzero() const {
  if (nnz() == 0) return 0;
  const ndarray values = has_canonical_format() ? data_ : detail::sort_entries({data_, row_, col_}, true).data;
  return cupp::count_nonzero(values).item<std::int64_t>();
}

ndarray coo::toarray() const { return detail::scatter_dense(detail::summed(*this), shape_[0], shape_[1]); }

csr coo::tocsr(bool copy) const {
  const cupp::dtype idx = detail::index_dtype_for(std::max({shape_[0], shape_[1], nnz()}));
  detail::entries e{data_, row_, col_};
  if (!has_canonical_format()) e = detail::sort_entries(e, true);
  else if (copy) e = {data_.copy(), row_, col_.copy()};
  const ndarray major = detail::as_index(e.major, idx);
  return csr::from_parts(e.data, detail::as_index(e.minor, idx), detail::compress_ptr(major, shape_[0], idx), shape_,
                         kind_, true, true);
}

csc coo::tocsc(bool copy) const {
  const cupp::dtype idx = detail::index_dtype_for(std::max({shape_[0], shape_[1], nnz()}));
  detail::entries e = detail::sort_entries({data_, col_, row_}, true);
  if (copy && e.data.data() == data_.data()) e.data = e.data.copy();
  const ndarray major = detail::as_index(e.major, idx);
  ndarray minor = detail::as_index(e.minor, idx);
  if (copy && minor.data() == row_.data()) minor = minor.copy();
  return csc::from_parts(e.data, minor, detail::compress_ptr(major, shape_[1], idx), shape_, kind_, true, true);
}

ndarray coo::dot(const ndarray& x, const product_options& opts) const { return tocsr().dot(x, opts); }

}  // namespace cupp::sparse
