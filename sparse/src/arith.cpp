// Arithmetic on CSR objects, as SciPy's: the element-wise functions it keeps sparse (on the summed
// values), scalar products and powers, A + B and A - B (the entries of both summed, zeros
// dropped), the element-wise product (entries present in both), `*` by kind, and sum / mean along
// an axis (add.reduceat over each row's run: deterministic).
#include <complex>
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

csr canonical(const csr& a) {
  if (a.has_canonical_format()) return a;
  csr c = a;  // sum_duplicates rebinds c's arrays only
  c.sum_duplicates();
  return c;
}

csr with_values(const csr& a, const ndarray& values) {
  return csr::from_parts(values, a.indices(), a.indptr(), a.shape(), a.kind(), true, true);
}

csr mapped(const csr& a, const ufunc& f) {
  const csr c = canonical(a);
  return with_values(c, f(c.data()));
}

void same_shape(const csr& a, const csr& b) {
  if (a.shape() != b.shape()) throw ValueError("inconsistent shapes");
}

// The entries of A and then of B (rows, columns int64), values cast to t.
detail::entries both(const csr& a, const csr& b, const cupp::dtype& t, bool negate_b) {
  const auto rows = [](const csr& m) { return cupp::astype(detail::expand_ptr(m.indptr(), m.nnz()), int64); };
  const ndarray bd = cupp::astype(b.data(), t);
  return {cupp::concatenate({cupp::astype(a.data(), t), negate_b ? cupp::negative(bd) : bd}),
          cupp::concatenate({rows(a), rows(b)}),
          cupp::concatenate({cupp::astype(a.indices(), int64), cupp::astype(b.indices(), int64)})};
}

csr from_entries(const detail::entries& e, shape2 shape, sparse::kind k) {
  coo c(e.data, coords{e.major, e.minor}, options{.shape = shape});
  csr r = c.tocsr().with_kind(k);
  r.eliminate_zeros();
  return r;
}

sparse::kind kind_of(const csr& a, const csr& b) {
  return a.is_array() || b.is_array() ? kind::array : kind::matrix;
}

// Sums of each major run of a canonical-or-not CSR (rows), as `t`: add.reduceat over the runs,
// empty runs 0. Length = the number of runs.
ndarray run_sums(const csr& a, const cupp::dtype& t) {
  const std::int64_t runs = a.indptr().size() - 1;
  if (a.nnz() == 0 || runs == 0) return cupp::zeros({runs}, t);
  const ndarray values = cupp::concatenate({cupp::astype(a.data(), t), cupp::zeros({1}, t)});
  const ndarray starts = a.indptr()(cupp::slice(std::nullopt, runs));
  const ndarray sums = cupp::add.reduceat(values, starts, {.dtype = t});
  const ndarray empty = cupp::equal(cupp::diff(a.indptr()), 0);
  return cupp::where(empty, cupp::zeros({1}, t), sums);
}

// NumPy's sum dtype of the values: small signed integers and bool give int64, small unsigned uint64.
cupp::dtype sum_dtype(const cupp::dtype& t) {
  if (t == bool_ || t == int8 || t == int16 || t == int32) return int64;
  if (t == uint8 || t == uint16 || t == uint32) return uint64;
  return t;
}

int check_axis(std::optional<int> axis) {
  const int ax = *axis < 0 ? *axis + 2 : *axis;
  if (ax < 0 || ax > 1) throw AxisError("axis " + std::to_string(*axis) + " is out of bounds for array of dimension 2");
  return ax;
}

// Sums along `axis` of a (values cast to t), shaped as SciPy returns them.
ndarray axis_sums(const csr& a, int ax, const cupp::dtype& t) {
  const ndarray s = ax == 1 ? run_sums(a, t) : run_sums(a.tocsc().transpose(), t);
  if (a.is_array()) return s;
  return ax == 1 ? s.reshape({a.shape()[0], 1}) : s.reshape({1, a.shape()[1]});
}

}  // namespace

#define CUPP_SPARSE_UNARY_(name, op) \
  csr name(const csr& a) { return mapped(a, cupp::op); }
CUPP_SPARSE_UNARY_(sin, sin) CUPP_SPARSE_UNARY_(tan, tan) CUPP_SPARSE_UNARY_(arcsin, arcsin)
CUPP_SPARSE_UNARY_(arctan, arctan) CUPP_SPARSE_UNARY_(sinh, sinh) CUPP_SPARSE_UNARY_(tanh, tanh)
CUPP_SPARSE_UNARY_(arcsinh, arcsinh) CUPP_SPARSE_UNARY_(arctanh, arctanh) CUPP_SPARSE_UNARY_(rint, rint)
CUPP_SPARSE_UNARY_(sign, sign) CUPP_SPARSE_UNARY_(expm1, expm1) CUPP_SPARSE_UNARY_(log1p, log1p)
CUPP_SPARSE_UNARY_(deg2rad, deg2rad) CUPP_SPARSE_UNARY_(rad2deg, rad2deg) CUPP_SPARSE_UNARY_(floor, floor)
CUPP_SPARSE_UNARY_(ceil, ceil) CUPP_SPARSE_UNARY_(trunc, trunc) CUPP_SPARSE_UNARY_(sqrt, sqrt)
CUPP_SPARSE_UNARY_(abs, absolute) CUPP_SPARSE_UNARY_(negative, negative)
#undef CUPP_SPARSE_UNARY_

