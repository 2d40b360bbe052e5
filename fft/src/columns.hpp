// Internal to the fft module: cupp's column kernel (fft/device/cupp/fft/columns.cuh) as a plan's
// engine (plan_key::engine 1; its row form 2, pair form 3, pipelined rows 4; the four-step long
// transform of four_step.cuh, engine 5, and its axis form, engine 6): its NVRTC program per (n, precision, columns a block),
// compiled and loaded once per device through the kernel cache, the twiddle table a plan uploads,
// and the launches of one execution set on a stream.
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

// The program of the four-step transform of n1 x n2 points (engine 5): its columns pass
// cupp_fft_four_step_columns<C, n1, w1> and its rows pass cupp_fft_four_step_rows<C, n2, w2>.
cupp::detail::routine_program four_step_program(std::int64_t n1, std::int64_t n2, bool double_precision, int w1, int w2);

// How engine 5 splits n points (itemsize 8 or 16): n = n1 * n2 with n1 = 2^floor(log2(n) / 2)
// rows of n2 = 2^ceil(log2(n) / 2) points; w1 the columns pass's columns a block (column_width's),
// w2 the rows pass's rows a block (the widest power of two up to 128 bytes a row segment whose
// block stays within 1024 threads and 144 KiB of tile, at least 32 bytes). All 0 unless n is a
// power of two from 1024 to 2^24.
struct four_step_shape {
  std::int64_t n1 = 0, n2 = 0;
  int w1 = 0, w2 = 0;
};
four_step_shape four_step_split(std::int64_t n, std::int64_t itemsize) noexcept;

// How engine 6 (the axis four-step transform) splits n points (itemsize 8 or 16): n1 =
// 2^floor(log2(n) / 2), n2 = 2^ceil(log2(n) / 2), w1 = 128 / itemsize columns an item (whole
// 128-byte row segments); all 0 unless n is a power of two from 1024 to 4096.
four_step_shape axis_four_step_split(std::int64_t n, std::int64_t itemsize) noexcept;
// The columns of one slab of engine 6 for `ncols` columns of n points: the most whole items
// (w1 columns) whose scratch fits slab_bytes, at least one item; 0 where that makes more than
// axis_max_slabs slabs (the kernel's ticket decoding walks the slabs).
inline constexpr std::int64_t axis_max_slabs = 64;
std::int64_t axis_slab_columns(std::int64_t n, std::int64_t ncols, std::int64_t itemsize, std::int64_t slab_bytes) noexcept;
// The program of cupp_fft_axis_four_step<C, n1, n2, w1> (engine 6).
cupp::detail::routine_program axis_four_step_program(std::int64_t n1, std::int64_t n2, bool double_precision, int w1);

// The kernel for `key` (engines 1-6) on `device` (current), with its dynamic shared memory allowed.
// Throws CompileError / CudaError, or ValueError where the device has too little shared memory.
column_kernel load_column_kernel(const plan_key& key, int device);

// The kernel's twiddle table for `key` (columns.cuh's fill_twiddles for n points, fill_pair_twiddles
// for the pair form, fill_four_step_twiddles for engine 5) in the key's precision, in new device
// memory (cudaMalloc; the plan frees it).
void* upload_twiddles(const plan_key& key);

// The transform of each pointer pair on `stream`: blocks (clusters of two, engine 3) of key.width
// adjacent columns (rows, for engine 2; key.batch in all), points key.istride / key.ostride apart,
// transforms key.idist apart, scaled by key.scale, inverse for direction +1. Engines 5 and 6: both
// passes per pointer pair, through a scratch as large as the batch from cupp's pool on `stream`
// (engine 6 also its zeroed ticket counters, slabs of engine_options::axis_slab_bytes).
void launch_columns(const column_kernel& k, const plan_key& key, const void* twiddles, std::span<const exec_pointers> runs,
                    int device, cuda::stream_handle stream);

}  // namespace cupp::fft::detail
