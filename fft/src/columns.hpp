// Internal to the fft module: cupp's column kernel (fft/device/cupp/fft/columns.cuh) as a plan's
// engine (plan_key::engine 1; its row form, engine 2): its NVRTC program per (n, precision, columns a block), compiled and
// loaded once per device through the kernel cache, the twiddle table a plan uploads, and the
// launches of one execution set on a stream.
#pragma once

#include <cstdint>
#include <span>

#include "compiler/launch.hpp"
#include "cupp/cuda/stream.hpp"
#include "plan_cache.hpp"

namespace cupp::fft::detail {

// The program of cupp_fft_columns<float2 or double2, n, width[, true]> (rows: the row kernel,
// engine 2), for the host compile test too.
cupp::detail::routine_program columns_program(std::int64_t n, bool double_precision, int width, bool rows = false);
// The program of the pipelined row kernel, cupp_fft_rows_pipelined<float2 or double2, n, width>
// (engine 4).
cupp::detail::routine_program pipelined_rows_program(std::int64_t n, bool double_precision, int width);
// The program of the pair form, cupp_fft_columns_pair<float2 or double2, n, width> (engine 3).
cupp::detail::routine_program pair_program(std::int64_t n, bool double_precision, int width);

// A loaded column kernel: the function to launch, its block and its dynamic shared memory.
struct column_kernel {
  const void* function = nullptr;
  unsigned threads = 0;
  unsigned shared_bytes = 0;
  unsigned blocks_per_group = 1;  // 2 for the pair form (a cluster a group of columns)
  unsigned max_blocks = 0;        // the pipelined rows' grid at most (0: a block or cluster a group)
};

// The kernel for `key` (engine 1) on `device` (current), with its dynamic shared memory allowed.
// Throws CompileError / CudaError, or ValueError where the device has too little shared memory.
column_kernel load_column_kernel(const plan_key& key, int device);

// The kernel's twiddle table for n points (columns.cuh's fill_twiddles, or fill_pair_twiddles for
// the pair form) in the key's precision, in new device memory (cudaMalloc; the plan frees it).
void* upload_twiddles(std::int64_t n, bool double_precision, bool pair = false);

// The transform of each pointer pair on `stream`: blocks (clusters of two, engine 3) of key.width
// adjacent columns (rows, for engine 2; key.batch in all), points key.istride / key.ostride apart, transforms key.idist apart, scaled by key.scale, inverse for direction +1.
void launch_columns(const column_kernel& k, const plan_key& key, const void* twiddles, std::span<const exec_pointers> runs,
                    cuda::stream_handle stream);

}  // namespace cupp::fft::detail
