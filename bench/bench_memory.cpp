// Host time of one 4 KiB allocate + free, in one run: through cupp's pool (cupp::cuda::alloc and
// the pool's own allocate/deallocate) next to cudaMalloc/cudaFree and cudaMallocAsync/
// cudaFreeAsync. Batches of pairs are timed with steady_clock after warm-up; the table gives the
// median per pair, and the ratios against the targets (pool <= 1 us and <= 0.6x cudaMallocAsync).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"

namespace {

constexpr std::size_t block_bytes = 4096;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorName(err));
    std::exit(1);
  }
}

// Median nanoseconds per call of `pair` over `batches` batches of `batch` calls, after `warmup` calls.
double median_ns(const std::function<void()>& pair, int warmup, int batches, int batch) {
  for (int i = 0; i < warmup; ++i) pair();
  std::vector<double> per_call;
  per_call.reserve(static_cast<std::size_t>(batches));
  for (int b = 0; b < batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) pair();
    const auto stop = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / batch);
  }
  std::nth_element(per_call.begin(), per_call.begin() + batches / 2, per_call.end());
  return per_call[static_cast<std::size_t>(batches / 2)];
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s\n  Times a 4 KiB allocate+free through cupp's memory pool, cudaMalloc/cudaFree and\n"
                  "  cudaMallocAsync/cudaFreeAsync on the current device (median host time per pair).\n", argv[0]);
      return 0;
    }
  if (!cupp::cuda::is_available()) {
    std::printf("bench_memory: no CUDA device available; nothing measured\n");
    return 0;
  }
  namespace cc = cupp::cuda;
  const int device = cc::current_device();
  const cc::Stream stream = cc::Stream::create();
  cc::StreamGuard guard(stream);
  const cudaStream_t s = stream.handle();
  check(cudaFree(nullptr), "cudaFree(nullptr)");  // the context exists before anything is timed

  auto& pool = cc::get_default_memory_pool();
  const double through_alloc = median_ns([] { cc::Memory m = cc::alloc(block_bytes); }, 20000, 400, 250);
  const double pool_direct = median_ns(
      [&] { pool.deallocate(pool.allocate(block_bytes, device, s), block_bytes, device, s); }, 20000, 400, 250);
  const double malloc_async = median_ns(
      [&] {
        void* p = nullptr;
        check(cudaMallocAsync(&p, block_bytes, s), "cudaMallocAsync");
        check(cudaFreeAsync(p, s), "cudaFreeAsync");
      },
      5000, 200, 100);
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  const double malloc_sync = median_ns(
      [&] {
        void* p = nullptr;
        check(cudaMalloc(&p, block_bytes), "cudaMalloc");
        check(cudaFree(p), "cudaFree");
      },
      50, 60, 10);

  const auto props = cc::get_device_properties(device);
  std::printf("4 KiB allocate + free, median host time per pair (%s, device %d)\n", props.name.c_str(), device);
  std::printf("  %-40s %12s %14s\n", "path", "ns/pair", "vs MallocAsync");
  auto row = [&](const char* name, double ns) { std::printf("  %-40s %12.1f %13.2fx\n", name, ns, ns / malloc_async); };
  row("cupp::cuda::alloc (default pool)", through_alloc);
  row("MemoryPool::allocate/deallocate", pool_direct);
  row("cudaMallocAsync/cudaFreeAsync", malloc_async);
  row("cudaMalloc/cudaFree", malloc_sync);
  std::printf("ratios: alloc/cudaMallocAsync %.2f, alloc/cudaMalloc %.4f\n", through_alloc / malloc_async,
              through_alloc / malloc_sync);
  const bool fast = through_alloc <= 1000.0, relative = through_alloc <= 0.6 * malloc_async;
  std::printf("target: pool <= 1 us median: %s; pool <= 0.6x cudaMallocAsync: %s\n", fast ? "met" : "MISSED",
              relative ? "met" : "MISSED");
  return 0;
}
