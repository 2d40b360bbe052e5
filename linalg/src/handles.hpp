// Internal to the linalg module: the cuBLAS and cuBLASLt handles of the calling thread on a device
// (one of each per (thread, device), created on first use, destroyed with the thread), bound to
// that device's current cupp stream on every call, with a workspace per (handle, stream) from
// cupp's memory pool. cublasSetStream resets cuBLAS's workspace, so the workspace is set again
// after every stream change. Nothing here synchronises the device.
//
//   const auto& blas = cupp::linalg::detail::blas_on_current_stream(device);
//   check_cublas(cublasGemmEx(blas.cublas, ...), "cublasGemmEx");        // runs on blas.stream
//   check_cublas(cublasLtMatmul(blas.lt, ..., blas.workspace, blas.workspace_bytes, blas.stream), ...);
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include <cstddef>

namespace cupp::linalg::detail {

// What a call uses: both handles, the stream the cuBLAS handle is bound to (the device's current
// stream) and that stream's workspace (set as cuBLAS's; pass it to cublasLtMatmul, which takes it
// per call). Valid until the thread's next call for the same device.
struct blas_binding {
  cublasHandle_t cublas = nullptr;
  cublasLtHandle_t lt = nullptr;
  cudaStream_t stream = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// The calling thread's handles on `device` bound to `device`'s current stream (`device` must be
// current). Creates them on first use; throws CudaError when cuBLAS fails.
const blas_binding& blas_on_current_stream(int device);

// Throws cupp::CudaError "<call> failed: CUBLAS_STATUS_..." unless status is success
// (CUBLAS_STATUS_ALLOC_FAILED: cupp::OutOfMemoryError).
void check_cublas(cublasStatus_t status, const char* call);

// The workspace given to each (handle, stream): 32 MiB, cuBLAS's recommendation for Hopper.
inline constexpr std::size_t workspace_bytes = std::size_t{32} << 20;

// CUPP_TF32=1 (read once): float32 products may use TF32 tensor cores (off by default, as CuPy).
bool tf32_enabled() noexcept;

}  // namespace cupp::linalg::detail
