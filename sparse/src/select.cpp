// Row and column selection on CSR and CSC (SciPy's A[i], A[i:j:s], A[[...]], A[:, ...]): an
// index of one axis becomes an int64 array of positions (bounds checked, negatives wrapped, as
// SciPy's _validate_indices); whole major lines are gathered by an indptr scan (each output entry
// finds its source through the expanded indptr), and the minor axis is selected as the major one
// of the other format. Two index arrays pick point-wise pairs (SciPy's A[rows, cols]): one
// binary search per pair among the sorted keys major * n_minor + minor of the canonical entries.
#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace detail {

slice_range range_of(const cupp::slice& s, std::int64_t n) {
  const std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  // Python's slice.indices(n): negatives count from the end, then clamp to [0, n] (step > 0) or
  // [-1, n - 1] (step < 0); a missing bound is the start or end of the walk
  const auto clamp = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    const std::int64_t x = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<std::int64_t>(x, 0, n) : std::clamp<std::int64_t>(x, -1, n - 1);
  };
  const std::int64_t start = clamp(s.start, step > 0 ? 0 : n - 1), stop = clamp(s.stop, step > 0 ? n : -1);
  const std::int64_t count = step > 0 ? std::max<std::int64_t>(0, (stop - start + step - 1) / step)
                                      : std::max<std::int64_t>(0, (start - stop - step - 1) / -step);
  return {count == 0 ? 0 : start, step, count};
}

}  // namespace detail

