// The ahead-of-time CUB accelerator for full reductions (CUPP_ACCELERATORS=cub): plain functions
// over device pointers, compiled by nvcc in cub_reduce_int.cu and cub_reduce_float.cu (two
// files, so that a two-core build compiles them in parallel); no CUB header reaches any .cpp. Each function reduces n >= 1 contiguous, element-aligned values with
// CUB's DeviceReduce (deterministic for a fixed device: no atomics) into one value at `out`
// (device memory), on `stream`; temporary storage comes from the caller's callback, called once.
// Nothing here synchronizes. Throws cupp::CudaError / cupp::ValueError.
//
// The host (engine/reduce_plan.cpp through accel/cub_dispatch.cpp) has already chosen NumPy's
// accumulator and result dtypes; these functions only compute in them. Instantiations are shared
// by element width wherever the bits allow (an integer sum or product is the same modulo 2^64 for
// signed and unsigned words; signed words compare with the sign bit flipped), and max / min are
// the element an argmax / argmin reduction finds (its (position, value) pair carries the value).
// To keep nvcc's time short only these are instantiated (others run on cupp's own kernels):
// integer sums and products from words of 1, 2, 4, 8 bytes; extrema of 1, 4 and 8-byte words;
// float16, bfloat16, float32 and float64 sums and products; float32 and float64 extrema.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "accel/cub_sort.hpp"  // temp_alloc

namespace cupp::detail::accel {

// Integer and bool elements of in_bytes (1, 2, 4, 8): each widened to 64 bits (sign-extended
// when in_signed, zero-extended otherwise, 0/1 for bool: any nonzero byte counts as true), summed
// (multiply false) or multiplied modulo 2^64; the low out_bytes (1, 2, 4, 8) bytes of the result
// are written to `out` (little-endian: NumPy's wrapping sum or product in the accumulator dtype).
void cub_int_sum_prod(bool multiply, int in_bytes, bool in_signed, bool in_bool, const void* in, std::int64_t n,
                      void* out, int out_bytes, cudaStream_t stream, const temp_alloc& alloc);

// argmax / argmin of integer or bool words of `bytes` (1, 4 or 8), compared as signed when
// is_signed: the position (int64) of the first extreme element to `out`, or with `value` the
// element itself (max / min: `bytes` bytes).
void cub_int_arg(bool is_max, int bytes, bool is_signed, const void* in, std::int64_t n, void* out, bool value,
                 cudaStream_t stream, const temp_alloc& alloc);

// Floating element types.
enum class real_type { float16, bfloat16, float32, float64 };

// Sum or product: float16 and bfloat16 accumulate in float32 and write a float32 (the caller
// rounds it to the result dtype); the others accumulate and write their own type.
void cub_real_sum_prod(bool multiply, real_type t, const void* in, std::int64_t n, void* out, cudaStream_t stream,
                       const temp_alloc& alloc);

// argmax / argmin of float32 or float64: the first extreme element (a NaN is the extreme, the
// first NaN wins): its position (int64) to `out`, or with `value` the element itself (max / min
// with NumPy's NaN propagation).
void cub_real_arg(bool is_max, real_type t, const void* in, std::int64_t n, void* out, bool value, cudaStream_t stream,
                  const temp_alloc& alloc);

}  // namespace cupp::detail::accel
