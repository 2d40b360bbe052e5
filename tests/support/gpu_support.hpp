// Test support for GPU tests: skip with a message when no device is usable, RAII device buffers
// and a loaded NVRTC library, all with every CUDA return code checked. (The runtime's own
// device, memory and module layers replace these as they arrive.)
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#define CUPP_CUDA_CHECK(call)                                                                     \
  do {                                                                                            \
    const cudaError_t cupp_rc_ = (call);                                                          \
    if (cupp_rc_ != cudaSuccess)                                                                  \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorName(cupp_rc_));   \
  } while (0)

// Skips the current test, with the reason, when no CUDA device can be used.
#define CUPP_REQUIRE_GPU()                                                                        \
  do {                                                                                            \
    int cupp_count_ = 0;                                                                          \
    const cudaError_t cupp_rc_ = cudaGetDeviceCount(&cupp_count_);                                \
    if (cupp_rc_ != cudaSuccess || cupp_count_ == 0)                                              \
      GTEST_SKIP() << "no CUDA device (" << (cupp_rc_ != cudaSuccess ? cudaGetErrorName(cupp_rc_) \
                                                                     : "0 devices")               \
                   << "): GPU test skipped";                                                      \
  } while (0)

namespace cupp::test {

// Device memory holding a copy of a host vector; freed on destruction.
template <class T>
class device_vector {
 public:
  explicit device_vector(std::size_t n) : size_(n) { CUPP_CUDA_CHECK(cudaMalloc(&ptr_, bytes() ? bytes() : 1)); }
  explicit device_vector(const std::vector<T>& host) : device_vector(host.size()) {
    CUPP_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  ~device_vector() { cudaFree(ptr_); }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;
  T* get() const noexcept { return static_cast<T*>(ptr_); }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  std::vector<T> to_host() const {
    std::vector<T> out(size_);
    CUPP_CUDA_CHECK(cudaMemcpy(out.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return out;
  }

 private:
  void* ptr_ = nullptr;
  std::size_t size_;
};

// A CUBIN loaded with the runtime's library API (no driver API linked); unloaded on destruction.
class loaded_library {
 public:
  explicit loaded_library(const std::string& cubin) {
    CUPP_CUDA_CHECK(cudaLibraryLoadData(&lib_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  }
  ~loaded_library() { cudaLibraryUnload(lib_); }
  loaded_library(const loaded_library&) = delete;
  loaded_library& operator=(const loaded_library&) = delete;
  cudaKernel_t kernel(const std::string& lowered_name) const {
    cudaKernel_t k = nullptr;
    CUPP_CUDA_CHECK(cudaLibraryGetKernel(&k, lib_, lowered_name.c_str()));
    return k;
  }

 private:
  cudaLibrary_t lib_ = nullptr;
};

}  // namespace cupp::test
