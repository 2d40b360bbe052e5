// The ahead-of-time CUB accelerator for sorting (CUPP_ACCELERATORS=cub): plain functions over
// device pointers, compiled by nvcc in cub_sort.cu, so that no CUB header reaches any .cpp. Keys
// are unsigned words of 1, 2, 4 or 8 bytes (callers map each dtype to an order-preserving key);
// values, where given, are int64. Temporary storage comes from the caller's callback (cupp's
// memory pool), on the same stream. Nothing here synchronizes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>

namespace cupp::detail::accel {

// Gives `bytes` (> 0) of device memory for work on the sort's stream, valid until the sort
// function returns (the caller keeps it alive).
using temp_alloc = std::function<void*(std::size_t bytes)>;

// Stable LSD radix sort of n keys by bits [begin_bit, end_bit), with CUB's DoubleBuffer: the
// input is in keys[0] (and vals[0]); keys[1] (vals[1]) is scratch of the same size. Returns the
// buffer (0 or 1) that holds the result. key_bytes is 1, 2, 4 or 8. Throws cupp::CudaError.
int cub_sort_keys(int key_bytes, void* const keys[2], std::int64_t n, int begin_bit, int end_bit,
                  cudaStream_t stream, const temp_alloc& alloc);
int cub_sort_pairs(int key_bytes, void* const keys[2], std::int64_t* const vals[2], std::int64_t n, int begin_bit,
                   int end_bit, cudaStream_t stream, const temp_alloc& alloc);

// The same with int32 values, for n <= INT32_MAX (a one-pass argsort moves half the value bytes).
int cub_sort_pairs_i32(int key_bytes, void* const keys[2], std::int32_t* const vals[2], std::int64_t n, int begin_bit,
                       int end_bit, cudaStream_t stream, const temp_alloc& alloc);

// Sorts n (2 <= n <= INT32_MAX) float (key_bytes 4) or double (8) values from `in` into `out` in
// CUB's own float order: the IEEE bit order with the sign flipped, so negative NaNs come first and
// -0.0 before 0.0 (the caller moves leading NaNs to the end, where NumPy puts every NaN). `in` is
// read only. The temporary storage asked of `alloc` is at least n values, so the caller may use
// it as scratch of n values once this returns (the stream orders it after the sort).
void cub_sort_floats(int key_bytes, const void* in, void* out, std::int64_t n, cudaStream_t stream,
                     const temp_alloc& alloc);

// How many CUB sorts have been launched in this process (tests check that none ran when the
// accelerator is off).
std::uint64_t cub_launch_count() noexcept;

}  // namespace cupp::detail::accel
