// User kernels from CUDA source: C++ counterparts of CuPy's RawModule and RawKernel. The source
// is compiled with NVRTC on first use (per device) through cupp's kernel cache (memory and disk),
// so a kernel costs one compile per machine, not per process. Launches go to a given stream or
// the current one.
//
//   cupp::cuda::RawKernel scale(R"(
//     extern "C" __global__ void scale(float* x, float a, unsigned n) {
//       unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
//       if (i < n) x[i] *= a;
//     })", "scale");
//   scale({(n + 255) / 256}, {256}, ptr, 2.0f, n);   // grid, block, then the kernel's arguments
//
// Template kernels go through RawModule with name expressions:
//   cupp::cuda::RawModule m(source, {.name_expressions = {"axpy<float>", "axpy<double>"}});
//   m.get_function("axpy<float>")({blocks}, {256}, x, y, a, n);
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cupp/cuda/stream.hpp"

namespace cupp::cuda {

// Grid or block dimensions (CUDA's dim3 without the CUDA header).
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct launch_config {
  dim3 grid;
  dim3 block;
  std::size_t shared_mem = 0;      // dynamic shared memory, bytes
  std::optional<Stream> stream;    // the current stream when empty
};

struct raw_options {
  std::vector<std::string> options;           // compiler options, e.g. "-DN=4", "--use_fast_math"
  std::vector<std::string> name_expressions;  // template instantiations to compile and look up
  std::string backend = "nvrtc";              // or "nvcc" (extern "C" kernels only; the NVCC variable names it)
};

namespace detail {
struct raw_program;  // the source, options and identity shared by a module and its kernels
}

class RawKernel {
 public:
  // One extern "C" kernel `name` from `code`.
  RawKernel(std::string code, std::string name, raw_options options = {});

  // Launches with the arguments passed by value (each trivially copyable: pointers, scalars,
  // structs), as the kernel's parameters declare them.
  template <class... Args>
  void operator()(dim3 grid, dim3 block, const Args&... args) const {
    launch({.grid = grid, .block = block}, args...);
  }
  template <class... Args>
  void launch(const launch_config& config, const Args&... args) const {
    static_assert((std::is_trivially_copyable_v<Args> && ...), "kernel arguments must be trivially copyable");
    void* pointers[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
    launch_with(config, pointers);
  }
  // Launches with an array of pointers to the arguments (cudaLaunchKernel's form).
  void launch_with(const launch_config& config, void** args) const;

  // Compiles and loads for the current device now (otherwise the first launch does).
  void compile() const;
  const std::string& name() const noexcept { return name_; }
  int max_threads_per_block() const;  // for the current device
  int num_regs() const;

 private:
  friend class RawModule;
  RawKernel(std::shared_ptr<detail::raw_program> program, std::string name);
  const void* function() const;  // the loaded kernel on the current device

  std::shared_ptr<detail::raw_program> program_;
  std::string name_;
  int expression_index_ = -1;  // position in the name expressions, or -1 for an extern "C" name
};

class RawModule {
 public:
  explicit RawModule(std::string code, raw_options options = {});
  // A kernel of the module: an extern "C" name, or one of the name expressions.
  RawKernel get_function(std::string_view name) const;
  // Compiles and loads for the current device now (otherwise the first launch does).
  void compile() const;

 private:
  std::shared_ptr<detail::raw_program> program_;
};

}  // namespace cupp::cuda
