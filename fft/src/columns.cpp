// cupp's column and row kernels as plan engines (columns.hpp): the NVRTC program of one
// instantiation of cupp_fft_columns (fft/device/cupp/fft/columns.cuh), its twiddle table and its
// launches.
#include "columns.hpp"

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "../device/cupp/fft/columns.cuh"
#include "cuda/check.hpp"
#include "cupp/errors.hpp"
#include "fft_device_headers.hpp"

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

column_kernel load_column_kernel(const plan_key& key, int device) {
  const std::int64_t n = key.n[0];
  const int width = key.width;
  const bool dbl = key.double_precision, pipelined = key.engine == 4, rows = key.engine == 2 || pipelined,
             paired = key.engine == 3;
  const std::int64_t item = dbl ? 16 : 8, points = paired ? n / 2 : n;  // (a pair's block: n/2 rows)
  column_kernel k;
  k.threads = static_cast<unsigned>(points / 16 * width);
  // (columns<C, N, W, Rows>::tile_bytes: the row kernel's tile pads one element every 16; the
  // pipelined one's buffer of W n values follows it: pipelined_bytes)
  k.shared_bytes = static_cast<unsigned>(((rows ? points + points / 16 : points) + (pipelined ? points : 0)) * width * item);
  k.blocks_per_group = paired ? 2 : 1;
  int most = 0;
  cuda::detail::check(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                      "cudaDeviceGetAttribute");
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

void* upload_twiddles(std::int64_t n, bool dbl, bool pair) {
  void* table = nullptr;
  const int points = static_cast<int>(n);
  const std::size_t count = static_cast<std::size_t>(pair ? cupp_fft_columns::twiddle_count(points / 2) + points / 2
                                                          : cupp_fft_columns::twiddle_count(points));
  const std::size_t bytes = count * (dbl ? sizeof(double2) : sizeof(float2));
  cuda::detail::check(cudaMalloc(&table, bytes), "cudaMalloc");
  auto upload = [&](const void* host) {
    const cudaError_t r = cudaMemcpy(table, host, bytes, cudaMemcpyHostToDevice);
    if (r != cudaSuccess) cudaFree(table);
    cuda::detail::check(r, "cudaMemcpy");
  };
  if (dbl) {
    std::vector<double2> host(count);
    if (pair) cupp_fft_columns::fill_pair_twiddles(host.data(), points);
    else cupp_fft_columns::fill_twiddles(host.data(), points);
    upload(host.data());
  } else {
    std::vector<float2> host(count);
    if (pair) cupp_fft_columns::fill_pair_twiddles(host.data(), points);
    else cupp_fft_columns::fill_twiddles(host.data(), points);
    upload(host.data());
  }
  return table;
}

void launch_columns(const column_kernel& k, const plan_key& key, const void* twiddles, std::span<const exec_pointers> runs,
                    cuda::stream_handle stream) {
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
