// Test support: a kernel that keeps the GPU busy for a given number of clock cycles and then
// writes a value, compiled once per process with NVRTC for the current device. Used to keep
// work pending on a stream (event timing, cross-stream ordering).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "gpu_support.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::test {

class spin_kernel {
 public:
  // Spins for `cycles` clock cycles in one thread, then stores `value` to *out (if not null).
  void launch(cudaStream_t stream, long long cycles, int* out, int value) const {
    void* args[] = {&cycles, &out, &value};
    CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(1), dim3(1), args, 0, stream));
  }
  // Copies *in to *out once the stream reaches it (to observe ordering between streams).
  void launch_copy(cudaStream_t stream, const int* in, int* out) const {
    void* args[] = {&in, &out};
    CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(copy_), dim3(1), dim3(1), args, 0, stream));
  }

  static const spin_kernel& get() {
    static const spin_kernel instance;
    return instance;
  }

 private:
  spin_kernel() {
    int dev = 0, major = 0, minor = 0;
    CUPP_CUDA_CHECK(cudaGetDevice(&dev));
    CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    const auto out = detail::nvrtc_compile(
        {.program_name = "cupp_test_spin",
         .source = R"(
extern "C" __global__ void cupp_test_spin(long long cycles, int* out, int value) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
  if (out) *out = value;
}
extern "C" __global__ void cupp_test_copy(const int* in, int* out) { *out = *in; }
)",
         .name_expressions = {},
         .arch = major * 10 + minor});
    library_ = std::make_unique<loaded_library>(out.binary);
    kernel_ = library_->kernel("cupp_test_spin");
    copy_ = library_->kernel("cupp_test_copy");
  }
  std::unique_ptr<loaded_library> library_;
  cudaKernel_t kernel_ = nullptr, copy_ = nullptr;
};

// Clock cycles for about `ms` milliseconds on the current device.
inline long long cycles_for_ms(double ms) {
  int dev = 0, khz = 0;
  CUPP_CUDA_CHECK(cudaGetDevice(&dev));
  CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  return static_cast<long long>(ms * khz);
}

}  // namespace cupp::test
