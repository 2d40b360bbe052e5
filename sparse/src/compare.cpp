// SciPy's comparisons (==, !=, <, <=, >, >=), maximum/minimum and max/min/argmax/argmin on CSR
// objects, and setdiag. Two operands meet on the union of their stored positions: the entries of
// both sorted together (lexsort) and each one's values summed per position (add.reduceat), so a
// position missing from one side reads 0 there, as SciPy's csr_binop_csr. Row reductions run over
// each row's run of a canonical CSR (ufunc.reduceat), the implicit zeros folded in afterwards.
#include <algorithm>
#include <cmath>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/promotion.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/sorting.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace {

const cupp::slice head_of(std::int64_t n) { return cupp::slice(std::nullopt, n - 1); }
const cupp::slice tail_of() { return cupp::slice(1, std::nullopt); }

csr canonical_of(const csr& a) {
  if (a.has_canonical_format()) return a;
  csr c = a;
  c.sum_duplicates();
  return c;
}

sparse::kind kind_of(const csr& a, const csr& b) { return a.is_array() || b.is_array() ? kind::array : kind::matrix; }

// A canonical CSR of entries sorted by (row, column) without duplicates.
csr from_sorted(const detail::entries& e, shape2 shape, sparse::kind k) {
  const cupp::dtype idx = detail::index_dtype_for(std::max({shape[0], shape[1], e.data.size()}));
  return csr::from_parts(e.data, detail::as_index(e.minor, idx),
                         detail::compress_ptr(detail::as_index(e.major, idx), shape[0], idx), shape, k, true, true);
}

// The entries of e where keep (bool, one per entry) is true.
detail::entries where_true(const detail::entries& e, const ndarray& keep) {
  const ndarray at = cupp::flatnonzero(keep);
  return {cupp::take(e.data, at), cupp::take(e.major, at), cupp::take(e.minor, at)};
}

// The union of A's and B's stored positions (sorted, int64) with A's and B's value there (0 where
// one side stores nothing; duplicates summed), both as t.
struct paired {
  ndarray rows, cols, av, bv;
};
paired union_of(const csr& a, const csr& b, const cupp::dtype& t) {
  const auto rows = [](const csr& m) { return cupp::astype(detail::expand_ptr(m.indptr(), m.nnz()), int64); };
  const std::int64_t na = a.nnz(), nb = b.nnz(), n = na + nb;
  if (n == 0) {
    const ndarray none = cupp::empty({0}, int64), v = cupp::empty({0}, t);
    return {none, none, v, v};
  }
  const ndarray r = cupp::concatenate({rows(a), rows(b)});
  const ndarray c = cupp::concatenate({cupp::astype(a.indices(), int64), cupp::astype(b.indices(), int64)});
  const ndarray av = cupp::concatenate({cupp::astype(a.data(), t), cupp::zeros({nb}, t)});
  const ndarray bv = cupp::concatenate({cupp::zeros({na}, t), cupp::astype(b.data(), t)});
  const ndarray order = cupp::lexsort({c, r});
  const ndarray rs = cupp::take(r, order), cs = cupp::take(c, order);
  ndarray starts = cupp::zeros({1}, int64);
  if (n > 1) {
    const ndarray differs = cupp::logical_or(cupp::not_equal(rs(tail_of()), rs(head_of(n))),
                                             cupp::not_equal(cs(tail_of()), cs(head_of(n))));
    starts = cupp::flatnonzero(cupp::concatenate({cupp::ones({1}, bool_), differs}));
  }
  return {cupp::take(rs, starts), cupp::take(cs, starts),
          cupp::add.reduceat(cupp::take(av, order), starts, {.dtype = t}),
          cupp::add.reduceat(cupp::take(bv, order), starts, {.dtype = t})};
}

// A bool CSR that is True everywhere but at the given positions (SciPy's all_true - inv).
csr all_true_but(const ndarray& rows, const ndarray& cols, shape2 shape, sparse::kind k) {
  ndarray dense = cupp::ones({shape[0] * shape[1]}, bool_);
  if (rows.size() > 0) {
    const ndarray flat = cupp::add(cupp::multiply(rows, shape[1]), cols);
    cupp::put(dense, flat, cupp::zeros({flat.size()}, bool_));
  }
  return csr(dense.reshape({shape[0], shape[1]})).with_kind(k);
}

