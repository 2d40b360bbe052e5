// CUDA error reporting: CudaError messages, the process-wide memory of a lost context, and the
// thread's last-error slot cleared of errors that were handled.
#include "check.hpp"

#include <atomic>
#include <string>

#include "cupp/errors.hpp"

namespace cupp::cuda::detail {

namespace {
std::atomic<int> first_sticky_error{0};  // the error that lost the context, once one has

// Records a sticky error; clears any other from the thread's last-error slot, since the caller
// handles it (throws or ignores it) and a later cudaPeekAtLastError (CUB checks its launches so)
// must not take it for an error of its own.
void remember(cudaError_t err) noexcept {
  int expected = 0;
  if (is_sticky(err)) first_sticky_error.compare_exchange_strong(expected, static_cast<int>(err));
  else if (err != cudaSuccess) (void)cudaGetLastError();
}
}  // namespace

bool is_sticky(cudaError_t err) noexcept {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

void throw_cuda_error(cudaError_t err, const char* call) {
  const int lost = first_sticky_error.load();
  remember(err);
  std::string msg = std::string(call) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
  if (lost == 0 && is_sticky(err)) {
    msg += "; this error is sticky: the CUDA context is lost and no CUDA work can run in this process any more, "
           "restart it";
  } else if (lost != 0) {
    msg += "; the CUDA context was lost earlier by a sticky error (";
    msg += cudaGetErrorName(static_cast<cudaError_t>(lost));
    msg += "): no CUDA work can run in this process any more, restart it";
  }
  throw CudaError(msg, static_cast<int>(err));
}

void ignore(cudaError_t err) noexcept { remember(err); }

}  // namespace cupp::cuda::detail
