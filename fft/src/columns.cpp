// cupp's column and row kernels as plan engines (columns.hpp): the NVRTC program of one
// instantiation of cupp_fft_columns (fft/device/cupp/fft/columns.cuh) or of the four-step passes
// (four_step.cuh), its twiddle table and its launches.
#include "columns.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../device/cupp/fft/four_step.cuh"
#include "cuda/check.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/errors.hpp"
#include "fft_device_headers.hpp"
#include "transform.hpp"

namespace cupp::fft::detail {

namespace {

int log2_exact(std::int64_t v) {
  int k = 0;
  while ((std::int64_t{1} << k) < v) ++k;
  return k;
}

}  // namespace

namespace {

// The program of one instantiation `name`<float2 or double2, n, width`tail`> of columns.cuh.
cupp::detail::routine_program program_of(const char* name, std::int64_t n, bool dbl, int width, const char* tail = ">") {
  const std::string kernel = std::string("cupp_fft_columns::") + name + (dbl ? "<double2, " : "<float2, ") +
                             std::to_string(n) + ", " + std::to_string(width) + tail;
  return {.name = name,
          .source = "#include <cupp/fft/columns.cuh>\n",
          .kernels = {kernel},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

}  // namespace

cupp::detail::routine_program columns_program(std::int64_t n, bool dbl, int width, bool rows) {
  return program_of("cupp_fft_columns", n, dbl, width, rows ? ", true>" : ">");
}

cupp::detail::routine_program pipelined_rows_program(std::int64_t n, bool dbl, int width) {
  return program_of("cupp_fft_rows_pipelined", n, dbl, width);
}

cupp::detail::routine_program pair_program(std::int64_t n, bool dbl, int width) {
  return program_of("cupp_fft_columns_pair", n, dbl, width);
}

cupp::detail::routine_program four_step_program(std::int64_t n1, std::int64_t n2, bool dbl, int w1, int w2) {
  const char* c = dbl ? "double2, " : "float2, ";
  return {.name = "cupp_fft_four_step",
          .source = "#include <cupp/fft/four_step.cuh>\n",
          .kernels = {std::string("cupp_fft_columns::cupp_fft_four_step_columns<") + c + std::to_string(n1) + ", " +
                          std::to_string(n2) + ", " + std::to_string(w1) + ">",
                      std::string("cupp_fft_columns::cupp_fft_four_step_rows<") + c + std::to_string(n1) + ", " +
                          std::to_string(n2) + ", " + std::to_string(w2) + ">"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

four_step_shape four_step_split(std::int64_t n, std::int64_t item) noexcept {
  if (n < 1024 || n > (std::int64_t{1} << 24) || (n & (n - 1)) != 0 || (item != 8 && item != 16)) return {};
  const int k = log2_exact(n);
  four_step_shape s{.n1 = std::int64_t{1} << (k / 2), .n2 = std::int64_t{1} << ((k + 1) / 2)};
  s.w1 = column_width(s.n1, item);
  const std::int64_t skew = item == 8 ? 4 : 0;  // four_step_rows::skew
  for (std::int64_t w = 128 / item; w >= 32 / item; w /= 2)
    if (s.n2 / 16 * w <= 1024 && w * (s.n2 + s.n2 / 16 + skew) * item <= 144 * 1024) {
      s.w2 = static_cast<int>(w);
      break;
    }
  if (s.w1 == 0 || s.w2 == 0) return {};
  return s;
}

four_step_shape axis_four_step_split(std::int64_t n, std::int64_t item) noexcept {
  if (n < 1024 || n > 4096 || (n & (n - 1)) != 0 || (item != 8 && item != 16)) return {};
  const int k = log2_exact(n);
  return {.n1 = std::int64_t{1} << (k / 2), .n2 = std::int64_t{1} << ((k + 1) / 2), .w1 = static_cast<int>(128 / item),
          .w2 = static_cast<int>(128 / item)};
}

std::int64_t axis_slab_columns(std::int64_t n, std::int64_t ncols, std::int64_t item, std::int64_t slab_bytes) noexcept {
  const four_step_shape sh = axis_four_step_split(n, item);
  if (sh.n1 == 0 || ncols <= 0) return 0;
  const std::int64_t per_item = n * sh.w1 * item;  // scratch bytes of one item's columns
  const std::int64_t cols = std::max<std::int64_t>(1, slab_bytes / per_item) * sh.w1;
  return (ncols + cols - 1) / cols > axis_max_slabs ? 0 : cols;
}

cupp::detail::routine_program axis_four_step_program(std::int64_t n1, std::int64_t n2, bool dbl, int w1) {
  return {.name = "cupp_fft_axis_four_step",
          .source = "#include <cupp/fft/four_step.cuh>\n",
          .kernels = {std::string("cupp_fft_columns::cupp_fft_axis_four_step<") + (dbl ? "double2, " : "float2, ") +
                      std::to_string(n1) + ", " + std::to_string(n2) + ", " + std::to_string(w1) + ">"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

namespace {

// Engine 6's kernel, loaded: its grid the blocks that fit on the device at once (at most
// engine_options::axis_blocks_per_sm an SM when set).
column_kernel load_axis_four_step(const plan_key& key, int device) {
  const std::int64_t item = key.double_precision ? 16 : 8;
  const four_step_shape sh = axis_four_step_split(key.n[0], item);
  if (sh.n1 == 0) throw ValueError("the axis four-step transform takes powers of two from 1024 to 4096 points");
  column_kernel k;
  k.threads = static_cast<unsigned>(std::max(sh.n1, sh.n2) / 16 * sh.w1);
  k.shared_bytes = static_cast<unsigned>(std::max(sh.n1, sh.n2) * sh.w1 * item);
  const std::uint64_t variant = static_cast<std::uint64_t>(log2_exact(key.n[0])) | (key.double_precision ? 64u : 0u);
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {"fft:axis_four_step", variant}, [&] { return axis_four_step_program(sh.n1, sh.n2, key.double_precision, sh.w1); });
  k.function = module.function(0);
  int per_sm = 0, sms = 0;
  cuda::detail::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.function, static_cast<int>(k.threads),
                                                                    k.shared_bytes),
                      "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  cuda::detail::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  if (per_sm < 1) throw ValueError("the axis four-step kernel fits no block on an SM");
  const int cap = get_engine_options().axis_blocks_per_sm;
  if (cap > 0) per_sm = std::min(per_sm, cap);
  k.max_blocks = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
  return k;
}

// Engine 5's two passes, loaded (the columns pass in `function`).
column_kernel load_four_step(const plan_key& key, int device, int most_shared) {
  const std::int64_t item = key.double_precision ? 16 : 8;
  const four_step_shape sh = four_step_split(key.n[0], item);
  if (sh.n1 == 0) throw ValueError("the four-step transform takes powers of two from 1024 to 2^24 points");
  column_kernel k;
  k.threads = static_cast<unsigned>(sh.n1 / 16 * sh.w1);
  k.shared_bytes = static_cast<unsigned>(sh.n1 * sh.w1 * item);  // columns<C, n1, w1>::tile_bytes
  k.rows_threads = static_cast<unsigned>(sh.n2 / 16 * sh.w2);
  k.rows_shared_bytes = static_cast<unsigned>(sh.w2 * (sh.n2 + sh.n2 / 16 + (item == 8 ? 4 : 0)) * item);
  if (static_cast<int>(std::max(k.shared_bytes, k.rows_shared_bytes)) > most_shared)
    throw ValueError("the four-step transform's tiles exceed the device's shared memory a block");
  // One program per (log2 n, precision): the widths follow from them.
  const std::uint64_t variant = static_cast<std::uint64_t>(log2_exact(key.n[0])) | (key.double_precision ? 64u : 0u);
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {"fft:four_step", variant}, [&] { return four_step_program(sh.n1, sh.n2, key.double_precision, sh.w1, sh.w2); });
  for (int i = 0; i < 2; ++i)
    cuda::detail::check(cudaKernelSetAttributeForDevice(module.kernel(i), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                        static_cast<int>(i == 0 ? k.shared_bytes : k.rows_shared_bytes),
                                                        device),
                        "cudaKernelSetAttributeForDevice");
  k.function = module.function(0);
  k.rows_function = module.function(1);
  return k;
}

}  // namespace

column_kernel load_column_kernel(const plan_key& key, int device) {
  const std::int64_t n = key.n[0];
  const int width = key.width;
  const bool dbl = key.double_precision, pipelined = key.engine == 4, rows = key.engine == 2 || pipelined,
             paired = key.engine == 3;
  const std::int64_t item = dbl ? 16 : 8, points = paired ? n / 2 : n;  // (a pair's block: n/2 rows)
  int most = 0;
  cuda::detail::check(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                      "cudaDeviceGetAttribute");
  if (key.engine == 5) return load_four_step(key, device, most);
  if (key.engine == 6) return load_axis_four_step(key, device);
  column_kernel k;
  k.threads = static_cast<unsigned>(points / 16 * width);
  // (columns<C, N, W, Rows>::tile_bytes: the row kernel's tile pads one element every 16; the
  // pipelined one's buffer of W n values follows it: pipelined_bytes)
  k.shared_bytes = static_cast<unsigned>(((rows ? points + points / 16 : points) + (pipelined ? points : 0)) * width * item);
  k.blocks_per_group = paired ? 2 : 1;
  if (static_cast<std::int64_t>(k.shared_bytes) > most)
    throw ValueError("the column kernel's tile (" + std::to_string(k.shared_bytes) + " bytes) exceeds the device's " +
                     std::to_string(most) + " bytes of shared memory a block");
  // One program per instantiation: log2(n) in bits 0-3, the precision in bit 4, log2(width) in
  // bits 5-8, rows in bit 9, the pair form in bit 10, the pipelined rows in bit 11.
  const std::uint64_t variant = static_cast<std::uint64_t>(log2_exact(n)) | (dbl ? 16u : 0u) |
                                (static_cast<std::uint64_t>(log2_exact(width)) << 5) | (rows ? 512u : 0u) |
                                (paired ? 1024u : 0u) | (pipelined ? 2048u : 0u);
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(device, {"fft:columns", variant}, [&] {
    return paired ? pair_program(n, dbl, width)
                  : pipelined ? pipelined_rows_program(n, dbl, width) : columns_program(n, dbl, width, rows);
  });
  cuda::detail::check(cudaKernelSetAttributeForDevice(module.kernel(0), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      static_cast<int>(k.shared_bytes), device),
                      "cudaKernelSetAttributeForDevice");
  k.function = module.function(0);
  if (pipelined) {  // a grid of the blocks that fit on the device at once (each loops over groups)
    int per_sm = 0, sms = 0;
    cuda::detail::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.function, static_cast<int>(k.threads),
                                                                      k.shared_bytes),
                        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    cuda::detail::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    if (per_sm < 1) throw ValueError("the pipelined row kernel fits no block on an SM");
    k.max_blocks = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
  }
  return k;
}

void* upload_twiddles(const plan_key& key) {
  const bool dbl = key.double_precision, pair = key.engine == 3, four = key.engine == 5 || key.engine == 6;
  const int points = static_cast<int>(key.n[0]);
  const four_step_shape sh = key.engine == 5   ? four_step_split(key.n[0], dbl ? 16 : 8)
                             : key.engine == 6 ? axis_four_step_split(key.n[0], dbl ? 16 : 8)
                                               : four_step_shape{};
  const std::size_t count = static_cast<std::size_t>(
      four ? cupp_fft_columns::four_step_offsets(static_cast<int>(sh.n1), static_cast<int>(sh.n2)).total
      : pair ? cupp_fft_columns::twiddle_count(points / 2) + points / 2
             : cupp_fft_columns::twiddle_count(points));
  const std::size_t bytes = count * (dbl ? sizeof(double2) : sizeof(float2));
  void* table = nullptr;
  cuda::detail::check(cudaMalloc(&table, bytes), "cudaMalloc");
  auto fill = [&]<class C>(std::vector<C>& host) {
    host.resize(count);
    if (four) cupp_fft_columns::fill_four_step_twiddles(host.data(), static_cast<int>(sh.n1), static_cast<int>(sh.n2));
    else if (pair) cupp_fft_columns::fill_pair_twiddles(host.data(), points);
    else cupp_fft_columns::fill_twiddles(host.data(), points);
    const cudaError_t r = cudaMemcpy(table, host.data(), bytes, cudaMemcpyHostToDevice);
    if (r != cudaSuccess) cudaFree(table);
    cuda::detail::check(r, "cudaMemcpy");
  };
  if (dbl) {
    std::vector<double2> host;
    fill(host);
  } else {
    std::vector<float2> host;
    fill(host);
  }
  return table;
}

namespace {

// Engine 5 on one pointer pair: the columns pass into a scratch from the pool, the rows pass out
// of it (grid.y the batch rows, at most 65535 a launch).
void launch_four_step(const column_kernel& k, const plan_key& key, const void* twiddles, const exec_pointers& r,
                      int device, cuda::stream_handle stream) {
  const std::int64_t item = key.double_precision ? 16 : 8;
  const four_step_shape sh = four_step_split(key.n[0], item);
  const long long n = key.n[0];
  cuda::Memory scratch = cuda::alloc(static_cast<std::size_t>(n * key.batch * item), device, stream);
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  long long dist = n;
  int inverse = key.direction == 1 ? 1 : 0;
  float scale_single = static_cast<float>(key.scale);
  double scale_double = key.scale;
  void* scale = key.double_precision ? static_cast<void*>(&scale_double) : static_cast<void*>(&scale_single);
  const void* tw = twiddles;
  constexpr long long most_rows = 65535;
  for (long long b0 = 0; b0 < key.batch; b0 += most_rows) {
    const unsigned rows = static_cast<unsigned>(std::min(most_rows, key.batch - b0));
    const void* in = static_cast<const char*>(r.in) + b0 * n * item;
    void* mid = static_cast<char*>(scratch.ptr()) + b0 * n * item;
    void* out = static_cast<char*>(r.out) + b0 * n * item;
    void* columns_args[] = {&in, &mid, &tw, &dist, &inverse};
    cuda::detail::check(cudaLaunchKernel(k.function, dim3(static_cast<unsigned>(sh.n2 / sh.w1), rows), dim3(k.threads),
                                         columns_args, k.shared_bytes, s),
                        "cudaLaunchKernel (cupp_fft_four_step_columns)");
    const void* mid_in = mid;
    void* rows_args[] = {&mid_in, &out, &tw, scale, &dist, &inverse};
    cuda::detail::check(cudaLaunchKernel(k.rows_function, dim3(static_cast<unsigned>(sh.n1 / sh.w2), rows),
                                         dim3(k.rows_threads), rows_args, k.rows_shared_bytes, s),
                        "cudaLaunchKernel (cupp_fft_four_step_rows)");
  }
  // (the scratch goes back to the pool on this stream, ordered after both passes)
}

// Engine 6 on one pointer pair: its ticket counters zeroed and its scratch, both from the pool on
// the stream, then one launch of the grid that fits (never more blocks than items).
void launch_axis_four_step(const column_kernel& k, const plan_key& key, const void* twiddles, const exec_pointers& r,
                           int device, cuda::stream_handle stream) {
  const std::int64_t item = key.double_precision ? 16 : 8;
  const four_step_shape sh = axis_four_step_split(key.n[0], item);
  long long ncols = key.batch, istride = key.istride, ostride = key.ostride;
  long long slab = axis_slab_columns(key.n[0], ncols, item, get_engine_options().axis_slab_bytes);
  if (slab == 0) slab = (ncols + axis_max_slabs - 1) / axis_max_slabs;  // (describe() checked; options changed since)
  slab = (slab + sh.w1 - 1) / sh.w1 * sh.w1;
  const long long slabs = (ncols + slab - 1) / slab;
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  cuda::Memory counters = cuda::alloc(static_cast<std::size_t>(1 + slabs) * sizeof(unsigned long long), device, stream);
  cuda::Memory scratch = cuda::alloc(static_cast<std::size_t>(key.n[0] * ncols * item), device, stream);
  cuda::detail::check(cudaMemsetAsync(counters.ptr(), 0, static_cast<std::size_t>(1 + slabs) * sizeof(unsigned long long), s),
                      "cudaMemsetAsync");
  const std::int64_t items = (sh.n1 + sh.n2) * ((ncols + sh.w1 - 1) / sh.w1);
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(k.max_blocks, items));
  const void* in = r.in;
  void* mid = scratch.ptr();
  void* out = r.out;
  const void* tw = twiddles;
  int inverse = key.direction == 1 ? 1 : 0;
  float scale_single = static_cast<float>(key.scale);
  double scale_double = key.scale;
  void* scale = key.double_precision ? static_cast<void*>(&scale_double) : static_cast<void*>(&scale_single);
  void* cnt = counters.ptr();
  void* args[] = {&in, &mid, &out, &ncols, &istride, &ostride, &tw, scale, &inverse, &slab, &cnt};
  // A cooperative launch: the pass B items wait for blocks of the same grid, which its blocks'
  // co-residency guarantees (also under compute-sanitizer). A grid too large for a partitioned
  // device (MPS) is halved until it fits.
  for (unsigned g = grid;; g = (g + 1) / 2) {
    const cudaError_t e = cudaLaunchCooperativeKernel(k.function, dim3(g), dim3(k.threads), args, k.shared_bytes, s);
    if (e != cudaErrorCooperativeLaunchTooLarge || g == 1) {
      cuda::detail::check(e, "cudaLaunchCooperativeKernel (cupp_fft_axis_four_step)");
      break;
    }
    static_cast<void>(cudaGetLastError());  // (clears the refused launch's error)
  }
}

}  // namespace

void launch_columns(const column_kernel& k, const plan_key& key, const void* twiddles, std::span<const exec_pointers> runs,
                    int device, cuda::stream_handle stream) {
  if (key.engine == 5 || key.engine == 6) {
    for (const exec_pointers& r : runs)
      (key.engine == 5 ? launch_four_step : launch_axis_four_step)(k, key, twiddles, r, device, stream);
    return;
  }
  long long ncols = key.batch, istride = key.istride, idist = key.idist, ostride = key.ostride, odist = key.odist;
  int inverse = key.direction == 1 ? 1 : 0;
  float scale_single = static_cast<float>(key.scale);
  double scale_double = key.scale;
  long long blocks = k.blocks_per_group * ((key.batch + key.width - 1) / key.width);
  if (k.max_blocks != 0 && blocks > k.max_blocks) blocks = k.max_blocks;  // the pipelined rows loop over the rest
  const dim3 grid(static_cast<unsigned>(blocks)), block(k.threads);
  for (const exec_pointers& r : runs) {
    const void* in = r.in;
    void* out = r.out;
    const void* tw = twiddles;
    void* args[] = {&in,  &out, &ncols, &istride, &idist, &ostride, &odist, &tw,
                    key.double_precision ? static_cast<void*>(&scale_double) : static_cast<void*>(&scale_single),
                    &inverse};
    cuda::detail::check(cudaLaunchKernel(k.function, grid, block, args, k.shared_bytes, reinterpret_cast<cudaStream_t>(stream)),
                        "cudaLaunchKernel (cupp_fft_columns)");
  }
}

}  // namespace cupp::fft::detail