bool holds_for_zeros(const ufunc& op, const cupp::dtype& t, const weak_scalar& s) {
  return op(cupp::zeros({1}, t), s).item<bool>();
}

bool is_nan(const weak_scalar& s) {
  const auto k = s.scalar_kind();
  return (k == weak_scalar::kind::float_ || k == weak_scalar::kind::complex_) &&
         (std::isnan(s.real()) || std::isnan(s.imag()));
}

// op's negation, for SciPy's "use the negated op and then negate".
const ufunc& negated(const ufunc& op) {
  if (&op == &cupp::equal) return cupp::not_equal;
  if (&op == &cupp::not_equal) return cupp::equal;
  if (&op == &cupp::less) return cupp::greater_equal;
  if (&op == &cupp::less_equal) return cupp::greater;
  if (&op == &cupp::greater) return cupp::less_equal;
  return cupp::less;  // greater_equal
}

csr compare(const csr& a, const csr& b, const ufunc& op) {
  if (a.shape() != b.shape()) throw ValueError("inconsistent shape");
  const paired p = union_of(a, b, cupp::promote_types(a.dtype(), b.dtype()));
  const ndarray holds = op(p.av, p.bv);
  const sparse::kind k = kind_of(a, b);
  if (!holds_for_zeros(op, int8, 0)) {  // op(0, 0) is false: only where it holds
    const detail::entries e = where_true({cupp::ones({p.rows.size()}, bool_), p.rows, p.cols}, holds);
    return from_sorted(e, a.shape(), k);
  }
  const detail::entries fails = where_true({p.av, p.rows, p.cols}, cupp::logical_not(holds));
  return all_true_but(fails.major, fails.minor, a.shape(), k);
}

csr compare(const csr& a_in, const weak_scalar& s, const ufunc& op) {
  const bool ne = &op == &cupp::not_equal;
  if (is_nan(s)) {
    if (!ne) return csr(a_in.shape(), options{.dtype = bool_}).with_kind(a_in.kind());
    return all_true_but(cupp::empty({0}, int64), cupp::empty({0}, int64), a_in.shape(), a_in.kind());
  }
  const csr a = canonical_of(a_in);
  const detail::entries e{a.data(), cupp::astype(detail::expand_ptr(a.indptr(), a.nnz()), int64),
                          cupp::astype(a.indices(), int64)};
  if (!holds_for_zeros(op, a.dtype(), s)) {  // SciPy's _scalar_binopt: op on the values, False dropped
    const detail::entries t = where_true({cupp::ones({a.nnz()}, bool_), e.major, e.minor}, op(a.data(), s));
    return from_sorted(t, a.shape(), a.kind());
  }
  const detail::entries fails = where_true(e, negated(op)(a.data(), s));
  return all_true_but(fails.major, fails.minor, a.shape(), a.kind());
}

csr extreme(const csr& a, const csr& b, const ufunc& op) {
  if (a.shape() != b.shape())
    throw ValueError("inconsistent shapes self.shape=(" + std::to_string(a.shape()[0]) + ", " +
                     std::to_string(a.shape()[1]) + ") other.shape=(" + std::to_string(b.shape()[0]) + ", " +
                     std::to_string(b.shape()[1]) + ")");
  const paired p = union_of(a, b, cupp::promote_types(a.dtype(), b.dtype()));
  const ndarray v = op(p.av, p.bv);
  return from_sorted(detail::drop_zeros({v, p.rows, p.cols}), a.shape(), kind_of(a, b));
}

csr extreme(const csr& a_in, const weak_scalar& s, const ufunc& op) {
  if (cupp::astype(op(cupp::zeros({1}, a_in.dtype()), s), bool_).item<bool>())  // beats the zeros: dense
    return csr(op(a_in.toarray(), s)).with_kind(a_in.kind());
  const csr a = canonical_of(a_in);
  const detail::entries e{op(a.data(), s), cupp::astype(detail::expand_ptr(a.indptr(), a.nnz()), int64),
                          cupp::astype(a.indices(), int64)};
  return from_sorted(detail::drop_zeros(e), a.shape(), a.kind());
}

int axis_of(std::optional<int> axis) {
  const int ax = *axis < 0 ? *axis + 2 : *axis;
  if (ax < 0 || ax > 1) throw AxisError("axis " + std::to_string(*axis) + " is out of bounds for array of dimension 2");
  return ax;
}

