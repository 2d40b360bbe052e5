// cupp::sparse::dia, SciPy's DIA format: data (n_diags, L) with data[i, j] = A[j - offsets[i], j].
// To COO: every (i, j) with j < min(L, N) and 0 <= j - offsets[i] < M, its value nonzero (one
// elementwise pass over the data grid, then flatnonzero and take). From the other formats:
// SciPy's todia, one diagonal per distinct col - row of the summed entries (unique, searchsorted,
// put into a zero grid of width max(col) + 1).
#include <algorithm>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/searching.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace detail {
void check_shape(shape2 s);  // compressed.cpp
ndarray dense_2d(const ndarray& dense, const std::optional<cupp::dtype>& type);
}  // namespace detail

namespace {

// data and offsets of the summed (row, col, value) entries, as SciPy's coo.todia().
std::pair<ndarray, ndarray> diagonals_of(const detail::entries& e, shape2 shape) {
  const cupp::dtype idx = detail::index_dtype_for(std::max(shape[0], shape[1]));
  if (e.data.size() == 0) return {cupp::zeros({0, 0}, e.data.dtype()), cupp::empty({0}, idx)};
  const ndarray row = cupp::astype(e.major, int64), col = cupp::astype(e.minor, int64);
  const ndarray ks = cupp::subtract(col, row);
  const ndarray offsets = cupp::unique(ks);
  const ndarray which = cupp::searchsorted(offsets, ks);
  const std::int64_t width = detail::max_of(col) + 1, n = offsets.size();
  ndarray grid = cupp::zeros({n * width}, e.data.dtype());
  cupp::put(grid, cupp::add(cupp::multiply(which, width), col), e.data);
  return {grid.reshape({n, width}), detail::as_index(offsets, idx)};
}

}  // namespace

dia::dia() : dia(shape2{0, 0}) {}

dia::dia(shape2 shape, const options& opts) {
  detail::check_shape(shape);
  const cupp::dtype t = opts.dtype.value_or(float64);
  detail::require_value_dtype(t);
  shape_ = shape;
  data_ = cupp::zeros({0, 0}, t);
  offsets_ = cupp::empty({0}, detail::index_dtype_for(std::max(shape[0], shape[1])));
}

dia::dia(const ndarray& dense, const options& opts) : dia(coo(detail::dense_2d(dense, opts.dtype))) {}

dia::dia(const ndarray& data, const ndarray& offsets, shape2 shape, const options& opts) {
  if (data.is_null() || offsets.is_null()) throw ValueError("sparse: a null array");
  detail::check_shape(shape);
  ndarray d = opts.dtype && *opts.dtype != data.dtype() ? cupp::astype(data, *opts.dtype) : data;
  if (d.ndim() < 2) d = d.reshape({1, d.size()});  // numpy.atleast_2d
  ndarray off = offsets.ndim() == 0 ? offsets.reshape({1}) : offsets;
  if (off.ndim() != 1) throw ValueError("offsets array must have rank 1");
  if (d.ndim() != 2) throw ValueError("data array must have rank 2");
  if (!off.dtype().is_integer()) throw TypeError("dia offsets must have an integer dtype, not " + off.dtype().name());
  if (d.shape(0) != off.size())
    throw ValueError("number of diagonals (" + std::to_string(d.shape(0)) + ") does not match the number of offsets (" +
                     std::to_string(off.size()) + ")");
  if (off.size() > 1 && cupp::unique(off).size() != off.size())
    throw ValueError("offset array contains duplicate values");
  detail::require_value_dtype(d.dtype());
  d = cupp::ascontiguousarray(d);
  if (opts.copy && d.data() == data.data()) d = d.copy();
  shape_ = shape;
  data_ = d;
  offsets_ = detail::as_index(off, detail::index_dtype_for(std::max(shape[0], shape[1])));
  if (opts.copy && offsets_.data() == offsets.data()) offsets_ = offsets_.copy();
}

dia::dia(const csr& other, const options& opts) : dia(other.tocoo(), opts) {}
dia::dia(const csc& other, const options& opts) : dia(other.tocoo(), opts) {}

dia::dia(const coo& other, const options& opts) {
  coo c = opts.dtype ? other.astype(*opts.dtype) : other.copy();
  c.sum_duplicates();
  auto [data, offsets] = diagonals_of({c.data(), c.row(), c.col()}, c.shape());
  shape_ = c.shape();
  kind_ = c.kind();
  data_ = data, offsets_ = offsets;
}

std::int64_t dia::nnz() const {
  const auto [m, n] = shape_;
  const std::int64_t width = std::min(data_.ndim() == 2 ? data_.shape(1) : 0, n);
  std::int64_t total = 0;
  for (const std::int64_t k : cupp::astype(offsets_, int64).to_vector<std::int64_t>())
    total += std::max<std::int64_t>(std::min(m + k, width) - std::max<std::int64_t>(k, 0), 0);
  return total;
}

dia dia::with_kind(sparse::kind k) const {
  dia d = *this;
  d.kind_ = k;
  return d;
}

dia dia::copy() const {
  dia d = *this;
  d.data_ = data_.copy(), d.offsets_ = offsets_.copy();
  return d;
}

dia dia::astype(cupp::dtype type, bool copy) const {
  if (type == dtype() && !copy) return *this;
  dia d = *this;
  d.data_ = detail::cast_values(data_, type, true);
  d.offsets_ = copy ? offsets_.copy() : offsets_;
  return d;
}

coo dia::tocoo() const {
  const auto [m, n] = shape_;
  const cupp::dtype idx = detail::index_dtype_for(std::max(m, n));
  const std::int64_t diags = offsets_.size(), width = std::min(data_.shape(1), n);
  if (diags == 0 || width <= 0 || m == 0)
    return coo::from_parts(cupp::empty({0}, dtype()), cupp::empty({0}, idx), cupp::empty({0}, idx), shape_, kind_, true);
  const ndarray cols = cupp::arange(width, int64).reshape({1, width});
  const ndarray rows = cupp::subtract(cols, cupp::astype(offsets_, int64).reshape({diags, 1}));  // (diags, width)
  const ndarray values = data_(cupp::slice(), cupp::slice(std::nullopt, width));
  const ndarray keep = cupp::logical_and(cupp::logical_and(cupp::greater_equal(rows, 0), cupp::less(rows, m)),
                                         cupp::not_equal(values, 0));
  const ndarray at = cupp::flatnonzero(keep);
  const ndarray flat_cols = cupp::remainder(at, width);
  return coo::from_parts(cupp::take(values, at), detail::as_index(cupp::take(rows, at), idx),
                         detail::as_index(flat_cols, idx), shape_, kind_, std::nullopt);
}

csr dia::tocsr() const {
  csr c = tocoo().tocsr();
  return c;
}

csc dia::tocsc() const { return tocoo().tocsc(); }

ndarray dia::toarray() const { return tocoo().toarray(); }

ndarray dia::diagonal(std::int64_t k) const {
  const auto [m, n] = shape_;
  if (k <= -m || k >= n) return cupp::empty({0}, dtype());
  return tocoo().diagonal(k);
}

ndarray dia::dot(const ndarray& x, const product_options& opts) const { return tocsr().dot(x, opts); }

dia todia(const csr& a) { return dia(a); }
dia todia(const csc& a) { return dia(a); }
dia todia(const coo& a) { return dia(a); }

}  // namespace cupp::sparse
