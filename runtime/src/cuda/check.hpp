// Internal: checking CUDA runtime return codes. A failure throws cupp::CudaError naming the call
// and the error; a sticky error (the context is lost, e.g. after an illegal address) says so,
// and every later failing call says so again, without printing anything.
#pragma once

#include <cuda_runtime.h>

namespace cupp::cuda::detail {

// Whether err leaves the CUDA context unusable for the rest of the process.
bool is_sticky(cudaError_t err) noexcept;

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call);

inline void check(cudaError_t err, const char* call) {
  if (err != cudaSuccess) [[unlikely]]
    throw_cuda_error(err, call);
}

// For cudaStreamQuery / cudaEventQuery results: true when done, false when still running,
// CudaError otherwise.
inline bool is_ready(cudaError_t err, const char* call) {
  if (err == cudaErrorNotReady) return false;
  check(err, call);
  return true;
}

// For destructors and other noexcept paths: the error is dropped (a sticky one is remembered
// and reported by the next checked call).
void ignore(cudaError_t err) noexcept;

}  // namespace cupp::cuda::detail
