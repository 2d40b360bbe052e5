// Reductions on the GPU machine (issue 8's cases), cupp's side: sum and max of 2^28 float32, sum
// over axis 0 and axis 1 of a 16384 x 16384 float32 array, as a fraction of the copy floor
// (bytes read over time, against cudaMemcpy device-to-device's bandwidth in the same run), and
// the host time of a warm sum of 1024 float32 as a multiple of an empty launch through cupp's
// RawKernel. bench/reductions_peers.py times the same cases with CuPy and PyTorch; the two are
// printed side by side by bench/run_reductions_bench.sh. Medians after warm-up; CUDA events.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/reductions.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

double median_ms(const std::function<void()>& run, int reps = 20) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < 3; ++i) run();
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(start), "record");
    run();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return t[t.size() / 2];
}

double host_us(const std::function<void()>& call) {
  for (int i = 0; i < 2000; ++i) call();
  check(cudaDeviceSynchronize(), "drain");
  std::vector<double> per_call;
  for (int b = 0; b < 30; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 300; ++i) call();
    const auto t1 = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / 300);
    check(cudaDeviceSynchronize(), "drain");
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("bench_reductions: no CUDA device; nothing to measure");
    return 0;
  }
  const std::int64_t n = std::int64_t(1) << 28, side = 16384;
  cupp::ndarray x = cupp::empty({n}, cupp::float32);
  x.fill(1.0);
  cupp::ndarray scratch = cupp::empty({n}, cupp::float32);
  const double bytes = static_cast<double>(n) * 4;
  const double copy_ms = median_ms([&] {
    check(cudaMemcpyAsync(scratch.data(), x.data(), static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice, 0), "memcpy");
  });
  const double floor_gbs = 2 * bytes / (copy_ms * 1e6);
  std::printf("floor cudaMemcpy d2d: %.3f ms, %.1f GB/s (read + write)\n", copy_ms, floor_gbs);
  auto report = [&](const char* name, double ms, double read_bytes, double target) {
    const double fraction = read_bytes / (ms * 1e6) / floor_gbs;
    std::printf("%-28s %8.3f ms  %5.1f %% of the copy floor  (target %.0f %%: %s)\n", name, ms, 100 * fraction,
                100 * target, fraction >= target ? "pass" : "FAIL");
  };
  report("sum float32 2^28", median_ms([&] { (void)cupp::sum(x); }), bytes, 0.95);
  report("max float32 2^28", median_ms([&] { (void)cupp::max(x); }), bytes, 0.95);
  const cupp::ndarray square = x.reshape({side, side});
  report("sum axis 0 of 16384^2", median_ms([&] { (void)cupp::sum(square, {.axis = 0}); }), bytes, 0.95);
  report("sum axis 1 of 16384^2", median_ms([&] { (void)cupp::sum(square, {.axis = 1}); }), bytes, 0.95);
  const float total = cupp::sum(x).to_vector<float>()[0];
  std::printf("check: sum of 2^28 ones = %.1f (%s)\n", total, total == 268435456.0f ? "exact" : "WRONG");

  cupp::cuda::RawKernel empty(R"(extern "C" __global__ void empty() {})", "empty");
  const cupp::ndarray small = cupp::zeros({1024}, cupp::float32);
  const double t_empty = host_us([&] { empty({1}, {1}); });
  const double t_sum = host_us([&] { (void)cupp::sum(small); });
  std::printf("host: empty launch %.2f us, sum of 1024 float32 %.2f us (%.2fx; target 2.5x: %s)\n", t_empty, t_sum,
              t_sum / t_empty, t_sum / t_empty <= 2.5 ? "pass" : "FAIL");
  return 0;
}
