// The linalg solvers' shared pieces (solver_common.hpp): the per-(thread, device) cuSOLVER handle
// and params (RAII, re-bound when the current stream changes), NumPy's dtype rules for linalg,
// column-major work copies, pointer arrays for the batched APIs, workspaces and the info read.
#include "solver_common.hpp"

#include <memory>
#include <string>

#include "cuda/current_stream.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::linalg::detail {

namespace {

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: break;
  }
  return "CUSOLVER_STATUS_UNKNOWN";
}

struct handle_deleter {
  void operator()(cusolverDnContext* h) const noexcept { static_cast<void>(cusolverDnDestroy(h)); }
};
struct params_deleter {
  void operator()(cusolverDnParams* p) const noexcept { static_cast<void>(cusolverDnDestroyParams(p)); }
};

struct solver_state {
  std::unique_ptr<cusolverDnContext, handle_deleter> handle;
  std::unique_ptr<cusolverDnParams, params_deleter> params;
  solver_binding binding;
  bool bound = false;
};

}  // namespace

void check_cusolver(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_SUCCESS) [[likely]]
    return;
  if (status == CUSOLVER_STATUS_ALLOC_FAILED) throw OutOfMemoryError(0, 0, 0);
  throw CudaError(std::string(call) + " failed: " + status_name(status), static_cast<int>(status));
}

const solver_binding& solver_on_current_stream(int device) {
  thread_local std::vector<std::unique_ptr<solver_state>> states;
  if (device < 0) throw ValueError("linalg: invalid device " + std::to_string(device));
  if (static_cast<std::size_t>(device) >= states.size()) states.resize(static_cast<std::size_t>(device) + 1);
  auto& slot = states[static_cast<std::size_t>(device)];
  if (!slot) {
    auto state = std::make_unique<solver_state>();
    cusolverDnHandle_t h = nullptr;
    check_cusolver(cusolverDnCreate(&h), "cusolverDnCreate");
    state->handle.reset(h);
    cusolverDnParams_t p = nullptr;
    check_cusolver(cusolverDnCreateParams(&p), "cusolverDnCreateParams");
    state->params.reset(p);
    state->binding.handle = h;
    state->binding.params = p;
    slot = std::move(state);
  }
  cudaStream_t stream = cupp::cuda::detail::current_stream_handle(device);
  if (!slot->bound || slot->binding.stream != stream) {
    check_cusolver(cusolverDnSetStream(slot->binding.handle, stream), "cusolverDnSetStream");
    slot->binding.stream = stream;
    slot->bound = true;
  }
  return slot->binding;
}

cupp::dtype linalg_type(std::initializer_list<const ndarray*> inputs) {
  bool is_complex = false, is_double = false;
  for (const ndarray* a : inputs) {
    const cupp::dtype t = a->dtype();
    if (t.id() == type_id::float16) throw TypeError("array type float16 is unsupported in linalg");
    if (t.is_complex()) is_complex = true;
    if (t.id() == type_id::float32 || t.id() == type_id::complex64) continue;
    is_double = true;  // float64, complex128, and everything NumPy does not count as inexact
  }
  if (is_complex) return is_double ? cupp::complex128 : cupp::complex64;
  return is_double ? cupp::float64 : cupp::float32;
}

cupp::dtype real_of(cupp::dtype t) {
  if (t.id() == type_id::complex64) return cupp::float32;
  if (t.id() == type_id::complex128) return cupp::float64;
  return t;
}

cupp::dtype complex_of(cupp::dtype t) {
  if (t.id() == type_id::float32 || t.id() == type_id::complex64) return cupp::complex64;
  return cupp::complex128;
}

cudaDataType cuda_type(cupp::dtype t) {
  switch (t.id()) {
    case type_id::float32: return CUDA_R_32F;
    case type_id::float64: return CUDA_R_64F;
    case type_id::complex64: return CUDA_C_32F;
    case type_id::complex128: return CUDA_C_64F;
    default: break;
  }
  throw TypeError("linalg: no cuSOLVER type for dtype " + t.name());
}

void require_ndim(const ndarray& a, int at_least, const char* routine) {
  if (a.is_null()) throw ValueError(std::string(routine) + ": a null array");
  if (a.ndim() < at_least)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least " +
                      (at_least == 2 ? "two" : "one") + "-dimensional");
}

void require_square(const ndarray& a, const char* routine) {
  require_ndim(a, 2, routine);
  if (a.shape(-1) != a.shape(-2)) throw LinAlgError("Last 2 dimensions of the array must be square");
}

std::vector<i64> batch_shape(const ndarray& a) {
  return std::vector<i64>(a.shape().begin(), a.shape().end() - 2);
}

i64 batch_count(const ndarray& a) {
  i64 n = 1;
  for (int d = 0; d + 2 < a.ndim(); ++d) n *= a.shape()[d];
  return n;
}

ndarray colmajor_empty(std::span<const i64> batch, i64 rows, i64 cols, cupp::dtype t) {
  std::vector<i64> shape(batch.begin(), batch.end());
  shape.push_back(cols);
  shape.push_back(rows);
  return cupp::empty(shape, t);
}

ndarray colmajor_copy(const ndarray& a, cupp::dtype t) {
  const std::vector<i64> batch = batch_shape(a);
  ndarray w = colmajor_empty(batch, a.shape(-2), a.shape(-1), t);
  if (w.size() > 0) colmajor_view(w).assign(a);
  return w;
}

ndarray pointer_array(const void* base, i64 stride_bytes, i64 count) {
  const i64 b = static_cast<i64>(reinterpret_cast<std::uintptr_t>(base));
  return cupp::arange(count, cupp::int64) * stride_bytes + b;
}

cupp::cuda::Memory workspace(std::size_t bytes, int device) {
  return cupp::cuda::alloc(bytes, device, cupp::cuda::detail::current_stream_handle(device));
}

ndarray info_failed(const ndarray& info) { return cupp::any(info != 0); }

std::vector<bool> read_flags(std::initializer_list<ndarray> flags) {
  return cupp::stack(flags).to_vector<bool>();
}

ndarray nan_per_matrix(const ndarray& w) { return cupp::any(cupp::isnan(w), {.axis = {-2, -1}}); }

void raise_if(const ndarray& flag, const std::string& message) {
  if (flag.item<bool>()) throw LinAlgError(message);
}

int as_int(i64 v, const char* what) {
  if (v > 0x7fffffff) throw ValueError(std::string("linalg: ") + what + " exceeds the 32-bit batched API's range");
  return static_cast<int>(v);
}

}  // namespace cupp::linalg::detail