// The non-empty rows of a canonical CSR r (int64) and their starts: reduceat over these starts
// gives each row exactly its own run (strictly increasing starts, the last run ending at nnz).
struct runs {
  ndarray rows, starts, count;  // count: every row's length (int64)
};
runs runs_of(const csr& r) {
  const ndarray ptr = cupp::astype(r.indptr(), int64);
  const ndarray count = cupp::diff(ptr);
  const ndarray rows = cupp::flatnonzero(count);
  return {rows, cupp::take(ptr, rows), count};
}

// Per row of r: v (one value per non-empty row, in order) scattered, `fill` for the empty rows.
ndarray per_row(const runs& g, const ndarray& v, std::int64_t n_rows, const cupp::dtype& t) {
  ndarray out = cupp::zeros({n_rows}, t);
  if (g.rows.size() > 0) cupp::put(out, g.rows, v);
  return out;
}

// Per row of a canonical CSR r (n_minor columns): op over the row's values with its implicit
// zeros (a row that is not full), 0 for an empty row; the dtype is r's.
ndarray row_extremes(const csr& r, const ufunc& op, std::int64_t n_minor) {
  const std::int64_t rows = r.indptr().size() - 1;
  const cupp::dtype t = r.dtype();
  if (rows == 0) return cupp::empty({0}, t);
  if (r.nnz() == 0) return cupp::zeros({rows}, t);
  const runs g = runs_of(r);
  const ndarray reduced = op.reduceat(r.data(), g.starts, {.dtype = t});
  const ndarray not_full = cupp::less(cupp::take(g.count, g.rows), n_minor);
  const ndarray v = cupp::where(not_full, op(reduced, cupp::zeros({1}, t)), reduced);
  return per_row(g, cupp::astype(v, t), rows, t);
}

// The rows of a along axis 1 (a itself) or axis 0 (A^T's rows: a's CSC arrays), canonical.
csr lines_of(const csr& a, int ax) { return canonical_of(ax == 1 ? a : a.tocsc().transpose()); }

ndarray shaped(const csr& a, const ndarray& v, int ax) {
  if (a.is_array()) return v;
  return ax == 1 ? v.reshape({a.shape()[0], 1}) : v.reshape({1, a.shape()[1]});
}

ndarray min_or_max(const csr& a, std::optional<int> axis, const ufunc& op) {
  if (!axis) {
    if (a.shape()[0] == 0 || a.shape()[1] == 0) throw ValueError("zero-size array to reduction operation");
    const ndarray zero = cupp::zeros({}, a.dtype());
    if (a.nnz() == 0) return zero;
    const csr c = canonical_of(a);
    ndarray m = op.reduce(c.data());
    if (c.nnz() != a.shape()[0] * a.shape()[1]) m = op(zero, m);
    return m;
  }
  const int ax = axis_of(axis);
  if (a.shape()[0] == 0 || a.shape()[1] == 0) throw ValueError("zero-size array to reduction operation");
  const csr r = lines_of(a, ax);
  return shaped(a, row_extremes(r, op, a.shape()[ax]), ax);
}

// SciPy's argmax / argmin of each row of a canonical CSR r (n_minor columns): the column of the
// first extreme value; where the implicit zeros could win (a row that is not full whose extreme
// is not past 0), the first missing column, or the smaller of both when the extreme is 0.
ndarray row_args(const csr& r, const ufunc& op, const ufunc& beats, std::int64_t n_minor) {
  const std::int64_t rows = r.indptr().size() - 1, nnz = r.nnz();
  if (nnz == 0) return cupp::zeros({rows}, int64);
  const cupp::dtype t = r.dtype();
  const runs g = runs_of(r);
  const ndarray cols = cupp::astype(r.indices(), int64);
  const ndarray row = cupp::astype(detail::expand_ptr(r.indptr(), nnz), int64);
  const ndarray ptr = cupp::astype(r.indptr(), int64);
  const ndarray best = op.reduceat(r.data(), g.starts, {.dtype = t});  // per non-empty row
  // every row's extreme, to compare each entry with its own row's
  const ndarray best_of_row = per_row(g, best, rows, t);
  const ndarray at_best = cupp::equal(r.data(), cupp::take(best_of_row, row));
  const ndarray big = cupp::full({1}, n_minor, int64);
  const ndarray best_col = cupp::minimum.reduceat(cupp::where(at_best, cols, big), g.starts, {.dtype = int64});
  // the first missing column: the first position p of the row whose column is not p
  const ndarray count = cupp::take(g.count, g.rows);
  const ndarray pos = cupp::subtract(cupp::arange(nnz, int64), cupp::take(ptr, row));
  const ndarray missing_at = cupp::where(cupp::not_equal(cols, pos), pos, cupp::take(g.count, row));
  const ndarray missing = cupp::minimum.reduceat(missing_at, g.starts, {.dtype = int64});
  const ndarray zero = cupp::zeros({1}, t);
  const ndarray clear = cupp::logical_or(beats(best, zero), cupp::equal(count, n_minor));
  const ndarray tie = cupp::where(cupp::equal(best, zero), cupp::minimum(best_col, missing), missing);
  return per_row(g, cupp::where(clear, best_col, tie), rows, int64);
}

