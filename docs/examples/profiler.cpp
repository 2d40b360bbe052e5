// Example for docs/profiler.md, built and run by the tests (CTest `example_profiler`, label gpu):
// NVTX ranges around the steps of a computation, a wrapped function, and benchmark() of an op.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/profiler.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>
#include <cupp/creation.hpp>

#include <cstdio>
#include <iostream>

int main() {
  namespace prof = cupp::profiler;
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray x = cupp::arange(0.0, 1 << 24, 1.0, cupp::float32).reshape({4096, 4096});

  // [snippet ranges]
  // A range per step: Nsight Systems shows "standardise" with the kernels launched inside it.
  cupp::ndarray z;
  {
    const prof::time_range range("standardise", {.color_id = 1});
    const cupp::ndarray mu = cupp::mean(x, {.axis = 1, .keepdims = true});
    const cupp::ndarray sigma = cupp::std_(x, {.axis = 1, .keepdims = true});
    z = cupp::divide(cupp::subtract(x, mu), sigma);
  }

  // Every call of a wrapped function is a range of its own (with a payload: the call's size).
  auto row_max = prof::with_range("row_max", [](const cupp::ndarray& a) { return cupp::max(a, {.axis = 1}); },
                                  {.argb_color = 0xFF8000FFu, .payload = std::int64_t{4096}});
  const cupp::ndarray m = row_max(z);
  prof::mark("checkpoint");  // an instant marker
  // [end snippet]

  // [snippet benchmark]
  // CPU and GPU time of one op, printed as cupyx.profiler.benchmark prints.
  const prof::benchmark_result r = prof::benchmark([&] { cupp::sin(x); }, {.name = "sin 4096x4096", .n_repeat = 50});
  std::cout << r << "\n";
  const double gpu_us = prof::statistics_of(r.gpu_times()[0]).mean * 1e6;  // statistics_of: mean, std, min, max
  // [end snippet]
  if (m.size() != 4096 || r.n_repeat() != 50 || !(gpu_us > 0)) {
    std::puts("FAILED: unexpected result");
    return 1;
  }
  return 0;
}
