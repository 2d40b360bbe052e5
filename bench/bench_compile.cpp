// Compile latency of a new element-wise kernel, the counterpart of bench/compile_cupy.py (CuPy's
// ElementwiseKernel) in the same run (bench/run_compile_bench.sh drives both):
//   bench_compile first  START_NS   one fresh process: times the first call (compile or disk hit,
//                                   load, launch, result on the host) from the first cupp call
//                                   after the CUDA context exists, and from process start
//                                   (START_NS: the launcher's CLOCK_REALTIME in ns)
//   bench_compile hit               in-memory kernel cache hit and launch host time (medians)
// The kernel computes z = x * y + 1 on 2^20 float32 and is checked. CUPP_CACHE_DIR decides
// whether the disk cache is cold or warm. Prints one "key value" line per figure.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/kernel_cache.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

double realtime_ms_since(long long start_ns) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return (std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() - start_ns) / 1e6;
}

const char* kSource = R"(
extern "C" __global__ void bench_fma(const float* x, const float* y, float* z, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] * y[i] + 1.0f;
})";

constexpr unsigned kN = 1u << 20;

struct buffers {
  cupp::cuda::Memory x, y, z;
  buffers() : x(cupp::cuda::alloc(kN * 4)), y(cupp::cuda::alloc(kN * 4)), z(cupp::cuda::alloc(kN * 4)) {
    std::vector<float> a(kN, 2.0f), b(kN, 3.0f);
    cudaMemcpy(x.ptr(), a.data(), kN * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(y.ptr(), b.data(), kN * 4, cudaMemcpyHostToDevice);
  }
};

bool run_once(const cupp::cuda::RawKernel& k, buffers& b) {
  k({(kN + 255) / 256}, {256}, static_cast<const float*>(b.x.ptr()), static_cast<const float*>(b.y.ptr()),
    static_cast<float*>(b.z.ptr()), kN);
  float last = 0;
  cudaMemcpy(&last, static_cast<float*>(b.z.ptr()) + kN - 1, 4, cudaMemcpyDeviceToHost);
  return last == 7.0f;
}

int first(long long start_ns) {
  cudaFree(nullptr);  // the CUDA context exists from here on
  const double context_ms = realtime_ms_since(start_ns);
  buffers b;
  cudaDeviceSynchronize();
  const auto t0 = clock_type::now();
  const cupp::cuda::RawKernel k(kSource, "bench_fma");
  const bool ok = run_once(k, b);
  const double first_ms = ms_since(t0);
  const double from_start_ms = realtime_ms_since(start_ns);
  const auto stats = cupp::detail::kernel_cache::global().stats();
  std::printf("first_call_ms %.3f\nprocess_start_to_result_ms %.3f\ncontext_ready_ms %.3f\ncompiles %llu\ndisk_hits %llu\ncorrect %d\n",
              first_ms, from_start_ms, context_ms, static_cast<unsigned long long>(stats.compiles),
              static_cast<unsigned long long>(stats.disk_hits), ok ? 1 : 0);
  return ok ? 0 : 1;
}

int hit() {
  buffers b;
  const cupp::cuda::RawKernel k(kSource, "bench_fma");
  if (!run_once(k, b)) return 1;
  k.compile();
  std::vector<double> lookup_ns, launch_ns;
  // compile() after the first is the cache hit (device lookup + shared-lock table lookup); a
  // launch adds the stream lookup and cudaLaunchKernel. Medians of batches.
  for (int rep = 0; rep < 50; ++rep) {
    constexpr int batch = 1000;
    auto t = clock_type::now();
    for (int i = 0; i < batch; ++i) k.compile();
    lookup_ns.push_back(std::chrono::duration<double, std::nano>(clock_type::now() - t).count() / batch);
    t = clock_type::now();
    for (int i = 0; i < batch; ++i)
      k({(kN + 255) / 256}, {256}, static_cast<const float*>(b.x.ptr()), static_cast<const float*>(b.y.ptr()),
        static_cast<float*>(b.z.ptr()), kN);
    launch_ns.push_back(std::chrono::duration<double, std::nano>(clock_type::now() - t).count() / batch);
    cudaDeviceSynchronize();
  }
  std::sort(lookup_ns.begin(), lookup_ns.end());
  std::sort(launch_ns.begin(), launch_ns.end());
  std::printf("memory_hit_ns %.1f\nlaunch_host_ns %.1f\n", lookup_ns[lookup_ns.size() / 2], launch_ns[launch_ns.size() / 2]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!cupp::cuda::is_available()) {
    std::puts("no CUDA device: nothing to measure");
    return 0;
  }
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "first" && argc > 2) return first(std::atoll(argv[2]));
  if (mode == "hit") return hit();
  std::fprintf(stderr, "usage: bench_compile first START_NS | hit\n");
  return 2;
}