ndarray arg_min_or_max(const csr& a, std::optional<int> axis, const ufunc& op, const ufunc& beats,
                       const std::string& name) {
  const auto [m, n] = a.shape();
  if (axis) {
    const int ax = axis_of(axis);
    if (m == 0 || n == 0) throw ValueError("Cannot apply " + name + " along a zero-sized dimension.");
    return shaped(a, row_args(lines_of(a, ax), op, beats, a.shape()[ax]), ax);
  }
  if (m == 0 || n == 0) throw ValueError("Cannot apply " + name + " to an empty matrix.");
  if (a.nnz() == 0) return cupp::zeros({}, int64);
  // the flattened matrix as one row of m * n columns
  const csr c = canonical_of(a);
  const ndarray flat = cupp::add(cupp::multiply(cupp::astype(detail::expand_ptr(c.indptr(), c.nnz()), int64), n),
                                 cupp::astype(c.indices(), int64));
  const ndarray ptr = cupp::concatenate({cupp::zeros({1}, int64), cupp::full({1}, c.nnz(), int64)});
  const csr one_row = csr::from_parts(c.data(), flat, ptr, {1, m * n}, c.kind(), true, true);
  return row_args(one_row, op, beats, m * n).reshape({});
}

}  // namespace

csr equal(const csr& a, const csr& b) { return compare(a, b, cupp::equal); }
csr not_equal(const csr& a, const csr& b) { return compare(a, b, cupp::not_equal); }
csr less(const csr& a, const csr& b) { return compare(a, b, cupp::less); }
csr less_equal(const csr& a, const csr& b) { return compare(a, b, cupp::less_equal); }
csr greater(const csr& a, const csr& b) { return compare(a, b, cupp::greater); }
csr greater_equal(const csr& a, const csr& b) { return compare(a, b, cupp::greater_equal); }
csr equal(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::equal); }
csr not_equal(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::not_equal); }
csr less(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::less); }
csr less_equal(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::less_equal); }
csr greater(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::greater); }
csr greater_equal(const csr& a, const weak_scalar& s) { return compare(a, s, cupp::greater_equal); }

csr maximum(const csr& a, const csr& b) { return extreme(a, b, cupp::maximum); }
csr minimum(const csr& a, const csr& b) { return extreme(a, b, cupp::minimum); }
csr maximum(const csr& a, const weak_scalar& s) { return extreme(a, s, cupp::maximum); }
csr minimum(const csr& a, const weak_scalar& s) { return extreme(a, s, cupp::minimum); }

ndarray max(const csr& a, std::optional<int> axis) { return min_or_max(a, axis, cupp::maximum); }
ndarray min(const csr& a, std::optional<int> axis) { return min_or_max(a, axis, cupp::minimum); }
ndarray argmax(const csr& a, std::optional<int> axis) {
  return arg_min_or_max(a, axis, cupp::maximum, cupp::greater, "argmax");
}
ndarray argmin(const csr& a, std::optional<int> axis) {
  return arg_min_or_max(a, axis, cupp::minimum, cupp::less, "argmin");
}

