// Where the host time of a small ufunc call goes, on the GPU machine: an empty kernel launched
// through cupp's RawKernel (the floor the issue measures against), a hand-written 1024-element
// add launched the same way (a real kernel with parameters), cupp::add with out= and allocating,
// and the host-only steps of the call (loop resolution, operand and option construction).
// Medians of batches of back-to-back calls; the stream is drained between batches.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/ufunc.hpp"

namespace {

double median_us(const std::function<void()>& call, bool drain) {
  constexpr int warmup = 2000, batches = 40, batch = 500;
  for (int i = 0; i < warmup; ++i) call();
  if (drain && cudaDeviceSynchronize() != cudaSuccess) std::abort();
  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) call();
    const auto stop = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / batch);
    if (drain && cudaDeviceSynchronize() != cudaSuccess) std::abort();
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("bench_host_overhead: no CUDA device; nothing to measure");
    return 0;
  }
  cupp::cuda::RawKernel empty(R"(extern "C" __global__ void empty() {})", "empty");
  cupp::cuda::RawKernel add_kernel(R"(extern "C" __global__ void add(unsigned n, const float* a, const float* b, float* c) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; })",
                                   "add");
  const cupp::ndarray a = cupp::zeros({1024}, cupp::float32), b = cupp::zeros({1024}, cupp::float32);
  cupp::ndarray c = cupp::zeros({1024}, cupp::float32);
  const float* pa = static_cast<const float*>(a.data());
  const float* pb = static_cast<const float*>(b.data());
  float* pc = static_cast<float*>(c.data());
  const unsigned n = 1024;
  const double t_empty = median_us([&] { empty({1}, {1}); }, true);
  const double t_raw_add = median_us([&] { add_kernel({4}, {256}, n, pa, pb, pc); }, true);
  const double t_out = median_us([&] { cupp::add(a, b, {.out = c}); }, true);
  const double t_alloc = median_us([&] { const cupp::ndarray r = cupp::add(a, b); }, true);
  const cupp::ufunc_options options{.out = c};
  const double t_out_prebuilt = median_us([&] { cupp::add(a, b, options); }, true);
  const cupp::operand both[] = {a, b};
  const double t_resolve = median_us([&] { (void)cupp::resolve_loop(cupp::add, both, options); }, false);
  const double t_operands = median_us([&] { const cupp::operand x[] = {a, b}; (void)x; }, false);
  std::printf("empty kernel (RawKernel)          %6.2f us\n", t_empty);
  std::printf("1024-element add (RawKernel)      %6.2f us\n", t_raw_add);
  std::printf("cupp::add, out=                   %6.2f us  (%.2fx empty)\n", t_out, t_out / t_empty);
  std::printf("cupp::add, out= (options built)   %6.2f us  (%.2fx empty)\n", t_out_prebuilt, t_out_prebuilt / t_empty);
  std::printf("cupp::add, allocating             %6.2f us  (%.2fx empty)\n", t_alloc, t_alloc / t_empty);
  std::printf("host only: resolve_loop           %6.3f us\n", t_resolve);
  std::printf("host only: two operands           %6.3f us\n", t_operands);
  return 0;
}
