// Where the time of cupp's matrix products goes, on the GPU machine (linalg/bench/README.md):
//  - host time per call (medians of batches of back-to-back calls, the stream drained between
//    batches) of an empty RawKernel launch (the floor issue 24 measures against), a raw
//    cublasGemmEx and a raw cublasLtMatmul with a prepared algorithm on 64x64 float32, cupp::empty,
//    and cupp::matmul with out= and allocating, through cuBLASLt's cached plans and through
//    cublasGemmEx (linalg::detail::set_lt_enabled);
//  - device time (CUDA-event medians) of the large bench problems both ways, and of the int8
//    path's steps (the whole matmul, the int32 GEMM alone is not separable: the whole and a float
//    GEMM of the same size for scale).
// Prints one line per figure; exits 0 without a GPU.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/linalg.hpp"
#include "cupp/ufunc.hpp"
#include "gemm.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuBLAS status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

double host_us(const std::function<void()>& call) {
  constexpr int warmup = 2000, batches = 40, batch = 500;
  for (int i = 0; i < warmup; ++i) call();
  check(cudaDeviceSynchronize(), "sync");
  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) call();
    const auto stop = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / batch);
    check(cudaDeviceSynchronize(), "sync");
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

double device_ms(const std::function<void()>& call, int reps) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  for (int i = 0; i < 3; ++i) call();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(e0, nullptr), "record");
    call();
    check(cudaEventRecord(e1, nullptr), "record");
    check(cudaEventSynchronize(e1), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    t.push_back(ms);
  }
  check(cudaEventDestroy(e0), "event");
  check(cudaEventDestroy(e1), "event");
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("linalg host_path: no CUDA device; nothing to measure");
    return 0;
  }
  using cupp::linalg::detail::set_lt_enabled;
  cupp::cuda::RawKernel empty(R"(extern "C" __global__ void empty() {})", "empty");
  const double t_empty = host_us([&] { empty({1}, {1}); });
  std::printf("host empty_launch_us %.3f\n", t_empty);

  // Raw cuBLAS on 64x64 float32 (legacy default stream, as cupp's default).
  const int n = 64;
  const cupp::ndarray a = cupp::ones({n, n}, cupp::float32), b = cupp::ones({n, n}, cupp::float32);
  const cupp::ndarray c = cupp::zeros({n, n}, cupp::float32);
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  void* ws = nullptr;
  const std::size_t ws_bytes = std::size_t{32} << 20;
  check(cudaMalloc(&ws, ws_bytes), "cudaMalloc");
  check(cublasSetWorkspace(h, ws, ws_bytes), "cublasSetWorkspace");
  const float one = 1, zero = 0;
  const double t_gemmex = host_us([&] {
    check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data(), CUDA_R_32F, n, a.data(), CUDA_R_32F, n,
                       &zero, c.data(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  });
  std::printf("host raw_cublasGemmEx_64_us %.3f (%.2fx empty)\n", t_gemmex, t_gemmex / t_empty);
  const double t_sgemm = host_us([&] {
    check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, static_cast<const float*>(b.data()), n,
                      static_cast<const float*>(a.data()), n, &zero, static_cast<float*>(c.data()), n),
          "cublasSgemm");
  });
  std::printf("host raw_cublasSgemm_64_us %.3f (%.2fx empty)\n", t_sgemm, t_sgemm / t_empty);
  cublasLtHandle_t lt = nullptr;
  check(cublasLtCreate(&lt), "cublasLtCreate");
  cublasLtMatmulDesc_t desc = nullptr;
  check(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "desc");
  cublasLtMatrixLayout_t la = nullptr;
  check(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, n, n, n), "layout");
  cublasLtMatmulPreference_t pref = nullptr;
  check(cublasLtMatmulPreferenceCreate(&pref), "pref");
  const std::uint64_t wsb = ws_bytes;
  check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof(wsb)), "pref");
  cublasLtMatmulHeuristicResult_t r{};
  int found = 0;
  check(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, la, la, la, pref, 1, &r, &found), "heuristic");
  const double t_lt = host_us([&] {
    check(cublasLtMatmul(lt, desc, &one, b.data(), la, a.data(), la, &zero, c.data(), la, c.data(), la, &r.algo, ws,
                         ws_bytes, nullptr),
          "cublasLtMatmul");
  });
  std::printf("host raw_cublasLtMatmul_64_us %.3f (%.2fx empty)\n", t_lt, t_lt / t_empty);
  const double t_alloc = host_us([&] { const cupp::ndarray e = cupp::empty({n, n}, cupp::float32); });
  std::printf("host cupp_empty_64x64_us %.3f\n", t_alloc);
  for (bool use_lt : {true, false}) {
    set_lt_enabled(use_lt);
    const char* how = use_lt ? "lt" : "gemmex";
    const double t_out = host_us([&] { cupp::matmul(a, b, {.out = c}); });
    const double t_new = host_us([&] { const cupp::ndarray r2 = cupp::matmul(a, b); });
    std::printf("host cupp_matmul_out_64_%s_us %.3f (%.2fx empty)\n", how, t_out, t_out / t_empty);
    std::printf("host cupp_matmul_64_%s_us %.3f (%.2fx empty)\n", how, t_new, t_new / t_empty);
  }

  // Large problems, both ways.
  struct big {
    const char* name;
    cupp::dtype type;
    std::int64_t size;
  };
  for (const big& p : {big{"float64_8192", cupp::float64, 8192}, big{"float32_8192", cupp::float32, 8192},
                       big{"float16_8192", cupp::float16, 8192}, big{"complex64_8192", cupp::complex64, 8192}}) {
    const cupp::ndarray x = cupp::ones({p.size, p.size}, p.type), y = cupp::ones({p.size, p.size}, p.type);
    const cupp::ndarray z = cupp::empty({p.size, p.size}, p.type);
    const double flops = (p.type.kind() == 'c' ? 8.0 : 2.0) * static_cast<double>(p.size) * p.size * p.size;
    for (bool use_lt : {true, false}) {
      set_lt_enabled(use_lt);
      const double ms = device_ms([&] { cupp::matmul(x, y, {.out = z}); }, 10);
      std::printf("device matmul_%s_%s_ms %.4f (%.1f TFLOP/s)\n", p.name, use_lt ? "lt" : "gemmex", ms,
                  flops / ms * 1e-9);
    }
  }
  set_lt_enabled(true);
  {
    const std::int64_t s = 4096;
    const cupp::ndarray x = cupp::ones({s, s}, cupp::int8), y = cupp::ones({s, s}, cupp::int8);
    const cupp::ndarray yf = ascontiguousarray(y.T()).T();  // already F-ordered: no copy in the int8 path
    const cupp::ndarray i32 = cupp::empty({s, s}, cupp::int32), i8 = cupp::empty({s, s}, cupp::int8);
    std::printf("device int8_4096_CC_ms %.4f\n", device_ms([&] { const cupp::ndarray r2 = cupp::matmul(x, y); }, 20));
    std::printf("device int8_4096_CF_ms %.4f\n", device_ms([&] { const cupp::ndarray r2 = cupp::matmul(x, yf); }, 20));
    std::printf("device int8_transpose_copy_ms %.4f\n",
                device_ms([&] { const cupp::ndarray t2 = ascontiguousarray(y.T()); }, 20));
    std::printf("device int32_to_int8_cast_ms %.4f\n",
                device_ms([&] { i8.assign(cupp::astype(i32, cupp::int8, cupp::casting::unsafe)); }, 20));
    // The raw int8 GEMM in the TN form cuBLAS's IMMA kernels take, into int32.
    const std::int32_t ione = 1, izero = 0;
    std::printf("device raw_int8_TN_gemm_ms %.4f\n", device_ms([&] {
                  check(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, s, s, s, &ione, yf.data(), CUDA_R_8I, s, x.data(),
                                     CUDA_R_8I, s, &izero, i32.data(), CUDA_R_32I, s, CUBLAS_COMPUTE_32I,
                                     CUBLAS_GEMM_DEFAULT),
                        "cublasGemmEx int8");
                }, 20));
  }
  check(cublasLtMatmulPreferenceDestroy(pref), "destroy");
  check(cublasLtMatrixLayoutDestroy(la), "destroy");
  check(cublasLtMatmulDescDestroy(desc), "destroy");
  check(cublasLtDestroy(lt), "destroy");
  check(cudaFree(ws), "cudaFree");
  check(cublasDestroy(h), "cublasDestroy");
  return 0;
}
