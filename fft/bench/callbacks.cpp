// What a cuFFT store callback costs in cupp (issue 26's bench rows; run on the GPU machine by
// fft/bench/gpu-run.sh's callbacks step, fft/bench/callbacks_cupy.py makes CuPy's):
//   cupp_bench_fft_callbacks first   the first transform with a store callback in this process,
//                                    after the context, a plain transform and the input exist:
//                                    NVRTC's LTO-IR (or the kernel cache's disk copy of it) and
//                                    cuFFT's planning with nvJitLink; run it twice on one
//                                    CUPP_CACHE_DIR for the cold and the warm disk cache
//   cupp_bench_fft_callbacks time    4096 x 4096 complex64 rows: the plain fft and the one whose
//                                    store callback scales by 2 (medians of CUDA event times),
//                                    their ratio, and the check that the second is twice the first
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "compiler/kernel_cache.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/fft.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"

namespace {

const char* scale_by_two = R"(
__device__ void cupp_bench_scale2(void* out, unsigned long long offset, cufftComplex v, void* info, void* shared) {
  v.x *= 2.0f;
  v.y *= 2.0f;
  static_cast<cufftComplex*>(out)[offset] = v;
})";

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "cupp_bench_fft_callbacks: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

double median_ms(const std::function<void()>& call, int reps) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  const cudaStream_t stream = cupp::cuda::current_stream().handle();
  call();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(e0, stream), "cudaEventRecord");
    call();
    check(cudaEventRecord(e1, stream), "cudaEventRecord");
    check(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    t.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

cupp::ndarray rows() {
  const cupp::ndarray re = cupp::sin(cupp::arange(0.0, 4096.0 * 4096.0, 1.0, cupp::float32) * 0.37f);
  return cupp::astype(re, cupp::complex64).reshape({4096, 4096});
}

}  // namespace

static int run(const std::string& mode) {
  const cupp::ndarray x = rows();
  const cupp::ndarray plain = cupp::fft::fft(x);  // context, plain plan and input ready
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  if (mode == "first") {
    const auto before = cupp::detail::kernel_cache::global().stats();
    const auto t0 = std::chrono::steady_clock::now();
    {
      cupp::fft::set_cufft_callbacks guard({.store = scale_by_two, .store_name = "cupp_bench_scale2"});
      const cupp::ndarray y = cupp::fft::fft(x);
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto after = cupp::detail::kernel_cache::global().stats();
    std::printf("fft_callback_first_use_ms %.1f (kernel cache: %llu compiles, %llu disk hits)\n", ms,
                static_cast<unsigned long long>(after.compiles - before.compiles),
                static_cast<unsigned long long>(after.disk_hits - before.disk_hits));
    return 0;
  }
  const double plain_ms = median_ms([&] { const cupp::ndarray y = cupp::fft::fft(x); }, 20);
  cupp::fft::set_cufft_callbacks guard({.store = scale_by_two, .store_name = "cupp_bench_scale2"});
  const double callback_ms = median_ms([&] { const cupp::ndarray y = cupp::fft::fft(x); }, 20);
  const cupp::ndarray y = cupp::fft::fft(x);
  const double off = cupp::max(cupp::absolute(y - plain * 2.0f)).item<float>();
  std::printf("fft_callback_scale2_rows_ms %.4f plain_ms %.4f ratio %.3f [<= 1.15x] (max |callback - 2 plain| %.2e)\n",
              callback_ms, plain_ms, callback_ms / plain_ms, off);
  return 0;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "time";
  if (mode == "--help" || (mode != "first" && mode != "time")) {
    std::printf("usage: cupp_bench_fft_callbacks [first|time]\n"
                "  first  the first transform with a store callback in this process (CUPP_CACHE_DIR: cold or warm)\n"
                "  time   4096 x 4096 complex64 rows, plain and with a store callback that scales by 2\n");
    return mode == "--help" ? 0 : 2;
  }
  try {
    return run(mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cupp_bench_fft_callbacks: %s\n", e.what());
    return 1;
  }
}
