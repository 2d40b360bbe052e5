// Example for docs/user-kernels.md, built and run by the tests (CTest `example_raw_kernel`,
// label gpu): a RawKernel and a template RawModule on device memory from cupp's pool.
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/raw_kernel.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/cuda/stream.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  using namespace cupp::cuda;
  if (!is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const unsigned n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  Memory x = alloc(n * sizeof(float));
  cudaMemcpy(x.ptr(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  // One extern "C" kernel.
  RawKernel scale(R"(
    extern "C" __global__ void scale(float* x, float a, unsigned n) {
      unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) x[i] *= a;
    })",
                  "scale");
  scale({(n + 255) / 256}, {256}, static_cast<float*>(x.ptr()), 3.0f, n);

  // Template kernels: name the instantiations; launch on a stream of our own.
  RawModule module(R"(
    template <class T>
    __global__ void add_scalar(T* x, T v, unsigned n) {
      unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) x[i] += v;
    })",
                   {.name_expressions = {"add_scalar<float>", "add_scalar<int>"}});
  const Stream stream = Stream::create();
  module.get_function("add_scalar<float>")
      .launch({.grid = {(n + 255) / 256}, .block = {256}, .stream = stream}, static_cast<float*>(x.ptr()), 0.5f, n);
  stream.synchronize();

  cudaMemcpy(host.data(), x.ptr(), n * sizeof(float), cudaMemcpyDeviceToHost);
  const bool ok = host[0] == 3.5f && host[n - 1] == 3.5f;
  std::printf("x[0] = %g, x[n-1] = %g: %s\n", host[0], host[n - 1], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
