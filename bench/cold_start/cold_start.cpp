// The cold-start script (issue 30): 32 typical calls of a first-time user — elementwise ops,
// reductions over axes, sorting, statistics, searching, indexing — run once from a fresh process
// that links cupp::core only. Prints the milliseconds from the CUDA context to the last result
// (synchronized), and how many programs the kernel cache compiled, read from disk or took from the
// kernels built into the library. First it times one call alone: log1p (an op the script does
// not use) of a float32 array made without a kernel, the first call of an op whose loop is built
// in, from the call to its synchronized result (issue 30's <= 5 ms target). Run it with
// an empty CUPP_CACHE_DIR (cold) and again (warm): bench/cold_start/run.sh does both, next to
// CuPy running the same script (cold_start_cupy.py).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

#include "cupp/creation.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "cupp/statistics.hpp"
#include "cupp/ufunc.hpp"
#include "compiler/kernel_cache.hpp"

int main() {
  if (cudaFree(nullptr) != cudaSuccess) {
    std::puts("no CUDA device: cold-start bench skipped");
    return 0;
  }
  using namespace cupp;
  const ndarray probe = empty({65536}, float32);
  cudaDeviceSynchronize();
  const auto probe_start = std::chrono::steady_clock::now();
  const ndarray probed = cupp::log1p(probe);
  cudaDeviceSynchronize();
  const double first_call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - probe_start).count();
  const auto start = std::chrono::steady_clock::now();
  // Data: a 1000 x 512 float32 table from a deterministic wave, a 256 x 256 uint8 image.
  const ndarray t = cupp::sin(arange(0.0, 512000.0, 1.0, float32)).reshape({1000, 512});        // 1, 2
  const ndarray z = divide(subtract(t, mean(t, {.axis = 0})), std_(t, {.axis = 0}));        // 3-6 standardise
  const ndarray e = cupp::exp(subtract(z, max(z, {.axis = 1, .keepdims = true})));                 // 7-9 softmax
  const ndarray soft = divide(e, sum(e, {.axis = 1, .keepdims = true}));                     // 10-11
  const ndarray pts = t(slice(0, 200), slice(0, 3)), centres = t(slice(500, 520), slice(0, 3));
  const ndarray d = sum(square(subtract(pts.reshape({200, 1, 3}), centres.reshape({1, 20, 3}))), {.axis = -1});
  const ndarray nearest = argmin(d, {.axis = 1});                                            // 12-15 distances
  const ndarray counts = bincount(nearest, {.minlength = 20});                              // 16
  const ndarray image = astype(cupp::remainder(arange(std::int64_t{65536}), 256), uint8).reshape({256, 256});
  const ndarray gray = sum(multiply(astype(image, float32), 0.5f), {.axis = 1});            // 17-20 cast, weights
  const histogram_result h = histogram(t, 32);                                               // 21
  const ndarray clipped = clip(t, -0.5, 0.5);                                                // 22
  const ndarray rows = sort(t, -1);                                                          // 23
  const ndarray q = quantile(t, 0.9, {.axis = 1});                                           // 24
  const ndarray c = cumsum(t, {.axis = 1});                                                  // 25
  const unique_result u = unique(image, {.return_counts = true});                            // 26
  const ndarray order = argsort(soft(slice(), 0));                                           // 27
  const ndarray gathered = take(t, order, {.axis = 0});                                      // 28 fancy gather
  const ndarray w = where(greater(t, 0.0), t, 0.0);                                          // 29-30
  const ndarray picked = extract(less(t, -0.9), t);                                          // 31-32 boolean mask
  cudaDeviceSynchronize();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const auto stats = detail::kernel_cache::global().stats();
  std::printf("cold_start_ms %.1f first_call_ms %.2f programs_compiled %llu programs_from_disk %llu "
              "programs_built_in %llu checks %lld %lld %lld %lld %lld\n",
              ms, first_call_ms, static_cast<unsigned long long>(stats.compiles),
              static_cast<unsigned long long>(stats.disk_hits), static_cast<unsigned long long>(stats.builtin_hits),
              static_cast<long long>(counts.size()), static_cast<long long>(u.values.size()),
              static_cast<long long>(picked.size()), static_cast<long long>(gathered.size() + w.size() + c.size()),
              static_cast<long long>(q.size() + rows.size() + clipped.size() + h.hist.size() + gray.size() +
                                     probed.size()));
  return 0;
}