csr power(const csr& a, const weak_scalar& n) {
  const csr c = canonical(a);
  return with_values(c, cupp::power(c.data(), n));
}

csr multiply(const csr& a, const weak_scalar& s) {
  return csr::from_parts(cupp::multiply(a.data(), s), a.indices(), a.indptr(), a.shape(), a.kind(), std::nullopt,
                         std::nullopt);
}

csr true_divide(const csr& a, const weak_scalar& s) {
  const bool complex_scalar = s.scalar_kind() == weak_scalar::kind::complex_;
  if (!complex_scalar && s.real() == 0.0) throw ValueError("division by zero");
  if (complex_scalar && s.real() == 0.0 && s.imag() == 0.0) throw ValueError("complex division by zero");
  // Python's 1 / other: a float, or a complex for a complex scalar
  const weak_scalar inverse = complex_scalar ? weak_scalar(1.0 / std::complex<double>(s.real(), s.imag()))
                                             : weak_scalar(1.0 / s.real());
  const bool to_float64 = !a.dtype().is_complex();  // np.can_cast(dtype, float64)
  const ndarray values = to_float64 ? cupp::astype(a.data(), float64) : a.data();
  return csr::from_parts(cupp::multiply(values, inverse), a.indices(), a.indptr(), a.shape(), a.kind(), std::nullopt,
                         std::nullopt);
}

csr add(const csr& a, const csr& b) {
  same_shape(a, b);
  return from_entries(both(a, b, cupp::promote_types(a.dtype(), b.dtype()), false), a.shape(), kind_of(a, b));
}

csr subtract(const csr& a, const csr& b) {
  same_shape(a, b);
  return from_entries(both(a, b, cupp::promote_types(a.dtype(), b.dtype()), true), a.shape(), kind_of(a, b));
}

csr multiply(const csr& a_in, const csr& b_in) {
  same_shape(a_in, b_in);
  const cupp::dtype t = cupp::promote_types(a_in.dtype(), b_in.dtype());
  const sparse::kind k = kind_of(a_in, b_in);
  const csr a = canonical(a_in), b = canonical(b_in);
  if (a.nnz() == 0 || b.nnz() == 0) return csr(a.shape(), options{.dtype = t}).with_kind(k);
  // Each position is at most once in A and once in B: after a stable sort of A's entries then B's,
  // a product sits where two neighbours share the position (A's value first).
  const detail::entries e = both(a, b, t, false);
  const ndarray order = cupp::lexsort({e.minor, e.major});
  const ndarray rows = cupp::take(e.major, order), cols = cupp::take(e.minor, order), vals = cupp::take(e.data, order);
  const std::int64_t n = rows.size();
  const cupp::slice head(std::nullopt, n - 1), tail(1, std::nullopt);
  const ndarray pair = cupp::flatnonzero(cupp::logical_and(cupp::equal(rows(head), rows(tail)),
                                                           cupp::equal(cols(head), cols(tail))));
  const ndarray next = cupp::add(pair, 1);
  const detail::entries p{cupp::multiply(cupp::take(vals, pair), cupp::take(vals, next)), cupp::take(rows, pair),
                          cupp::take(cols, pair)};
  if (pair.size() == 0) return csr(a.shape(), options{.dtype = t}).with_kind(k);
  return from_entries(p, a.shape(), k);
}

csr operator*(const csr& a, const csr& b) { return a.is_array() ? multiply(a, b) : a.dot(b); }

ndarray sum(const csr& a, std::optional<int> axis) {
  const cupp::dtype t = sum_dtype(a.dtype());
  // no axis: the values with duplicates summed in their own dtype first, as SciPy's _todata (bool
  // duplicates OR-ed)
  if (!axis) return cupp::sum(cupp::astype(canonical(a).data(), t));
  return axis_sums(a, check_axis(axis), t);
}

ndarray mean(const csr& a, std::optional<int> axis) {
  const cupp::dtype t = a.dtype().is_integer() || a.dtype() == bool_ ? float64 : a.dtype();
  // SciPy's mean: the values times the Python float 1.0 / count first (NEP 50: float32 stays
  // float32), then summed
  const auto [m, n] = a.shape();
  const std::int64_t count = !axis ? m * n : check_axis(axis) == 0 ? m : n;
  const double scale = 1.0 / static_cast<double>(count);
  const csr scaled = csr::from_parts(cupp::multiply(cupp::astype(a.data(), t), weak_scalar(scale)), a.indices(),
                                     a.indptr(), a.shape(), a.kind(), std::nullopt, std::nullopt);
  if (!axis) return cupp::sum(scaled.data());
  return axis_sums(scaled, check_axis(axis), t);
}

}  // namespace cupp::sparse