// ---- setdiag: the diagonal's old entries dropped, the new ones added, the entries sorted again.
namespace detail {

// (major, minor) entries of a compressed object with diagonal kk = minor - major of an
// (n_major, n_minor) shape set to values (1-D, or 0-d for the whole diagonal), cast to t.
entries set_diagonal(const entries& e, std::int64_t n_major, std::int64_t n_minor, std::int64_t kk,
                     const ndarray& values, const cupp::dtype& t) {
  const std::int64_t length = kk >= 0 ? std::min(n_major, n_minor - kk) : std::min(n_major + kk, n_minor);
  const std::int64_t count = values.ndim() == 0 ? length : std::min(length, values.size());
  if (count <= 0) return sort_entries(e, true);
  const ndarray t_new = cupp::arange(count, int64);
  const ndarray major_new = kk >= 0 ? t_new : cupp::add(t_new, -kk);
  const ndarray minor_new = kk >= 0 ? cupp::add(t_new, kk) : t_new;
  const ndarray v = values.ndim() == 0 ? cupp::full({count}, values, t)
                                       : cupp::astype(values(cupp::slice(std::nullopt, count)), t);
  const ndarray major = cupp::astype(e.major, int64), minor = cupp::astype(e.minor, int64);
  // an old entry stays unless it is on the diagonal within the count set
  const ndarray on = cupp::equal(cupp::subtract(minor, major), kk);
  const ndarray step = kk >= 0 ? major : minor;
  const ndarray replaced = cupp::logical_and(on, cupp::less(step, count));
  const ndarray keep = cupp::flatnonzero(cupp::logical_not(replaced));
  const entries all{cupp::concatenate({cupp::take(cupp::astype(e.data, t), keep), v}),
                    cupp::concatenate({cupp::take(major, keep), major_new}),
                    cupp::concatenate({cupp::take(minor, keep), minor_new})};
  return sort_entries(all, true);
}

}  // namespace detail

namespace {
void check_k(shape2 shape, std::int64_t k) {
  if ((k > 0 && k >= shape[1]) || (k < 0 && -k >= shape[0])) throw ValueError("k exceeds array dimensions");
}
ndarray values_of(const weak_scalar& s, const cupp::dtype& t) { return cupp::full({}, s, t); }
}  // namespace

template <format F>
void compressed<F>::setdiag(const ndarray& values, std::int64_t k) {
  check_k(shape_, k);
  if (values.is_null()) throw ValueError("setdiag: a null array");
  if (values.ndim() > 1) throw ValueError("setdiag: values must be a scalar or 1-D");
  if (shape_[0] == 0 || shape_[1] == 0) return;
  constexpr bool row_major = F == format::csr;
  const std::int64_t n_major = row_major ? shape_[0] : shape_[1], n_minor = row_major ? shape_[1] : shape_[0];
  const detail::entries e{data_, detail::expand_ptr(indptr_, nnz()), indices_};
  const detail::entries s = detail::set_diagonal(e, n_major, n_minor, row_major ? k : -k, values, dtype());
  cupp::dtype idx = indices_.dtype();
  if (s.data.size() > detail::int32_max) idx = int64;
  rebind(s.data, detail::as_index(s.minor, idx), detail::compress_ptr(detail::as_index(s.major, idx), n_major, idx));
  canonical_ = sorted_ = true;
}

template <format F>
void compressed<F>::setdiag(const weak_scalar& value, std::int64_t k) {
  setdiag(values_of(value, dtype()), k);
}

void coo::setdiag(const ndarray& values, std::int64_t k) {
  check_k(shape_, k);
  if (values.is_null()) throw ValueError("setdiag: a null array");
  if (values.ndim() > 1) throw ValueError("setdiag: values must be a scalar or 1-D");
  if (shape_[0] == 0 || shape_[1] == 0) return;
  const detail::entries s = detail::set_diagonal({data_, row_, col_}, shape_[0], shape_[1], k, values, dtype());
  const cupp::dtype idx = row_.dtype();
  data_ = s.data, row_ = detail::as_index(s.major, idx), col_ = detail::as_index(s.minor, idx);
  canonical_ = true;
}

void coo::setdiag(const weak_scalar& value, std::int64_t k) { setdiag(values_of(value, dtype()), k); }

template void compressed<format::csr>::setdiag(const ndarray&, std::int64_t);
template void compressed<format::csc>::setdiag(const ndarray&, std::int64_t);
template void compressed<format::csr>::setdiag(const weak_scalar&, std::int64_t);
template void compressed<format::csc>::setdiag(const weak_scalar&, std::int64_t);

}  // namespace cupp::sparse
