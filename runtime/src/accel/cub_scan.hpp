// The ahead-of-time CUB accelerator for scans (CUPP_ACCELERATORS=cub): inclusive scans of one
// contiguous line of integer or bool accumulators with CUB's DeviceScan, compiled by nvcc in
// cub_scan.cu. Integer results are exact, so CUB's decoupled look-back (whose grouping of a float
// sum would depend on timing) gives the same bits every run; floating scans stay on cupp's own
// kernels (docs/scans.md). Nothing here synchronizes. Throws cupp::CudaError / cupp::ValueError.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "accel/cub_sort.hpp"  // temp_alloc

namespace cupp::detail::accel {

// The combining operation (on 0/1 values and / or / xor are the logical ones).
enum class scan_op { add, multiply, maximum, minimum, bit_and, bit_or, bit_xor };

// Inclusive scan of n >= 1 words of in_bytes (1, 4 or 8: the widths instantiated, to keep nvcc's
// time short) into n 64-bit words, each input widened as its dtype converts (0/1 when in_bool,
// any nonzero byte being true; sign-extended when in_signed, zero-extended otherwise).
// Arithmetic wraps modulo 2^64; maximum / minimum compare as signed when out_signed.
void cub_inclusive_scan(scan_op op, int in_bytes, bool in_signed, bool in_bool, const void* in, bool out_signed,
                        void* out, std::int64_t n, cudaStream_t stream, const temp_alloc& alloc);

}  // namespace cupp::detail::accel
