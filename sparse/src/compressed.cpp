// cupp::sparse::csr and csc (one template, compressed<F>): construction and its checks (SciPy's
// check_format with full_check), the canonical-form methods, casts, the dense and COO conversions,
// and tocsc/tocsr through own_kernels.hpp's swap_major (CUB's stable radix sort of packed entries,
// cuSPARSE's csr2cscEx2, or cupp's stable argsort; CUPP_SPARSE_TOCSC picks).
#include <algorithm>
#include <mutex>
#include <string>

#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/sorting.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "cupp/indexing.hpp"
#include "cusparse_wrap.hpp"
#include "own_kernels.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace detail {

void check_shape(shape2 s) {
  if (s[0] < 0 || s[1] < 0) throw ValueError("'shape' elements cannot be negative");
}

// A dense argument as a 2-D array (0-d: (1, 1); 1-D: one row), cast to dtype when given.
ndarray dense_2d(const ndarray& dense, const std::optional<cupp::dtype>& type) {
  if (dense.is_null()) throw ValueError("sparse: a null array");
  ndarray d = dense;
  if (d.ndim() == 0) d = d.reshape({1, 1});
  else if (d.ndim() == 1) d = d.reshape({1, d.shape(0)});
  else if (d.ndim() > 2) throw TypeError("expected dimension <= 2 array or matrix");
  if (type && *type != d.dtype()) d = cupp::astype(d, *type);
  require_value_dtype(d.dtype());
  return d;
}

}  // namespace detail

namespace {
constexpr bool is_csr(format f) { return f == format::csr; }
const char* minor_name(format f) { return is_csr(f) ? "column" : "row"; }
std::mutex cache_mutex;
}  // namespace

template <format F>
compressed<F>::compressed() : compressed(shape2{0, 0}) {}

template <format F>
compressed<F>::compressed(shape2 shape, const options& opts) {
  detail::check_shape(shape);
  const cupp::dtype type = opts.dtype ? *opts.dtype : float64;
  detail::require_value_dtype(type);
  const cupp::dtype idx = detail::index_dtype_for(std::max(shape[0], shape[1]));
  shape_ = shape;
  const std::int64_t n_major = is_csr(F) ? shape[0] : shape[1];
  rebind(cupp::empty({0}, type), cupp::empty({0}, idx), cupp::zeros({n_major + 1}, idx));
  canonical_ = sorted_ = true;
}

template <format F>
compressed<F>::compressed(const ndarray& dense, const options& opts) {
  ndarray d = detail::dense_2d(dense, opts.dtype);
  shape_ = {d.shape(0), d.shape(1)};
  if (!is_csr(F)) d = d.transpose();
  const detail::entries e = detail::dense_entries(d);
  const std::int64_t n_major = d.shape(0);
  rebind(e.data, e.minor, detail::compress_ptr(e.major, n_major, e.minor.dtype()));
  canonical_ = sorted_ = true;
}

template <format F>
compressed<F>::compressed(const ndarray& data, const ndarray& indices, const ndarray& indptr, const options& opts) {
  if (data.is_null() || indices.is_null() || indptr.is_null()) throw ValueError("sparse: a null array");
  if (data.ndim() != 1 || indices.ndim() != 1 || indptr.ndim() != 1)
    throw ValueError("data, indices, and indptr should be 1-D");
  shape2 shape{};
  if (opts.shape) {
    shape = *opts.shape;
  } else {
    const std::int64_t n_major = std::max<std::int64_t>(indptr.size() - 1, 0);
    const std::int64_t n_minor = indices.size() > 0 ? detail::max_of(indices) + 1 : 0;
    shape = is_csr(F) ? shape2{n_major, n_minor} : shape2{n_minor, n_major};
  }
  detail::check_shape(shape);
  const std::int64_t n_major = is_csr(F) ? shape[0] : shape[1], n_minor = is_csr(F) ? shape[1] : shape[0];
  const cupp::dtype idx = detail::index_dtype_of({&indices, &indptr}, std::max(shape[0], shape[1]));
  if (indptr.size() != n_major + 1)
    throw ValueError("index pointer size " + std::to_string(indptr.size()) + " should be " + std::to_string(n_major + 1));
  ndarray ptr = cupp::ascontiguousarray(detail::as_index(indptr, idx));
  if (opts.copy && ptr.data() == indptr.data()) ptr = ptr.copy();
  if (ptr(0).item<std::int64_t>() != 0) throw ValueError("index pointer should start with 0");
  if (indices.size() != data.size()) throw ValueError("indices and data should have the same size");
  const std::int64_t last = ptr(n_major).item<std::int64_t>();
  if (last > indices.size())
    throw ValueError("Last value of index pointer should be less than the size of index and data arrays");
  ndarray ind = cupp::ascontiguousarray(detail::as_index(indices, idx));
  if (opts.copy && ind.data() == indices.data()) ind = ind.copy();
  ndarray values = detail::values_as(data, opts.dtype, opts.copy);
  if (last < indices.size()) {  // SciPy's prune()
    ind = ind(cupp::slice(std::nullopt, last)).copy();
    values = values(cupp::slice(std::nullopt, last)).copy();
  }
  if (last > 0) {
    if (detail::max_of(ind) >= n_minor)
      throw ValueError(std::string(minor_name(F)) + " index values must be < " + std::to_string(n_minor));
    if (detail::min_of(ind) < 0) throw ValueError(std::string(minor_name(F)) + " index values must be >= 0");
  }
  if (n_major > 0 && detail::min_of(cupp::diff(ptr)) < 0)
    throw ValueError("index pointer values must form a non-decreasing sequence");
  shape_ = shape;
  rebind(values, ind, ptr);
}

