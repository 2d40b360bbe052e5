// The linalg module's cuBLAS / cuBLASLt state per (thread, device): RAII handles created on first
// use, the cuBLAS handle re-bound to the device's current stream when it changed, and one
// workspace per (handle, stream) from cupp's pool, set again after each cublasSetStream (which
// resets it). A thread keeps the workspaces of its last few streams; an evicted one goes back to
// the pool on its own stream (stream-ordered, so work still queued there is safe).
#include "handles.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cuda/current_stream.hpp"
#include "cupp/config.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/errors.hpp"

namespace cupp::linalg::detail {

namespace {

const char* status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

struct cublas_deleter {
  void operator()(cublasContext* h) const noexcept { static_cast<void>(cublasDestroy(h)); }
};
struct lt_deleter {
  void operator()(cublasLtContext* h) const noexcept { static_cast<void>(cublasLtDestroy(h)); }
};

// A stream's workspace block (from cupp's pool, allocated for that stream).
struct stream_workspace {
  cudaStream_t stream = nullptr;
  cupp::cuda::Memory memory;
};

// The workspaces kept per handle: the streams a thread used last (most recent last).
inline constexpr std::size_t kept_workspaces = 4;

// One (thread, device)'s state. Members are destroyed in reverse order: the workspaces go back
// to the pool before the handles that used them are destroyed.
struct device_state {
  std::unique_ptr<cublasContext, cublas_deleter> cublas;
  std::unique_ptr<cublasLtContext, lt_deleter> lt;
  std::vector<stream_workspace> workspaces;
  blas_binding binding;
  bool bound = false;
};

// Finds or allocates `stream`'s workspace, most recent last; evicts the oldest beyond the cap.
void* workspace_for(device_state& state, int device, cudaStream_t stream) {
  auto& list = state.workspaces;
  auto it = std::find_if(list.begin(), list.end(), [&](const stream_workspace& w) { return w.stream == stream; });
  if (it != list.end()) {
    std::rotate(it, it + 1, list.end());
    return list.back().memory.ptr();
  }
  stream_workspace w{stream, cupp::cuda::alloc(workspace_bytes, device, stream)};
  if (list.size() >= kept_workspaces) list.erase(list.begin());
  list.push_back(std::move(w));
  return list.back().memory.ptr();
}

device_state& state_for(int device) {
  thread_local std::vector<std::unique_ptr<device_state>> states;
  if (device < 0) throw ValueError("linalg: invalid device " + std::to_string(device));
  if (static_cast<std::size_t>(device) >= states.size()) states.resize(static_cast<std::size_t>(device) + 1);
  std::unique_ptr<device_state>& slot = states[static_cast<std::size_t>(device)];
  if (!slot) {
    auto state = std::make_unique<device_state>();
    cublasHandle_t h = nullptr;
    check_cublas(cublasCreate(&h), "cublasCreate");
    state->cublas.reset(h);
    cublasLtHandle_t lt = nullptr;
    check_cublas(cublasLtCreate(&lt), "cublasLtCreate");
    state->lt.reset(lt);
    state->binding.cublas = h;
    state->binding.lt = lt;
    slot = std::move(state);
  }
  return *slot;
}

}  // namespace

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) [[likely]]
    return;
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw OutOfMemoryError(0, 0, 0);
  throw CudaError(std::string(call) + " failed: " + status_name(status), static_cast<int>(status));
}

const blas_binding& blas_on_current_stream(int device) {
  device_state& state = state_for(device);
  cudaStream_t stream = cupp::cuda::detail::current_stream_handle(device);
  if (!state.bound || state.binding.stream != stream) {
    // cublasSetStream resets the handle's workspace to cuBLAS's default pool: set ours again.
    check_cublas(cublasSetStream(state.binding.cublas, stream), "cublasSetStream");
    state.bound = false;
    void* workspace = workspace_for(state, device, stream);
    check_cublas(cublasSetWorkspace(state.binding.cublas, workspace, workspace_bytes), "cublasSetWorkspace");
    state.binding.stream = stream;
    state.binding.workspace = workspace;
    state.binding.workspace_bytes = workspace_bytes;
    state.bound = true;
  }
  return state.binding;
}

bool tf32_enabled() noexcept {
  static const bool enabled = [] {
    try {
      return cupp::config::get().tf32;
    } catch (...) {  // a malformed CUPP_TF32 is reported by cupp::config's own users
      return false;
    }
  }();
  return enabled;
}

}  // namespace cupp::linalg::detail