namespace {

ndarray slice_positions(const cupp::slice& s, std::int64_t n) {
  const detail::slice_range r = detail::range_of(s, n);
  if (r.count == 0) return cupp::empty({0}, int64);
  return cupp::arange(r.start, r.start + r.count * r.step, r.step, int64);
}

// An integer index array as int64 positions on an axis of length n: bounds checked (SciPy's
// IndexError) and negatives wrapped.
ndarray wrapped_positions(const ndarray& a, std::int64_t n) {
  if (!a.dtype().is_integer()) throw IndexError("invalid index");
  ndarray p = cupp::astype(a, int64);
  if (p.size() == 0) return p;
  const std::int64_t hi = detail::max_of(p), lo = detail::min_of(p);
  if (hi >= n) throw IndexError("index (" + std::to_string(hi) + ") out of range");
  if (lo < -n) throw IndexError("index (" + std::to_string(lo) + ") out of range");
  if (lo < 0) p = cupp::where(cupp::less(p, 0), cupp::add(p, n), p);
  return p;
}

// The positions an index picks on an axis of length n; nullopt for everything.
std::optional<ndarray> positions(const index& ix, std::int64_t n) {
  switch (ix.kind) {
    case index::what::all:
      return std::nullopt;
    case index::what::integer: {
      if (ix.i < -n || ix.i >= n) throw IndexError("index (" + std::to_string(ix.i) + ") out of range");
      return cupp::full({1}, ix.i < 0 ? ix.i + n : ix.i, int64);
    }
    case index::what::slice:
      return slice_positions(ix.s, n);
    case index::what::array:
      break;
  }
  const ndarray& a = ix.a;
  if (a.is_null()) throw IndexError("invalid index");
  if (a.ndim() != 1) throw IndexError("Index dimension must be 1 or 2. Got " + std::to_string(a.ndim()));
  if (a.dtype() == bool_) {
    if (a.size() != n)
      throw IndexError("bool index 0 has shape (" + std::to_string(n) + ",) instead of (" + std::to_string(a.size()) +
                       ",)");
    return cupp::flatnonzero(a);
  }
  return wrapped_positions(a, n);
}

struct lines {
  ndarray data, indices, indptr;
};

// The major lines r (int64 positions) of compressed arrays, in r's order.
lines gather(const ndarray& data, const ndarray& indices, const ndarray& indptr, const ndarray& r) {
  const cupp::dtype idx = indices.dtype();
  const ndarray ptr = cupp::astype(indptr, int64);
  const ndarray counts = cupp::take(cupp::diff(ptr), r);
  const ndarray out_ptr = cupp::concatenate({cupp::zeros({1}, int64), cupp::cumsum(counts, {.dtype = int64})});
  const std::int64_t nnz = out_ptr(r.size()).item<std::int64_t>();
  const cupp::dtype out_idx = nnz > detail::int32_max ? int64 : idx;
  if (nnz == 0) return {cupp::empty({0}, data.dtype()), cupp::empty({0}, out_idx), detail::as_index(out_ptr, out_idx)};
  const ndarray q = detail::expand_ptr(out_ptr, nnz);
  const ndarray src = cupp::add(cupp::take(ptr, cupp::take(r, q)),
                                cupp::subtract(cupp::arange(nnz, int64), cupp::take(out_ptr, q)));
  return {cupp::take(data, src), detail::as_index(cupp::take(indices, src), out_idx), detail::as_index(out_ptr, out_idx)};
}

// A's lines r as a compressed object of the same format (n_minor kept).
template <format F>
compressed<F> major_select(const compressed<F>& a, const ndarray& r) {
  const lines l = gather(a.data(), a.indices(), a.indptr(), r);
  const shape2 shape = F == format::csr ? shape2{r.size(), a.shape()[1]} : shape2{a.shape()[0], r.size()};
  return compressed<F>::from_parts(l.data, l.indices, l.indptr, shape, a.kind(), std::nullopt, std::nullopt);
}

// One array of a point-wise pair (1-D or 2-D integer; a 1-D bool mask as its positions),
// as int64 positions on an axis of length n, bounds checked and negatives wrapped.
ndarray point_positions(const ndarray& a, std::int64_t n) {
  if (a.is_null()) throw IndexError("invalid index");
  if (a.ndim() < 1 || a.ndim() > 2) throw IndexError("Index dimension must be 1 or 2. Got " + std::to_string(a.ndim()));
  if (a.dtype() == bool_) {
    if (a.ndim() != 1) throw IndexError("invalid index");
    return *positions(index(a), n);
  }
  return wrapped_positions(a, n);
}

// A[rows, cols] point-wise: the values (duplicates summed, implicit zeros 0) in the broadcast shape
// of the two index arrays. The entries' keys major * n_minor + minor are sorted in a canonical
// object, so each pair is one binary search (searchsorted).
template <format F>
ndarray point_values(const compressed<F>& a_in, const ndarray& rows, const ndarray& cols) {
  const auto [m, n] = a_in.shape();
  const ndarray r = point_positions(rows, m), c = point_positions(cols, n);
  // NumPy's ValueError for shapes that do not broadcast (SciPy broadcasts with np.broadcast_arrays)
  const std::array<ndarray, 2> pair{r, c};
  const std::vector<ndarray> both = cupp::broadcast_arrays(pair);
  std::vector<std::int64_t> shape(both[0].shape().begin(), both[0].shape().end());
  constexpr bool row_major = F == format::csr;
  const std::int64_t n_major = row_major ? m : n, n_minor = row_major ? n : m;
  if (n_minor != 0 && n_major > INT64_MAX / n_minor) throw ValueError("Maximum allowed size exceeded");  // the keys
  const ndarray q_major = cupp::ascontiguousarray(both[row_major ? 0 : 1]).reshape({-1});
  const ndarray q_minor = cupp::ascontiguousarray(both[row_major ? 1 : 0]).reshape({-1});
  compressed<F> a = a_in;
  if (!a.has_canonical_format()) {
    a = a_in.copy();
    a.sum_duplicates();
  }
  if (a.nnz() == 0 || q_major.size() == 0) return cupp::zeros(shape, a.dtype());
  const ndarray keys = cupp::add(cupp::multiply(cupp::astype(detail::expand_ptr(a.indptr(), a.nnz()), int64), n_minor),
                                 cupp::astype(a.indices(), int64));
  const ndarray q = cupp::add(cupp::multiply(q_major, n_minor), q_minor);
  const ndarray at = cupp::minimum(cupp::searchsorted(keys, q), a.nnz() - 1);
  const ndarray found = cupp::equal(cupp::take(keys, at), q);
  const ndarray values = cupp::where(found, cupp::take(a.data(), at), cupp::zeros({1}, a.dtype()));
  return cupp::astype(values, a.dtype()).reshape(shape);
}

template <format F>
ndarray select_values_any(const compressed<F>& a, const ndarray& rows, const ndarray& cols) {
  ndarray v = point_values(a, rows, cols);
  // SciPy's _ascontainer: np.matrix (2-D) for a *_matrix
  if (v.ndim() < 2 && !a.is_array()) v = v.reshape({1, v.size()});
  return v;
}

template <format F>
compressed<F> select_any(const compressed<F>& a, const index& rows, const index& cols) {
  if (rows.kind == index::what::array && cols.kind == index::what::array) {
    // SciPy gives a sparse result for 2-D index arrays, the dense values for 1-D ones (select_values);
    // here a sparse object either way, (1, n) for 1-D
    ndarray v = point_values(a, rows.a, cols.a);
    if (v.ndim() < 2) v = v.reshape({1, v.size()});
    return compressed<F>(v).with_kind(a.kind());
  }
  constexpr bool row_major = F == format::csr;
  const std::optional<ndarray> major = positions(row_major ? rows : cols, a.shape()[row_major ? 0 : 1]);
  const std::optional<ndarray> minor = positions(row_major ? cols : rows, a.shape()[row_major ? 1 : 0]);
  compressed<F> out = major ? major_select(a, *major) : a;
  if (minor) {
    // the minor axis is the other format's major one
    if constexpr (row_major) out = major_select(out.tocsc(), *minor).tocsr();
    else out = major_select(out.tocsr(), *minor).tocsc();
  }
  return out;
}

}  // namespace

csr select(const csr& a, const index& rows, const index& cols) { return select_any(a, rows, cols); }
ndarray select_values(const csr& a, const ndarray& rows, const ndarray& cols) { return select_values_any(a, rows, cols); }
ndarray select_values(const csc& a, const ndarray& rows, const ndarray& cols) { return select_values_any(a, rows, cols); }
csc select(const csc& a, const index& rows, const index& cols) { return select_any(a, rows, cols); }

}  // namespace cupp::sparse