template <format F>
compressed<F>::compressed(const ndarray& data, const coords& ij, const options& opts) {
  const coo c(data, ij, opts);
  if constexpr (is_csr(F)) *this = c.tocsr();
  else *this = c.tocsc();
}

template <format F>
compressed<F>::compressed(const compressed<F == format::csr ? format::csc : format::csr>& other, const options& opts) {
  compressed c = [&] {
    if constexpr (is_csr(F)) return other.tocsr();
    else return other.tocsc();
  }();
  *this = opts.dtype ? c.astype(*opts.dtype, opts.copy) : (opts.copy ? c.copy() : c);
}

template <format F>
compressed<F>::compressed(const coo& other, const options& opts) {
  compressed c = [&] {
    if constexpr (is_csr(F)) return other.tocsr();
    else return other.tocsc();
  }();
  *this = opts.dtype ? c.astype(*opts.dtype, opts.copy) : (opts.copy ? c.copy() : c);
}

template <format F>
void compressed<F>::rebind(ndarray data, ndarray indices, ndarray indptr) {
  data_ = std::move(data), indices_ = std::move(indices), indptr_ = std::move(indptr);
  canonical_.reset(), sorted_.reset();
  // a new cache, made now so that every handle copied from this one (tocsr(), with_kind(), a plain
  // copy) shares it: A.dot(B) multiplies a copy of A's handle, and its SpGEMM reuse state must land
  // in A's cache, not in one the copy made for itself
  auto fresh = std::make_shared<detail::product_cache>();
  std::lock_guard lock(cache_mutex);
  cache_ = std::move(fresh);
}

template <format F>
std::shared_ptr<detail::product_cache> compressed<F>::cache() const {
  std::lock_guard lock(cache_mutex);
  if (!cache_) cache_ = std::make_shared<detail::product_cache>();
  return cache_;
}

template <format F>
compressed<F> compressed<F>::from_parts(ndarray data, ndarray indices, ndarray indptr, shape2 shape, sparse::kind k,
                                        std::optional<bool> canonical, std::optional<bool> sorted) {
  compressed c{no_init{}};
  c.shape_ = shape;
  c.kind_ = k;
  c.rebind(std::move(data), std::move(indices), std::move(indptr));
  c.canonical_ = canonical, c.sorted_ = sorted;
  if (canonical && *canonical) c.sorted_ = true;
  return c;
}

template <format F>
compressed<F> compressed<F>::with_kind(sparse::kind k) const {
  compressed c = *this;
  c.kind_ = k;
  return c;
}

template <format F>
bool compressed<F>::has_canonical_format() const {
  if (!canonical_) {
    const auto [sorted, canonical] = detail::order_of(detail::expand_ptr(indptr_, nnz()), indices_);
    sorted_ = sorted, canonical_ = canonical;
  }
  return *canonical_;
}

template <format F>
bool compressed<F>::has_sorted_indices() const {
  if (!sorted_) has_canonical_format();
  return *sorted_;
}

template <format F>
void compressed<F>::sum_duplicates() {
  if (has_canonical_format()) return;
  const std::int64_t n_major = is_csr(F) ? shape_[0] : shape_[1];
  const detail::entries e =
      detail::sort_entries({data_, detail::expand_ptr(indptr_, nnz()), indices_}, /*sum=*/true);
  rebind(e.data, e.minor, detail::compress_ptr(e.major, n_major, indices_.dtype()));
  canonical_ = sorted_ = true;
}

template <format F>
void compressed<F>::sort_indices() {
  if (has_sorted_indices()) return;
  const detail::entries e =
      detail::sort_entries({data_, detail::expand_ptr(indptr_, nnz()), indices_}, /*sum=*/false);
  ndarray ptr = indptr_;
  rebind(e.data, e.minor, ptr);
  sorted_ = true;
}

