// Internal: compiled kernels loaded on a device. `library` owns a cudaLibrary_t (runtime API:
// cudaLibraryLoadData / cudaLibraryUnload; libcuda is never linked); `kernel_module` is a loaded
// program with one cudaKernel_t per name expression, in order.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::detail {

class library {
 public:
  library() noexcept = default;
  // Loads a CUBIN or NUL-terminated PTX image; throws CudaError.
  explicit library(std::string_view image);
  ~library();  // unloads; errors are dropped (cuda::detail::ignore)
  library(library&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  library& operator=(library&& other) noexcept;
  library(const library&) = delete;
  library& operator=(const library&) = delete;

  cudaLibrary_t get() const noexcept { return handle_; }
  // The kernel with this (lowered) name; throws CudaError when there is none.
  cudaKernel_t kernel(const std::string& lowered_name) const;
  // The device address of a __device__ variable (an extern "C" name); throws CudaError.
  void* global(const char* name) const;

 private:
  cudaLibrary_t handle_ = nullptr;
};

class kernel_module {
 public:
  kernel_module(library lib, std::vector<cudaKernel_t> kernels) noexcept
      : library_(std::move(lib)), kernels_(std::move(kernels)) {}

  std::size_t size() const noexcept { return kernels_.size(); }
  // Kernel i (the i-th name expression); as the function pointer cudaLaunchKernel takes.
  cudaKernel_t kernel(std::size_t i) const { return kernels_.at(i); }
  const void* function(std::size_t i) const { return reinterpret_cast<const void*>(kernels_.at(i)); }
  // A kernel by its symbol name (an extern "C" kernel that has no name expression).
  cudaKernel_t find(const std::string& symbol) const { return library_.kernel(symbol); }
  // The device address of an extern "C" __device__ variable of the program.
  void* global(const char* name) const { return library_.global(name); }

 private:
  library library_;
  std::vector<cudaKernel_t> kernels_;
};

// Loads a compiled program on `device` and looks up each kernel; throws CudaError.
std::unique_ptr<kernel_module> load_module(const compiled_program& program, int device);

}  // namespace cupp::detail
