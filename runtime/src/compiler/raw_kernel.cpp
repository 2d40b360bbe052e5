// RawModule / RawKernel: user CUDA source compiled through the kernel cache under an identity
// made once from the source, options and name expressions (so a launch never hashes source),
// with each kernel's handle remembered per device.
#include "cupp/cuda/raw_kernel.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

#include "compiler/hash.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {

namespace detail {

struct raw_program {
  std::string code;
  raw_options options;
  std::string identity;  // "raw:<sha256>": never an op name

  raw_program(std::string c, raw_options o) : code(std::move(c)), options(std::move(o)) {
    if (options.backend != "nvrtc" && options.backend != "nvcc")
      throw ValueError("Unknown compiler backend '" + options.backend + "' (expected \"nvrtc\" or \"nvcc\")");
    if (options.backend == "nvcc" && !options.name_expressions.empty())
      throw ValueError("The nvcc backend compiles extern \"C\" kernels only: name expressions need \"nvrtc\"");
    cupp::detail::sha256 h;
    h.field(options.backend);
    h.field(code);
    h.field("options");
    for (const auto& opt : options.options) h.field(opt);
    h.field("names");
    for (const auto& expr : options.name_expressions) h.field(expr);
    identity = "raw:" + cupp::detail::to_hex(h.finish());
  }

  const cupp::detail::kernel_module& module(int device) const {
    return cupp::detail::kernel_cache::global().get(device, {identity, 0}, [this] {
      return cupp::detail::program_source{"cupp_raw_module", code, options.name_expressions, options.options,
                                          options.backend == "nvcc"};
    });
  }
};

}  // namespace detail

namespace {

[[noreturn]] void no_such_kernel(std::string_view name) {
  throw ValueError("RawModule has no kernel named '" + std::string(name) +
                   "' among its name expressions; extern \"C\" kernels are looked up by their name");
}

cudaFuncAttributes attributes_of(const void* function) {
  cudaFuncAttributes attrs{};
  cuda::detail::check(cudaFuncGetAttributes(&attrs, function), "cudaFuncGetAttributes");
  return attrs;
}

}  // namespace

RawKernel::RawKernel(std::string code, std::string name, raw_options options)
    : RawKernel(std::make_shared<detail::raw_program>(std::move(code), std::move(options)), std::move(name)) {}

RawKernel::RawKernel(std::shared_ptr<detail::raw_program> program, std::string name)
    : program_(std::move(program)), name_(std::move(name)) {
  const auto& exprs = program_->options.name_expressions;
  if (const auto it = std::find(exprs.begin(), exprs.end(), name_); it != exprs.end())
    expression_index_ = static_cast<int>(it - exprs.begin());
}

const void* RawKernel::function() const {
  const cupp::detail::kernel_module& m = program_->module(current_device());
  if (expression_index_ >= 0) return m.function(static_cast<std::size_t>(expression_index_));
  return reinterpret_cast<const void*>(m.find(name_));
}

void RawKernel::launch_with(const launch_config& config, void** args) const {
  const Stream stream = config.stream ? *config.stream : current_stream();
  DeviceGuard guard(stream.device());
  const void* f = function();
  const cupp::detail::launch_range range([&] { return "RawKernel " + name_; });
  cuda::detail::check(
      cudaLaunchKernel(f, ::dim3(config.grid.x, config.grid.y, config.grid.z),
                       ::dim3(config.block.x, config.block.y, config.block.z), args, config.shared_mem, stream.handle()),
      "cudaLaunchKernel");
}

void RawKernel::compile() const { (void)function(); }

int RawKernel::max_threads_per_block() const { return attributes_of(function()).maxThreadsPerBlock; }

int RawKernel::num_regs() const { return attributes_of(function()).numRegs; }

RawModule::RawModule(std::string code, raw_options options)
    : program_(std::make_shared<detail::raw_program>(std::move(code), std::move(options))) {}

RawKernel RawModule::get_function(std::string_view name) const {
  if (name.find('<') != std::string_view::npos) {
    const auto& exprs = program_->options.name_expressions;
    if (std::find(exprs.begin(), exprs.end(), name) == exprs.end()) no_such_kernel(name);
  }
  return RawKernel(program_, std::string(name));
}

void RawModule::compile() const { (void)program_->module(current_device()); }

}  // namespace cupp::cuda
