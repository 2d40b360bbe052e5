// The sparse module's array steps (primitives.hpp): index dtypes as SciPy picks them, indptr
// expansion (the module's own kernel, device/cupp/sparse/expand.cuh) and compression (cuSPARSE's
// coo2csr for int32, cupp's searchsorted otherwise), sorting and summing entries (lexsort, add.reduceat: deterministic, any
// dtype), and the dense conversions (flatnonzero, add.at).
#include "primitives.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "cupp/ufunc.hpp"
#include "cusparse_wrap.hpp"
#include "device_program.hpp"
#include "sparse_device_headers.hpp"

namespace cupp::sparse::detail {

cupp::dtype index_dtype_for(std::int64_t maxval) noexcept { return maxval > int32_max ? int64 : int32; }

cupp::dtype index_dtype_of(std::initializer_list<const ndarray*> arrays, std::int64_t maxval) {
  cupp::dtype result = index_dtype_for(maxval);
  for (const ndarray* a : arrays) {
    const cupp::dtype t = a->dtype();
    if (!t.is_integer()) throw TypeError("sparse index arrays must have an integer dtype, not " + t.name());
    if (result == int64) continue;
    const bool fits_type = t == int8 || t == int16 || t == int32 || t == uint8 || t == uint16;
    if (fits_type || a->size() == 0) continue;
    if (max_of(*a) > int32_max || min_of(*a) < -int32_max - 1) result = int64;
  }
  return result;
}

void require_value_dtype(const cupp::dtype& type) {
  const char k = type.kind();
  const bool ok = k == 'b' || k == 'i' || k == 'u' || type == float32 || type == float64 || type == complex64 ||
                  type == complex128;
  if (!ok)
    throw ValueError("scipy.sparse does not support dtype " + type.name() +
                     ". The only supported types are: bool, int8, uint8, int16, uint16, int32, uint32, int64, "
                     "uint64, longlong, ulonglong, float32, float64, longdouble, complex64, complex128, clongdouble.");
}

ndarray as_index(const ndarray& a, const cupp::dtype& idx) {
  if (a.dtype() == idx) return a;
  return cupp::astype(a, idx);
}

std::int64_t max_of(const ndarray& a) { return cupp::max(a).item<std::int64_t>(); }
std::int64_t min_of(const ndarray& a) { return cupp::min(a).item<std::int64_t>(); }

ndarray expand_ptr(const ndarray& indptr, std::int64_t nnz) {
  const std::int64_t m = indptr.size() - 1;
  const cupp::dtype idx = indptr.dtype();
  if (nnz == 0 || m <= 0) return cupp::empty({nnz}, idx);
  // the module's kernel (expand.cuh) for both widths: entry-parallel, coalesced stores (cuSPARSE's
  // csr2coo takes int32 only and ran at a tenth of the write floor on the H200)
  const bool narrow = idx == int32;
  const ndarray ptr = cupp::ascontiguousarray(narrow || idx == int64 ? indptr : cupp::astype(indptr, int64));
  ndarray out = cupp::empty({nnz}, narrow ? int32 : int64);
  const int device = out.device();
  const cupp::detail::kernel_module& module =
      cupp::detail::routine_module(device, {"sparse:expand_ptr", 1}, [] { return expand_program(); });
  const void* in = ptr.data();
  void* dst = out.data();
  long long n_major = m, count = nnz;
  void* args[] = {&in, &n_major, &count, &dst};
  const std::int64_t chunks = (nnz + expand_chunk - 1) / expand_chunk;
  cupp::detail::launch_1d(module.function(narrow ? 0 : 1), nnz, args, device,
                          std::min<std::int64_t>(chunks, std::int64_t{1} << 20), expand_threads);
  return narrow || idx == int64 ? out : as_index(out, idx);
}

cupp::detail::routine_program expand_program() {
  return {.name = "cupp_sparse_expand",
          .source = "#include <cupp/sparse/expand.cuh>\n",
          .kernels = {"cupp_sparse_expand_ptr_i32", "cupp_sparse_expand_ptr_i64"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

ndarray compress_ptr(const ndarray& major_sorted, std::int64_t n_major, const cupp::dtype& idx) {
  const std::int64_t nnz = major_sorted.size();
  if (nnz == 0) return cupp::zeros({n_major + 1}, idx);
  if (idx == int32 && major_sorted.dtype() == int32) {
    ndarray out = cupp::empty({n_major + 1}, int32);
    cupp::detail::device_scope scope(out.device());
    check(cusparseXcoo2csr(handle(out.device()), static_cast<const int*>(major_sorted.data()), static_cast<int>(nnz),
                           static_cast<int>(n_major), static_cast<int*>(out.data()), CUSPARSE_INDEX_BASE_ZERO),
          "cusparseXcoo2csr");
    return out;
  }
  const ndarray bounds = cupp::arange(n_major + 1, n_major + 1 > int32_max ? int64 : major_sorted.dtype());
  return as_index(cupp::searchsorted(major_sorted, bounds), idx);
}

entries sort_entries(const entries& e, bool sum) {
  const std::int64_t nnz = e.data.size();
  if (nnz == 0) return e;
  const ndarray order = cupp::lexsort({e.minor, e.major});
  entries s{cupp::take(e.data, order), cupp::take(e.major, order), cupp::take(e.minor, order)};
  if (!sum || nnz < 2) return s;
  const cupp::slice tail(1, std::nullopt), head(std::nullopt, nnz - 1);
  const ndarray differs = cupp::logical_or(cupp::not_equal(s.major(tail), s.major(head)),
                                           cupp::not_equal(s.minor(tail), s.minor(head)));
  const ndarray first = cupp::concatenate({cupp::ones({1}, bool_), differs});
  const ndarray starts = cupp::flatnonzero(first);
  if (starts.size() == nnz) return s;
  return {cupp::add.reduceat(s.data, starts, {.dtype = s.data.dtype()}), cupp::take(s.major, starts),
          cupp::take(s.minor, starts)};
}

std::pair<bool, bool> order_of(const ndarray& major, const ndarray& minor) {
  const std::int64_t nnz = major.size();
  if (nnz < 2) return {true, true};
  const cupp::slice tail(1, std::nullopt), head(std::nullopt, nnz - 1);
  const ndarray m1 = major(tail), m0 = major(head), n1 = minor(tail), n0 = minor(head);
  const ndarray later_major = cupp::greater(m1, m0), same_major = cupp::equal(m1, m0);
  const bool sorted =
      cupp::all(cupp::logical_or(later_major, cupp::logical_and(same_major, cupp::greater_equal(n1, n0))))
          .item<bool>();
  if (!sorted) return {false, false};
  const bool canonical =
      cupp::all(cupp::logical_or(later_major, cupp::logical_and(same_major, cupp::greater(n1, n0)))).item<bool>();
  return {true, canonical};
}

entries dense_entries(const ndarray& dense) {
  const std::int64_t rows = dense.shape(0), cols = dense.shape(1);
  const ndarray flat = cupp::flatnonzero(dense);
  const cupp::dtype idx = index_dtype_for(std::max({rows, cols, flat.size()}));
  const ndarray data = cupp::take(dense, flat);
  if (flat.size() == 0) return {data, cupp::empty({0}, idx), cupp::empty({0}, idx)};
  return {data, as_index(cupp::floor_divide(flat, cols), idx), as_index(cupp::remainder(flat, cols), idx)};
}

ndarray scatter_dense(const entries& e, std::int64_t rows, std::int64_t cols) {
  if (cols != 0 && rows > INT64_MAX / cols) throw ValueError("Maximum allowed size exceeded");
  ndarray out = cupp::zeros({rows * cols}, e.data.dtype());
  if (e.data.size() > 0) {
    const ndarray linear = cupp::add(cupp::multiply(cupp::astype(e.major, int64), cols), cupp::astype(e.minor, int64));
    cupp::add.at(out, linear, e.data);
  }
  return out.reshape({rows, cols});
}

entries drop_zeros(const entries& e) {
  if (e.data.size() == 0) return e;
  const ndarray keep = cupp::flatnonzero(e.data);
  if (keep.size() == e.data.size()) return e;
  return {cupp::take(e.data, keep), cupp::take(e.major, keep), cupp::take(e.minor, keep)};
}

ndarray diagonal_of(const entries& e, std::int64_t rows, std::int64_t cols, std::int64_t k) {
  const std::int64_t length = std::max<std::int64_t>(0, std::min(rows + std::min<std::int64_t>(k, 0),
                                                                 cols - std::max<std::int64_t>(k, 0)));
  ndarray out = cupp::zeros({length}, e.data.dtype());
  if (length == 0 || e.data.size() == 0) return out;
  const ndarray major = cupp::astype(e.major, int64), minor = cupp::astype(e.minor, int64);
  const ndarray on = cupp::flatnonzero(cupp::equal(cupp::subtract(minor, major), k));
  if (on.size() == 0) return out;
  const ndarray slot = cupp::take(k >= 0 ? major : minor, on);
  cupp::add.at(out, slot, cupp::take(e.data, on));
  return out;
}

ndarray cast_values(const ndarray& data, const cupp::dtype& type, bool copy) {
  require_value_dtype(type);
  if (data.dtype() == type) return copy ? data.copy() : data;
  return cupp::astype(data, type);
}

ndarray values_as(const ndarray& data, const std::optional<cupp::dtype>& type, bool copy) {
  if (data.is_null()) throw ValueError("sparse data must be an array");
  if (data.ndim() != 1) throw ValueError("data, indices, and indptr should be 1-D");
  const cupp::dtype t = type ? *type : data.dtype();
  return cast_values(cupp::ascontiguousarray(data), t, copy);
}

}  // namespace cupp::sparse::detail
