// The ahead-of-time CUB accelerator for stream compaction (CUPP_ACCELERATORS=cub): flatnonzero's
// positions and a[mask]'s elements with CUB's DeviceSelect::Flagged, compiled by nvcc in
// cub_select.cu. The caller learns the count first (cub_count_true and one read back, as cupp's
// own compaction does) and sizes the output exactly. Nothing here synchronizes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "accel/cub_sort.hpp"  // temp_alloc

namespace cupp::detail::accel {

// The number of nonzero bytes of mask[0..n) as an int64 at `count` (device memory).
void cub_count_true(const std::uint8_t* mask, std::int64_t n, std::int64_t* count, cudaStream_t stream,
                    const temp_alloc& alloc);

// The positions i (int64, ascending) where mask[i] != 0, into `out` (room for every one).
void cub_select_positions(const std::uint8_t* mask, std::int64_t n, std::int64_t* out, cudaStream_t stream,
                          const temp_alloc& alloc);

// The elements of `in` (elem_bytes 1, 4 or 8; `in` and `out` aligned to it) where
// mask[i] != 0, in order, into `out`.
void cub_select_flagged(int elem_bytes, const void* in, const std::uint8_t* mask, std::int64_t n, void* out,
                        cudaStream_t stream, const temp_alloc& alloc);

}  // namespace cupp::detail::accel
