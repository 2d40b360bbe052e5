// The 1-D launch of the routines' kernels (launch.hpp).
#include "compiler/launch.hpp"

#include <cuda_runtime.h>

#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/nvtx.hpp"

namespace cupp::detail {

void launch_1d(const void* kernel, std::int64_t n, void** args, int device, std::optional<std::int64_t> blocks,
               unsigned threads) {
  device_scope scope(device);
  const std::int64_t b = blocks ? *blocks : grid_blocks(n, threads);
  const cupp::detail::launch_range range([&] { return kernel_label(kernel) + " n=" + std::to_string(n); });
  cuda::detail::check(cudaLaunchKernel(kernel, dim3(static_cast<unsigned>(b)), dim3(threads), args, 0,
                                       cuda::detail::current_stream_handle(device)),
                      "cudaLaunchKernel");
}

}  // namespace cupp::detail
