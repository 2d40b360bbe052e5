// The implementation of cupp/searching.hpp, part two: unique and NumPy 2's unique_* forms, isin /
// in1d and the set routines. Each sorts first (cupp/sorting.hpp: sort, or the stable argsort when
// indices are wanted), then one kernel of the searching program flags neighbours (unique: differs
// from the one before, NaNs collapsed with equal_nan; intersect1d: equals the next; setxor1d:
// differs from both) and flatnonzero + take compact; isin binary-searches the sorted test values.
// unique with an axis lexsorts the sub-arrays as rows (one key per column) and flags rows.
#include <algorithm>
#include <string>
#include <vector>

#include "array/layout.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "cupp/ufunc.hpp"
#include "routines/searching/searching_kernels.hpp"

namespace cupp {

using namespace search_detail;

namespace {

void require_numeric(const dtype& type, std::string_view routine) {
  if (!type.is_builtin())
    throw TypeError(std::string(routine) + ": dtype " + type.name() + " is not supported (a numeric or bool dtype is needed)");
}

ndarray flat(const ndarray& a) { return flat_as(a, a.dtype()); }
ndarray vec(std::int64_t n, dtype type) { return empty(std::span<const std::int64_t>(&n, 1), type); }

// A sorted flat copy of a (C-contiguous).
ndarray sorted_flat(const ndarray& a) { return flat(sort(flat(a), 0)); }

// The flag kernel `k` over the sorted `aux` (flag_len flags).
ndarray flags(kernel_id k, const ndarray& aux, std::int64_t flag_len, int equal_nan = 0) {
  ndarray f = vec(flag_len, bool_);
  if (flag_len <= 0) return f;
  const int device = aux.device();
  const detail::kernel_module& m = program_for(aux.dtype(), device);
  const void* ap = aux.data();
  long long n = aux.size();
  void* fp = f.data();
  if (k == k_unique_flags) {
    void* args[] = {&ap, &n, &fp, &equal_nan};
    launch(m, k, n, args, device);
  } else {
    void* args[] = {&ap, &n, &fp};
    launch(m, k, n, args, device);
  }
  return f;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// unique

namespace {

// The inverse (inv[perm[i]] = cumsum(mask)[i] - 1) and the counts (run lengths between the
// positions of the true flags) of a sorted sequence of n items.
ndarray unique_inverse_of(const ndarray& perm, const ndarray& mask, std::int64_t n, int device) {
  const ndarray imask = flat(subtract(cumsum(mask, {.dtype = int64}), 1));
  ndarray inv = vec(n, int64);
  const detail::kernel_module& m = program_for(int64, device);
  const void* pp = perm.data();
  const void* ip = imask.data();
  long long nn = n;
  void* op = inv.data();
  void* args[] = {&pp, &ip, &nn, &op};
  launch(m, k_scatter, n, args, device);
  return inv;
}

ndarray unique_counts_of(const ndarray& pos, std::int64_t n, int device) {
  const std::int64_t mcount = pos.size();
  ndarray counts = vec(mcount, int64);
  if (mcount == 0) return counts;
  const detail::kernel_module& m = program_for(int64, device);
  const void* pp = pos.data();
  long long mm = mcount, nn = n;
  void* op = counts.data();
  void* args[] = {&pp, &mm, &nn, &op};
  launch(m, k_run_counts, mcount, args, device);
  return counts;
}

// numpy.unique(ar, axis=k): the sub-arrays along the axis as the rows of an (n, m) C-order array.
unique_result unique_along_axis(const ndarray& ar, int axis_in, const unique_options& o) {
  const int axis = layout::normalize_axis(axis_in, ar.ndim());  // AxisError (a 0-d ar included)
  const ndarray moved = ar.moveaxis(axis, 0);
  const std::int64_t n = moved.shape(0);
  std::int64_t m = 1;
  for (int d = 1; d < moved.ndim(); ++d) m *= moved.shape(d);
  std::vector<std::int64_t> rest(moved.shape().begin() + 1, moved.shape().end());
  unique_result r;
  if (n == 0) {
    r.values = empty(ar.shape(), ar.dtype());
    if (o.return_index) r.index = vec(0, int64);
    if (o.return_inverse) r.inverse = vec(0, int64);
    if (o.return_counts) r.counts = vec(0, int64);
    return r;
  }
  const std::int64_t shape2[] = {n, m};
  const ndarray rows = ascontiguousarray(moved).reshape(shape2);
  // Stable: equal rows keep their order, so the first occurrence leads its run (return_index).
  ndarray perm;
  if (n == 1 || m == 0) {
    perm = arange(n);
  } else {
    std::vector<ndarray> keys;  // the last key is the primary one: the last column first
    keys.reserve(static_cast<std::size_t>(m));
    for (std::int64_t j = m; j-- > 0;) keys.push_back(rows(slice(), j));
    perm = flat(lexsort(std::span<const ndarray>(keys), -1));
  }
  const ndarray aux = ascontiguousarray(take(rows, perm, {.axis = 0, .mode = clip_mode::clip}));
  const int device = rows.device();
  ndarray mask = zeros(std::span<const std::int64_t>(&n, 1), bool_);
  {
    const detail::kernel_module& km = program_for(ar.dtype(), device);
    const void* ap = aux.data();
    long long nn = n, mm = m;
    void* fp = mask.data();
    void* args[] = {&ap, &nn, &mm, &fp};
    launch(km, k_row_flags, m > 0 ? n * m : 1, args, device);
  }
  const ndarray pos = flatnonzero(mask);
  std::vector<std::int64_t> vshape{pos.size()};
  vshape.insert(vshape.end(), rest.begin(), rest.end());
  r.values = take(aux, pos, {.axis = 0, .mode = clip_mode::clip}).reshape(vshape).moveaxis(0, axis);
  if (o.return_index) r.index = take(perm, pos, {.mode = clip_mode::clip});
  if (o.return_inverse) r.inverse = unique_inverse_of(perm, mask, n, device);
  if (o.return_counts) r.counts = unique_counts_of(pos, n, device);
  return r;
}

}  // namespace

unique_result unique(const ndarray& ar, const unique_options& o) {
  require_numeric(ar.dtype(), "unique");
  if (o.axis) return unique_along_axis(ar, *o.axis, o);
  const ndarray a = flat(ar);
  const std::int64_t n = a.size();
  unique_result r;
  if (n == 0) {
    r.values = vec(0, a.dtype());
    if (o.return_index) r.index = vec(0, int64);
    if (o.return_inverse) r.inverse = empty(ar.shape(), int64);
    if (o.return_counts) r.counts = vec(0, int64);
    return r;
  }
  ndarray perm, aux;
  if (o.return_index || o.return_inverse) {
    perm = flat(argsort(a, 0));
    aux = take(a, perm);
  } else {
    aux = sorted_flat(a);
  }
  const ndarray mask = flags(k_unique_flags, aux, n, o.equal_nan ? 1 : 0);
  const ndarray pos = flatnonzero(mask);
  r.values = take(aux, pos);
  if (o.return_index) r.index = take(perm, pos);
  const int device = a.device();
  if (o.return_inverse) r.inverse = unique_inverse_of(perm, mask, n, device).reshape(ar.shape());
  if (o.return_counts) r.counts = unique_counts_of(pos, n, device);
  return r;
}

ndarray unique(const ndarray& ar) { return unique(ar, unique_options{}).values; }

unique_all_result unique_all(const ndarray& x) {
  unique_result r =
      unique(x, {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
  return {r.values, r.index, r.inverse, r.counts};
}

unique_counts_result unique_counts(const ndarray& x) {
  unique_result r = unique(x, {.return_counts = true, .equal_nan = false});
  return {r.values, r.counts};
}

unique_inverse_result unique_inverse(const ndarray& x) {
  unique_result r = unique(x, {.return_inverse = true, .equal_nan = false});
  return {r.values, r.inverse};
}

ndarray unique_values(const ndarray& x) { return unique(x, {.equal_nan = false}).values; }

// ---------------------------------------------------------------------------------------------
// isin, in1d

ndarray isin(const ndarray& element, const ndarray& test_elements, const isin_options& options) {
  require_numeric(element.dtype(), "isin");
  require_numeric(test_elements.dtype(), "isin");
  const dtype type = promote_types(element.dtype(), test_elements.dtype());
  ndarray out = empty(element.shape(), bool_);
  if (element.size() == 0) return out;
  if (test_elements.size() == 0) {
    out.fill(options.invert);
    return out;
  }
  const ndarray t = sorted_flat(flat_as(test_elements, type));
  const ndarray x = flat_as(element, type);
  const int device = x.device();
  const detail::kernel_module& m = program_for(type, device);
  const void* xp = x.data();
  const void* tp = t.data();
  long long n = x.size(), nt = t.size();
  void* op = out.data();
  int invert = options.invert ? 1 : 0;
  void* args[] = {&xp, &n, &tp, &nt, &op, &invert};
  launch(m, k_isin, n, args, device);
  return out;
}

ndarray in1d(const ndarray& ar1, const ndarray& ar2, const isin_options& options) {
  return isin(flat(ar1), ar2, options);
}

// ---------------------------------------------------------------------------------------------
// intersect1d, union1d, setdiff1d, setxor1d

namespace {

intersect1d_result intersect(const ndarray& ar1, const ndarray& ar2, bool assume_unique, bool want_indices) {
  require_numeric(ar1.dtype(), "intersect1d");
  require_numeric(ar2.dtype(), "intersect1d");
  ndarray a1, a2, ind1, ind2;
  if (!assume_unique) {
    if (want_indices) {
      const unique_result u1 = unique(ar1, {.return_index = true}), u2 = unique(ar2, {.return_index = true});
      a1 = u1.values;
      ind1 = u1.index;
      a2 = u2.values;
      ind2 = u2.index;
    } else {
      a1 = unique(ar1);
      a2 = unique(ar2);
    }
  } else {
    a1 = flat(ar1);
    a2 = flat(ar2);
  }
  ndarray aux = concatenate({a1, a2});
  ndarray sidx;
  if (want_indices) {
    sidx = flat(argsort(aux, 0));
    aux = take(aux, sidx);
  } else {
    aux = sorted_flat(aux);
  }
  const std::int64_t n = aux.size();
  const ndarray mask = flags(k_adjacent_equal, aux, std::max<std::int64_t>(n - 1, 0));
  const ndarray pos = n > 1 ? flatnonzero(mask) : vec(0, int64);
  intersect1d_result r;
  r.values = take(aux, pos);
  if (want_indices) {
    if (pos.size() == 0) {
      r.indices1 = vec(0, int64);
      r.indices2 = vec(0, int64);
    } else {
      r.indices1 = take(sidx, pos);
      r.indices2 = subtract(take(sidx, add(pos, 1)), a1.size());
      if (!assume_unique) {
        r.indices1 = take(ind1, r.indices1);
        r.indices2 = take(ind2, r.indices2);
      }
    }
  }
  return r;
}

}  // namespace

ndarray intersect1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  return intersect(ar1, ar2, assume_unique, false).values;
}

intersect1d_result intersect1d_with_indices(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  return intersect(ar1, ar2, assume_unique, true);
}

ndarray union1d(const ndarray& ar1, const ndarray& ar2) {
  return unique(concatenate({ar1, ar2}, {.axis = std::nullopt}));
}

ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  const ndarray a1 = assume_unique ? flat(ar1) : unique(ar1);
  const ndarray mask = isin(a1, ar2, {.invert = true});
  return extract(mask, a1);
}

ndarray setxor1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  const ndarray a1 = assume_unique ? ar1 : unique(ar1), a2 = assume_unique ? ar2 : unique(ar2);
  ndarray aux = concatenate({a1, a2}, {.axis = std::nullopt});
  if (aux.size() == 0) return aux;
  aux = sorted_flat(aux);
  const ndarray keep = flags(k_xor_flags, aux, aux.size());
  return extract(keep, aux);
}

}  // namespace cupp
