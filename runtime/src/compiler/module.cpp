// Loading compiled programs with the CUDA runtime's library API, with RAII over cudaLibrary_t.
#include "compiler/module.hpp"

#include "cuda/check.hpp"
#include "cupp/cuda/stream.hpp"

namespace cupp::detail {

library::library(std::string_view image) {
  cuda::detail::check(cudaLibraryLoadData(&handle_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
                      "cudaLibraryLoadData");
}

library::~library() {
  if (handle_) cuda::detail::ignore(cudaLibraryUnload(handle_));
}

library& library::operator=(library&& other) noexcept {
  if (this != &other) {
    if (handle_) cuda::detail::ignore(cudaLibraryUnload(handle_));
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

cudaKernel_t library::kernel(const std::string& lowered_name) const {
  cudaKernel_t k = nullptr;
  cuda::detail::check(cudaLibraryGetKernel(&k, handle_, lowered_name.c_str()), "cudaLibraryGetKernel");
  return k;
}

void* library::global(const char* name) const {
  void* address = nullptr;
  std::size_t bytes = 0;
  cuda::detail::check(cudaLibraryGetGlobal(&address, &bytes, handle_, name), "cudaLibraryGetGlobal");
  return address;
}

std::unique_ptr<kernel_module> load_module(const compiled_program& program, int device) {
  const cuda::DeviceGuard guard(device);
  library lib(program.binary);
  std::vector<cudaKernel_t> kernels;
  kernels.reserve(program.lowered_names.size());
  for (const std::string& name : program.lowered_names) kernels.push_back(lib.kernel(name));
  return std::make_unique<kernel_module>(std::move(lib), std::move(kernels));
}

}  // namespace cupp::detail
