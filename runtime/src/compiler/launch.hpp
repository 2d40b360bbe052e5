// Internal: the launch kit of the routines' NVRTC programs. A routine program is named, has its
// device code in an embedded header under runtime/device/cupp/dev/routines/ (the source handed
// to NVRTC is a few lines: defines for the instantiation and that header's #include), and lists
// its kernels' name expressions; the kernel cache compiles and loads it once per device and key.
// Its kernels launch as a 1-D grid over n elements (the device side loops with CUPP_GRID_LOOP
// from <cupp/dev/launch.cuh>) on the current stream of the array's device.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/kernel_cache.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/cuda/stream.hpp"

namespace cupp::detail {

// A routine's program: what the kernel cache compiles on a miss, and what the compile tests
// (routine_programs.hpp) hand NVRTC for every instantiation.
struct routine_program {
  std::string name;                  // NVRTC program name, e.g. "cupp_sorting"
  std::string source;                // defines and the embedded header's #include
  std::vector<std::string> kernels;  // name expressions, in the order kernel_module::function(k) finds them
  // A module's program: its embedded device headers and their digest (cmake/CuppModule.cmake's
  // <module>_device_headers.hpp gives both); empty for the runtime's own.
  std::span<const embedded_header> headers{};
  std::string_view headers_digest{};

  program_source to_source() const { return {name, source, kernels, {}, false, headers, headers_digest}; }
};

// The routine program `key` on `device`, compiled and loaded on first use (make() runs once per
// device and key). A key must always stand for the same program.
template <class Make>
const kernel_module& routine_module(int device, kernel_key key, Make&& make) {
  return kernel_cache::global().get(device, key, [&] { return make().to_source(); });
}

inline constexpr unsigned launch_threads = 256;

// Blocks of `threads` covering n elements, at least 1 and at most 2^20 (grid-stride kernels
// loop over the rest).
constexpr std::int64_t grid_blocks(std::int64_t n, unsigned threads = launch_threads) {
  const std::int64_t b = (n + threads - 1) / threads;
  return b < 1 ? 1 : b > (std::int64_t{1} << 20) ? (std::int64_t{1} << 20) : b;
}

// Launches `kernel` as a 1-D grid (grid_blocks(n), or `blocks`) of `threads` on the current
// stream of `device`, with `device` current. Throws CudaError.
void launch_1d(const void* kernel, std::int64_t n, void** args, int device, std::optional<std::int64_t> blocks = {},
               unsigned threads = launch_threads);

}  // namespace cupp::detail
