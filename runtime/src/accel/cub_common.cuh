// Shared by the CUB accelerator .cu files (never by a .cpp): running a CUB device algorithm with
// its two calls (size query, then the work) and temporary storage from the caller's callback,
// with a scratch area of `scratch` bytes in front of CUB's storage (256-byte aligned), and
// counting the launch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "accel/accelerators.hpp"
#include "accel/cub_sort.hpp"
#include "cuda/check.hpp"
#include "cuda/nvtx.hpp"

namespace cupp::detail::accel {

// call(void* temp, std::size_t& bytes, char* scratch) -> cudaError_t runs the CUB algorithm
// (temp and scratch are null in the size query). Returns the scratch area (valid while the
// callback's allocation lives).
template <class Call>
char* run_cub(cub_family family, const char* what, std::size_t scratch, const temp_alloc& alloc, Call&& call) {
  std::size_t bytes = 0;
  // CUB reports cudaPeekAtLastError() after its launches: clear an error some earlier, handled
  // runtime call left behind (a device probe), or it would be taken for CUB's own.
  (void)cudaGetLastError();
  cuda::detail::check(call(nullptr, bytes, nullptr), what);
  const std::size_t head = (scratch + 255) / 256 * 256;
  char* base = static_cast<char*>(alloc(head + std::max<std::size_t>(bytes, 1)));
  const launch_range range([&] { return std::string(what); });  // CUPP_NVTX_OPS: "cupp.cub::DeviceScan::..."
  cuda::detail::check(call(static_cast<void*>(base + head), bytes, base), what);
  note_cub_launch(family);
  return base;
}

// The byte offset of the key in a cub::KeyValuePair (the position of an arg-reduction).
template <class P>
std::size_t key_offset() {
  const P p{};
  return static_cast<std::size_t>(reinterpret_cast<const char*>(&p.key) - reinterpret_cast<const char*>(&p));
}
// The byte offset of the value (the extreme element itself: max / min).
template <class P>
std::size_t value_offset() {
  const P p{};
  return static_cast<std::size_t>(reinterpret_cast<const char*>(&p.value) - reinterpret_cast<const char*>(&p));
}

// Copies `bytes` from device scratch to device `out` on the stream.
inline void copy_out(void* out, const void* from, std::size_t bytes, cudaStream_t stream) {
  cuda::detail::check(cudaMemcpyAsync(out, from, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
}

}  // namespace cupp::detail::accel
