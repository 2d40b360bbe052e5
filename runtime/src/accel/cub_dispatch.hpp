// Internal: where the engine hands work to the ahead-of-time CUB accelerators (accel/cub_*.hpp)
// and the host-only decisions behind it (unit-tested without a GPU). Each try_* returns false
// (or a null array) when CUB is off (CUPP_ACCELERATORS without `cub`, the test override, or a
// build without the nvcc objects) or the case is not one CUB takes; the caller then runs cupp's
// own kernels. The engine has already chosen NumPy's accumulator and result dtypes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cupp/ndarray.hpp"

namespace cupp::detail::accel {

// ---- host-only decisions

// Which CUB reduction computes op.reduce (op "add", "multiply", "maximum" or "minimum") of `in`
// accumulating in `acc` with result `result`: integer and bool inputs summed or multiplied into
// an integer accumulator (result == acc); float32 and float64 sums and products in their own
// dtype; float16 and bfloat16 sums and products in float32 (result the input's dtype or
// float32); max and min in the input's dtype of bool, int8, uint8, int32, uint32, int64, uint64,
// float32 and float64 (the element argmax / argmin finds). Anything else (complex, 16-bit
// extrema, other dtype= choices): none.
enum class reduce_path { none, int_sum_prod, int_min_max, real_sum_prod, real_min_max };
reduce_path plan_reduce(std::string_view op, type_id in, type_id acc, type_id result) noexcept;

// Whether argmax / argmin of dtype `in` can use CUB: bool, int8, uint8, int32, uint32, int64,
// uint64, float32, float64.
bool plan_arg_reduce(type_id in) noexcept;

// Whether op.accumulate of `in` into accumulator `acc` can use CUB's scan: an int64 or uint64
// accumulator (exact results) from bool, int8, uint8, int32, uint32, int64 or uint64, for add,
// multiply, maximum, minimum, bitwise_and, bitwise_or, bitwise_xor.
bool plan_scan(std::string_view op, type_id in, type_id acc) noexcept;

// Where CUB pays, measured on the H200 against cupp's own kernels (docs/reductions.md): sums and
// products and integer scans of at least 2^20 elements (below that a call is host-bound, and
// cupp's single launch beats CUB's size query, temporary storage and launch); never extrema,
// argmax/argmin or stream compaction (slower on CUB at every size). `forced` (the test/benchmark
// override, set_cub_accelerators(true)) takes every use at every size.
enum class cub_use { sum_prod, extrema, arg_extrema, scan, select };
bool cub_pays(cub_use use, std::int64_t n, bool forced) noexcept;

// Whether an array (shape, byte strides, item size, data address) with the axes `reduced` taken
// is one reduction over one contiguous, element-aligned run: every kept axis has length 1 and
// the elements fill size * itemsize bytes without gaps, in C order, or (any_order) in any axis
// order, as sums and extrema allow. Empty arrays: false.
bool one_contiguous_run(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                        std::int64_t itemsize, std::uintptr_t address, const std::vector<bool>& reduced,
                        bool any_order) noexcept;

// ---- the hand-over points

// op.reduce (no where=, initial= or element map) of `a` over `reduced` axes; on success `out`
// holds the result (shape: the kept axes, all of length 1; dtype `result`).
bool try_reduce(std::string_view op, const ndarray& a, const std::vector<bool>& reduced, type_id acc, type_id result,
                ndarray& out);

// argmax / argmin (not the nan- forms) of `a` over `reduced` into `out` (int64, allocated).
bool try_arg_reduce(const ndarray& a, const std::vector<bool>& reduced, bool is_max, const ndarray& out);

// op.accumulate of one contiguous line of `len` elements of `in` into `out` (same length).
bool try_scan(std::string_view op, const ndarray& in, const ndarray& out, std::int64_t len);

// Whether stream compaction goes to CUB (cub_pays: only when the override forces it).
bool enabled() noexcept;

// flatnonzero of a flat, contiguous bool mask (CUB on): int64 positions.
ndarray flatnonzero(const ndarray& mask);

// Whether a[mask] of this flat, contiguous `a` can use CUB (elements of 1, 4 or 8 bytes, aligned
// to it) and CUB is on.
bool can_select(const ndarray& a) noexcept;
// a[mask] of a flat contiguous `a` and a flat contiguous bool mask of a's size.
ndarray mask_select(const ndarray& a, const ndarray& mask);

}  // namespace cupp::detail::accel
