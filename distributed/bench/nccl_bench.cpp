// The distributed module's bench (issue 31): all_reduce of float32 over every device of this
// process (init_all, one grouped call per iteration) as NCCL's algorithm and bus bandwidth
// (busbw = algbw * 2 (n - 1) / n, nccl-tests' definition), and, with two or more devices, a peer
// copy of a strided view (cupp's assignment across devices) against a contiguous
// cudaMemcpyPeerAsync of the same bytes. Medians of timed iterations after warm-up; the result of
// every all_reduce is checked once (each rank's value r + 1, so the sum is n (n + 1) / 2).
// Refuses to run unless NCCL_NVLS_ENABLE=0.
//   cupp_bench_distributed [--mib 1024] [--iters 10] [--peer-mib 256]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/nccl.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"

namespace {

namespace nccl = cupp::cuda::nccl;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorName(e));
    std::exit(1);
  }
}

template <class F>
double time_ms(int iters, F&& f, const std::vector<int>& devices) {
  std::vector<double> ms;
  for (int i = 0; i < iters + 3; ++i) {
    for (int d : devices) cupp::cuda::Device(d).synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    for (int d : devices) cupp::cuda::Device(d).synchronize();
    const auto t1 = std::chrono::steady_clock::now();
    if (i >= 3) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return median(ms);
}

}  // namespace

int main(int argc, char** argv) {
  long mib = 1024, peer_mib = 256;
  int iters = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iters")) iters = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--peer-mib")) peer_mib = std::atol(argv[i + 1]);
  }
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  if (nvls == nullptr || std::strcmp(nvls, "0") != 0) {
    std::puts("refusing to run: set NCCL_NVLS_ENABLE=0 (NVLink multicast can take a shared host's GPUs out of service)");
    return 1;
  }
  if (!nccl::available()) {
    std::printf("SKIPPED: NCCL is not available: %s\n", nccl::unavailable_reason().c_str());
    return 0;
  }
  const int n = cupp::cuda::device_count();
  std::vector<int> devices;
  for (int d = 0; d < n; ++d) devices.push_back(d);
  std::printf("NCCL %d, %d device%s\n", nccl::get_version(), n, n == 1 ? "" : "s");

  // 1. all_reduce
  std::vector<nccl::Communicator> comms = nccl::Communicator::init_all(n);
  const std::int64_t count = mib * (1 << 20) / 4;
  std::vector<cupp::ndarray> x(n), y(n);
  for (int r = 0; r < n; ++r) {
    cupp::cuda::DeviceGuard g(r);
    x[r] = cupp::full({count}, r + 1, cupp::float32);
    y[r] = cupp::empty({count}, cupp::float32);
  }
  auto all_reduce = [&] {
    nccl::group_start();
    for (int r = 0; r < n; ++r) comms[r].all_reduce(x[r], y[r], nccl::reduce_op::sum);
    nccl::group_end();
  };
  const double ms = time_ms(iters, all_reduce, devices);
  const float expected = n * (n + 1) / 2.0f;
  bool ok = true;
  for (int r = 0; r < n; ++r) {
    cupp::cuda::DeviceGuard g(r);
    ok = ok && cupp::min(y[r]).item<float>() == expected && cupp::max(y[r]).item<float>() == expected;
  }
  const double bytes = static_cast<double>(count) * 4;
  const double algbw = bytes / (ms * 1e-3) / 1e9;
  std::printf("all_reduce float32 %ld MiB x %d ranks: %.3f ms, algbw %.1f GB/s, busbw %.1f GB/s, result %s\n", mib, n,
              ms, algbw, algbw * 2.0 * (n - 1) / n, ok ? "ok" : "WRONG");
  x.clear();
  y.clear();

  // 2. peer copies (two or more devices)
  if (n >= 2) {
    const std::int64_t pcount = peer_mib * (1 << 20) / 4;
    cupp::ndarray src, contiguous_dst, strided_dst;
    {
      cupp::cuda::DeviceGuard g(0);
      src = cupp::full({2 * pcount}, 1.5, cupp::float32);
    }
    {
      cupp::cuda::DeviceGuard g(1);
      contiguous_dst = cupp::empty({pcount}, cupp::float32);
      strided_dst = cupp::empty({pcount}, cupp::float32);
    }
    const cupp::ndarray view = src(cupp::slice(0, std::nullopt, 2));
    const double raw = time_ms(
        iters,
        [&] {
          check(cudaMemcpyPeerAsync(contiguous_dst.data(), 1, src.data(), 0, static_cast<std::size_t>(pcount) * 4,
                                    nullptr),
                "cudaMemcpyPeerAsync");
        },
        devices);
    const double strided = time_ms(iters, [&] { strided_dst.assign(view); }, devices);
    const double pbytes = static_cast<double>(pcount) * 4;
    std::printf("peer copy %ld MiB 0 -> 1: cudaMemcpyPeerAsync contiguous %.3f ms (%.1f GB/s); cupp strided view %.3f ms "
                "(%.1f GB/s, %.0f %% of contiguous)\n",
                peer_mib, raw, pbytes / (raw * 1e-3) / 1e9, strided, pbytes / (strided * 1e-3) / 1e9,
                100.0 * raw / strided);
  }
  return ok ? 0 : 1;
}
