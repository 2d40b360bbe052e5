// Internal to the sparse module: the array steps every format is built from, on cupp's own
// routines (sort, scan, searchsorted, reduceat, ufunc.at: any dtype, any index width) with
// cuSPARSE's coo2csr where it applies (int32 indices); the indptr expansion is the module's own
// kernel for both index widths (device/cupp/sparse/expand.cuh). "major" is the
// compressed axis (rows of CSR, columns of CSC), "minor" the other.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::sparse::detail {

inline constexpr std::int64_t int32_max = 2147483647;

// int32 when every value up to maxval fits, else int64 (SciPy's get_index_dtype(maxval=...)).
cupp::dtype index_dtype_for(std::int64_t maxval) noexcept;
// SciPy's get_index_dtype(arrays, maxval, check_contents=True): int32 unless maxval needs int64 or
// an array of a wider integer dtype holds values outside int32 (read on the device). TypeError
// for a non-integer array (SciPy only warns; docs/deviations.md).
cupp::dtype index_dtype_of(std::initializer_list<const ndarray*> arrays, std::int64_t maxval);
// SciPy's allowed value dtypes (bool, integers, float32/64, complex64/128); ValueError otherwise.
void require_value_dtype(const cupp::dtype& type);
// The 1-D array `a` as `idx` (a cast only when it differs).
ndarray as_index(const ndarray& a, const cupp::dtype& idx);
// The largest / smallest element (of a non-empty array) as int64, read back.
std::int64_t max_of(const ndarray& a);
std::int64_t min_of(const ndarray& a);

// The major index of each of the nnz entries of an indptr (its dtype).
ndarray expand_ptr(const ndarray& indptr, std::int64_t nnz);
// The indptr (n_major + 1, dtype idx) of entries whose major indices are sorted.
ndarray compress_ptr(const ndarray& major_sorted, std::int64_t n_major, const cupp::dtype& idx);

struct entries {
  ndarray data, major, minor;
};
// The entries ordered by (major, minor), stably; with sum, duplicates summed into one entry each.
entries sort_entries(const entries& e, bool sum);
// (sorted, canonical) of entries: sorted by (major, minor), and without duplicates too.
std::pair<bool, bool> order_of(const ndarray& major, const ndarray& minor);
// The nonzero entries of a 2-D array in C order (major = rows), indices int32 unless a dimension
// or the count needs int64.
entries dense_entries(const ndarray& dense);
// A dense (rows, cols) array of the entries (major = rows), duplicates summed.
ndarray scatter_dense(const entries& e, std::int64_t rows, std::int64_t cols);
// The entries whose value is nonzero.
entries drop_zeros(const entries& e);
// Dense 1-D diagonal k of (rows, cols) entries (major = rows), duplicates summed.
ndarray diagonal_of(const entries& e, std::int64_t rows, std::int64_t cols, std::int64_t k);
// Entries with the values cast (copy: always a new data array).
ndarray cast_values(const ndarray& data, const cupp::dtype& type, bool copy);
// The value dtype of a (data) argument under options.dtype: SciPy's rules (checked).
ndarray values_as(const ndarray& data, const std::optional<cupp::dtype>& type, bool copy);

// The positions a Python slice picks on an axis of length n (slice.indices(n)): start, step and
// how many (start 0 when none). ValueError "slice step cannot be zero".
struct slice_range {
  std::int64_t start = 0, step = 1, count = 0;
};
slice_range range_of(const cupp::slice& s, std::int64_t n);

}  // namespace cupp::sparse::detail