template <format F>
void compressed<F>::eliminate_zeros() {
  const detail::entries all{data_, detail::expand_ptr(indptr_, nnz()), indices_};
  const detail::entries e = detail::drop_zeros(all);
  if (e.data.size() == nnz()) return;
  const std::optional<bool> canonical = canonical_ && *canonical_ ? canonical_ : std::nullopt;
  const std::optional<bool> sorted = sorted_ && *sorted_ ? sorted_ : std::nullopt;
  const std::int64_t n_major = is_csr(F) ? shape_[0] : shape_[1];
  rebind(e.data, e.minor, detail::compress_ptr(e.major, n_major, indices_.dtype()));
  canonical_ = canonical, sorted_ = sorted;
}

template <format F>
compressed<F == format::csr ? format::csc : format::csr> compressed<F>::transpose() const {
  return compressed<F == format::csr ? format::csc : format::csr>::from_parts(data_, indices_, indptr_, {shape_[1], shape_[0]},
                                                                         kind_, canonical_, sorted_);
}

template <format F>
compressed<F> compressed<F>::conj() const {
  ndarray d = data_.dtype().is_complex() ? cupp::conjugate(data_) : data_.copy();
  return from_parts(d, indices_.copy(), indptr_.copy(), shape_, kind_, canonical_, sorted_);
}

template <format F>
compressed<F> compressed<F>::copy() const {
  return from_parts(data_.copy(), indices_.copy(), indptr_.copy(), shape_, kind_, canonical_, sorted_);
}

template <format F>
compressed<F> compressed<F>::astype(cupp::dtype type, bool copy) const {
  if (type == dtype() && !copy) return *this;
  return from_parts(detail::cast_values(data_, type, true), copy ? indices_.copy() : indices_,
                    copy ? indptr_.copy() : indptr_, shape_, kind_, canonical_, sorted_);
}

// The entries with duplicates summed (sorted and summed in index order: deterministic), as
// (data, rows, cols).
template <format F>
detail::entries summed_rows_cols(const compressed<F>& a) {
  detail::entries e{a.data(), detail::expand_ptr(a.indptr(), a.nnz()), a.indices()};
  if (!a.has_canonical_format()) e = detail::sort_entries(e, /*sum=*/true);
  return is_csr(F) ? e : detail::entries{e.data, e.minor, e.major};
}

template <format F>
ndarray compressed<F>::diagonal(std::int64_t k) const {
  return detail::diagonal_of(summed_rows_cols(*this), shape_[0], shape_[1], k);
}

template <format F>
std::int64_t compressed<F>::count_nonzero() const {
  if (nnz() == 0) return 0;
  ndarray values = data_;
  if (!has_canonical_format())
    values = detail::sort_entries({data_, detail::expand_ptr(indptr_, nnz()), indices_}, true).data;
  return cupp::count_nonzero(values).item<std::int64_t>();
}

template <format F>
ndarray compressed<F>::toarray() const {
  return detail::scatter_dense(summed_rows_cols(*this), shape_[0], shape_[1]);
}

template <format F>
csr compressed<F>::tocsr(bool copy) const {
  if constexpr (is_csr(F)) {
    return copy ? this->copy() : *this;
  } else {
    const detail::swapped s = detail::swap_major(data_, indices_, indptr_, shape_[1], shape_[0], detail::tocsc_method_from_env());
    return csr::from_parts(s.data, s.indices, s.indptr, shape_, kind_, canonical_, true);
  }
}

template <format F>
csc compressed<F>::tocsc(bool copy) const {
  if constexpr (!is_csr(F)) {
    return copy ? this->copy() : *this;
  } else {
    const detail::swapped s = detail::swap_major(data_, indices_, indptr_, shape_[0], shape_[1], detail::tocsc_method_from_env());
    return csc::from_parts(s.data, s.indices, s.indptr, shape_, kind_, canonical_, true);
  }
}

template <format F>
coo compressed<F>::tocoo(bool copy) const {
  const ndarray major = detail::expand_ptr(indptr_, nnz());
  const ndarray minor = copy ? indices_.copy() : indices_;
  const ndarray values = copy ? data_.copy() : data_;
  if constexpr (is_csr(F)) return coo::from_parts(values, major, minor, shape_, kind_, canonical_);
  else return coo::from_parts(values, minor, major, shape_, kind_, std::nullopt);
}

template <format F>
ndarray compressed<F>::dot(const ndarray& x, const product_options& opts) const {
  if (x.is_null()) throw ValueError("sparse dot: a null array");
  if constexpr (!is_csr(F)) {
    return tocsr().dot(x, opts);
  } else {
    if (x.ndim() == 1) return spmv(*this, x, opts);
    if (x.ndim() == 2) return spmm(*this, x, opts);
    throw ValueError("sparse dot: the dense operand must be 1-D or 2-D");
  }
}

template <format F>
csr compressed<F>::dot(const csr& b) const {
  return spgemm(tocsr(), b);
}

template class compressed<format::csr>;
template class compressed<format::csc>;

}  // namespace cupp::sparse
