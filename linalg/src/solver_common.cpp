// The linalg solvers' shared pieces (solver_common.hpp): the per-(thread, device) cuSOLVER handle
// and params (RAII, re-bound when the current stream changes), NumPy's dtype rules for linalg,
// column-major work copies, pointer arrays for the batched APIs, workspaces and the info read.
#include "solver_common.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "compiler/launch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "linalg_device_headers.hpp"

namespace cupp::linalg::detail {

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

namespace {

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

// One lane of side_streams: a non-blocking stream, a cuSOLVER handle and params bound to it, and
// the event that marks its work for the join.
struct lane_state {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  std::unique_ptr<cusolverDnContext, handle_deleter> handle;
  std::unique_ptr<cusolverDnParams, params_deleter> params;
  solver_binding binding;
  lane_state() = default;
  lane_state(const lane_state&) = delete;
  lane_state& operator=(const lane_state&) = delete;
  ~lane_state() {
    handle.reset();
    params.reset();
    if (done) static_cast<void>(cudaEventDestroy(done));
    if (stream) static_cast<void>(cudaStreamDestroy(stream));
  }
};

// The lanes of one (thread, device), grown on demand, and the fork event.
struct lanes_state {
  std::vector<std::unique_ptr<lane_state>> lanes;
  cudaEvent_t fork = nullptr;
  ~lanes_state() {
    lanes.clear();
    if (fork) static_cast<void>(cudaEventDestroy(fork));
  }
};

lanes_state& lanes_for_device(int device, int count) {
  thread_local std::vector<std::unique_ptr<lanes_state>> states;
  if (device < 0) throw ValueError("linalg: invalid device " + std::to_string(device));
  if (static_cast<std::size_t>(device) >= states.size()) states.resize(static_cast<std::size_t>(device) + 1);
  auto& slot = states[static_cast<std::size_t>(device)];
  if (!slot) {
    auto s = std::make_unique<lanes_state>();
    cupp::cuda::detail::check(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    slot = std::move(s);
  }
  while (static_cast<int>(slot->lanes.size()) < count) {
    auto l = std::make_unique<lane_state>();
    cupp::cuda::detail::check(cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    cupp::cuda::detail::check(cudaEventCreateWithFlags(&l->done, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    cusolverDnHandle_t h = nullptr;
    check_cusolver(cusolverDnCreate(&h), "cusolverDnCreate");
    l->handle.reset(h);
    cusolverDnParams_t p = nullptr;
    check_cusolver(cusolverDnCreateParams(&p), "cusolverDnCreateParams");
    l->params.reset(p);
    check_cusolver(cusolverDnSetStream(h, l->stream), "cusolverDnSetStream");
    l->binding = {h, p, l->stream};
    slot->lanes.push_back(std::move(l));
  }
  return *slot;
}

struct path_table {
  std::mutex mutex;
  std::map<std::string, std::string> values;
};
path_table& paths() {
  static path_table table;
  return table;
}

}  // namespace

side_streams::side_streams(int device, int count) : device_(device), count_(std::max(count, 1)) {
  if (count_ <= 1) {
    count_ = 1;
    return;
  }
  lanes_state& s = lanes_for_device(device, count_);
  state_ = &s;
  const cudaStream_t main = cupp::cuda::detail::current_stream_handle(device);
  cupp::cuda::detail::check(cudaEventRecord(s.fork, main), "cudaEventRecord");
  for (int i = 0; i < count_; ++i)
    cupp::cuda::detail::check(cudaStreamWaitEvent(s.lanes[static_cast<std::size_t>(i)]->stream, s.fork, 0),
                              "cudaStreamWaitEvent");
}

const solver_binding& side_streams::lane(i64 i) const {
  if (count_ <= 1) return solver_on_current_stream(device_);
  auto& s = *static_cast<lanes_state*>(state_);
  return s.lanes[static_cast<std::size_t>(i % count_)]->binding;
}

void side_streams::join() {
  if (joined_ || count_ <= 1) {
    joined_ = true;
    return;
  }
  joined_ = true;
  auto& s = *static_cast<lanes_state*>(state_);
  const cudaStream_t main = cupp::cuda::detail::current_stream_handle(device_);
  for (int i = 0; i < count_; ++i) {
    lane_state& l = *s.lanes[static_cast<std::size_t>(i)];
    cupp::cuda::detail::check(cudaEventRecord(l.done, l.stream), "cudaEventRecord");
    cupp::cuda::detail::check(cudaStreamWaitEvent(main, l.done, 0), "cudaStreamWaitEvent");
  }
}

side_streams::~side_streams() {
  if (joined_ || count_ <= 1) return;
  try {
    join();
  } catch (...) {  // a failed join: wait for the lanes on the host instead
    auto& s = *static_cast<lanes_state*>(state_);
    for (int i = 0; i < count_; ++i) static_cast<void>(cudaStreamSynchronize(s.lanes[static_cast<std::size_t>(i)]->stream));
  }
}

int lanes_for(i64 count) {
  static const int configured = [] {
    const char* v = std::getenv("CUPP_LINALG_STREAMS");
    if (!v || !*v) return 16;
    const int n = std::atoi(v);
    return n < 1 ? 1 : n > 64 ? 64 : n;
  }();
  return static_cast<int>(std::min<i64>(std::max<i64>(count, 1), configured));
}

const std::string& path_choice(const char* variable) {
  path_table& t = paths();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.values.find(variable);
  if (it == t.values.end()) {
    const char* v = std::getenv(variable);
    std::string value = v ? v : "";
    if (value == "auto") value.clear();
    it = t.values.emplace(variable, std::move(value)).first;
  }
  return it->second;
}

void set_path_override(const char* variable, const std::string& value) {
  path_table& t = paths();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.values[variable] = value == "auto" ? std::string() : value;
}

cupp::detail::routine_program solver_checks_program(cupp::dtype t) {
  std::string source = std::string("#define CUPP_LINALG_R ") + (real_of(t).id() == type_id::float32 ? "float" : "double") + "\n";
  if (t.is_complex()) source += "#define CUPP_LINALG_COMPLEX 1\n";
  source += "#include <cupp/linalg/solver_checks.cuh>\n";
  return {.name = "cupp_linalg_solver_checks",
          .source = std::move(source),
          .kernels = {"cupp_linalg_lu_suspect", "cupp_linalg_info_any", "cupp_linalg_any_nan", "cupp_linalg_nan_scrub",
                      "cupp_linalg_transpose_copy", "cupp_linalg_copy_scrub", "cupp_linalg_zero_triangle",
                      "cupp_linalg_permuted_identity"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

namespace {

// A zeroed (1,) int32 flag on the current stream of `device`.
ndarray zero_flag(int device) {
  ndarray flag = cupp::empty({1}, cupp::int32);
  cupp::cuda::detail::check(
      cudaMemsetAsync(flag.data(), 0, sizeof(int), cupp::cuda::detail::current_stream_handle(device)),
      "cudaMemsetAsync");
  return flag;
}

const cupp::detail::kernel_module& checks_module(int device, cupp::dtype t) {
  return cupp::detail::routine_module(device, {"linalg:solver_checks", static_cast<std::uint64_t>(t.id())},
                                      [&] { return solver_checks_program(t); });
}

}  // namespace

ndarray new_flag(int device) { return zero_flag(device); }

ndarray lu_suspect_flag(const ndarray& w, const ndarray& info, i64 n) {
  ndarray flag = zero_flag(w.device());
  lu_suspect_into(w, info, n, flag);
  return flag;
}

void lu_suspect_into(const ndarray& w, const ndarray& info, i64 n, const ndarray& flag) {
  const int device = w.device();
  long long batch = batch_count(w), nn = n;
  if (batch == 0 || n == 0) return;
  const cupp::detail::kernel_module& module = checks_module(device, w.dtype());
  const void* pw = w.data();
  const void* pi = info.data();
  void* pf = flag.data();
  void* args[] = {&pw, &pi, &batch, &nn, &pf};
  cupp::detail::launch_1d(module.function(0), batch * nn, args, device);
}

void flag_nan(const ndarray& x, const ndarray& flag) {
  if (x.size() == 0) return;
  if (!x.is_c_contiguous()) throw ValueError("linalg: flag_nan needs a C-contiguous array");
  const int device = x.device();
  const cupp::detail::kernel_module& module = checks_module(device, x.dtype());
  const void* px = x.data();
  long long count = x.size() * (x.dtype().is_complex() ? 2 : 1);
  void* pf = flag.data();
  void* args[] = {&px, &count, &pf};
  cupp::detail::launch_1d(module.function(2), count, args, device);
}

void scrub_nan(const ndarray& x, const ndarray& flag) {
  if (x.size() == 0) return;
  if (!x.is_c_contiguous() || !x.writeable()) throw ValueError("linalg: scrub_nan needs a C-contiguous, writeable array");
  const int device = x.device();
  const cupp::detail::kernel_module& module = checks_module(device, x.dtype());
  void* px = x.data();
  long long count = x.size() * (x.dtype().is_complex() ? 2 : 1);
  void* pf = flag.data();
  void* args[] = {&px, &count, &pf};
  cupp::detail::launch_1d(module.function(3), count, args, device);
}

ndarray info_any_flag(const ndarray& info) {
  const int device = info.device();
  ndarray flag = zero_flag(device);
  long long batch = info.size();
  if (batch == 0) return flag;
  const cupp::detail::kernel_module& module = checks_module(device, cupp::float64);
  const void* pi = info.data();
  void* pf = flag.data();
  void* args[] = {&pi, &batch, &pf};
  cupp::detail::launch_1d(module.function(1), batch, args, device);
  return flag;
}

int read_first_info(const ndarray& info) {
  int v = 0;
  const cudaStream_t stream = cupp::cuda::detail::current_stream_handle(info.device());
  cupp::cuda::detail::check(cudaMemcpyAsync(&v, info.data(), sizeof(int), cudaMemcpyDeviceToHost, stream),
                            "cudaMemcpyAsync");
  cupp::cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return v;
}

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

bool kernel_copies() { return path_choice("CUPP_LINALG_COPY") != "assign"; }

namespace {

// Whether a is copied by the linalg kernels: C-contiguous, already of dtype t, not empty.
bool kernel_copyable(const ndarray& a, cupp::dtype t) {
  return a.size() > 0 && a.dtype() == t && a.is_c_contiguous() && kernel_copies();
}

// The tiled transpose of a (C-contiguous, dtype of w) into w (its column-major copy); flag may be
// null (no NaN scrub).
void transpose_into(const ndarray& a, const ndarray& w, void* flag) {
  const int device = a.device();
  const cupp::detail::kernel_module& module = checks_module(device, a.dtype());
  const void* src = a.data();
  void* dst = w.data();
  long long batch = batch_count(a), rows = a.shape(-2), cols = a.shape(-1);
  void* args[] = {&src, &dst, &batch, &rows, &cols, &flag};
  const long long tiles = batch * ((rows + 31) / 32) * ((cols + 31) / 32);
  cupp::detail::launch_1d(module.function(4), tiles * 256, args, device, std::min<long long>(tiles, 1LL << 20), 256);
}

}  // namespace

ndarray colmajor_copy(const ndarray& a, cupp::dtype t) {
  const std::vector<i64> batch = batch_shape(a);
  ndarray w = colmajor_empty(batch, a.shape(-2), a.shape(-1), t);
  if (kernel_copyable(a, t))
    transpose_into(a, w, nullptr);
  else if (w.size() > 0)
    colmajor_view(w).assign(a);
  return w;
}

ndarray colmajor_copy_scrub(const ndarray& a, cupp::dtype t, const ndarray& flag) {
  if (!kernel_copyable(a, t)) {
    ndarray w = colmajor_copy(a, t);
    scrub_nan(w, flag);
    return w;
  }
  const std::vector<i64> batch = batch_shape(a);
  ndarray w = colmajor_empty(batch, a.shape(-2), a.shape(-1), t);
  transpose_into(a, w, flag.data());
  return w;
}

ndarray rowmajor_copy_scrub(const ndarray& a, cupp::dtype t, const ndarray& flag) {
  ndarray w = cupp::empty(a.shape(), t);
  if (w.size() == 0) return w;
  if (!kernel_copyable(a, t)) {
    w.assign(a);
    scrub_nan(w, flag);
    return w;
  }
  const int device = a.device();
  const cupp::detail::kernel_module& module = checks_module(device, t);
  const void* src = a.data();
  void* dst = w.data();
  long long count = a.size() * (t.is_complex() ? 2 : 1);
  void* pf = flag.data();
  void* args[] = {&src, &dst, &count, &pf};
  cupp::detail::launch_1d(module.function(5), count, args, device);
  return w;
}

void zero_triangle(const ndarray& w, i64 n, bool lower) {
  if (w.size() == 0 || n <= 1) return;
  if (!w.is_c_contiguous()) throw ValueError("linalg: zero_triangle needs a C-contiguous array");
  const int device = w.device();
  const cupp::detail::kernel_module& module = checks_module(device, w.dtype());
  void* pw = w.data();
  long long batch = batch_count(w), nn = n;
  int lo = lower ? 1 : 0;
  void* args[] = {&pw, &batch, &nn, &lo};
  cupp::detail::launch_1d(module.function(6), batch * nn * nn, args, device);
}

void permuted_identity(const ndarray& piv, i64 n, const ndarray& x, const ndarray& unit_piv) {
  const i64 batch = batch_count(x);
  if (batch == 0 || n == 0) return;
  if (n > permuted_identity_max_n) throw ValueError("linalg: permuted_identity takes n <= 512");
  if (!x.is_c_contiguous() || !piv.is_c_contiguous() || !unit_piv.is_c_contiguous() || piv.dtype() != cupp::int32 ||
      unit_piv.dtype() != cupp::int32 || piv.size() != batch * n || unit_piv.size() != batch * n)
    throw ValueError("linalg: permuted_identity needs C-contiguous x and int32 pivots of (batch, n)");
  const int device = x.device();
  const cupp::detail::kernel_module& module = checks_module(device, x.dtype());
  const void* pp = piv.data();
  void* px = x.data();
  void* pu = unit_piv.data();
  long long lb = batch, ln = n;
  void* args[] = {&pp, &px, &pu, &lb, &ln};
  constexpr unsigned threads = 256;
  cupp::detail::launch_1d(module.function(7), batch * threads, args, device, std::min<i64>(batch, i64{1} << 16), threads);
}

ndarray pointer_array(const void* base, i64 stride_bytes, i64 count) {
  // One arange kernel (exact int64 steps from the first two values).
  const i64 b = static_cast<i64>(reinterpret_cast<std::uintptr_t>(base));
  if (count <= 0 || stride_bytes <= 0) return cupp::arange(count, cupp::int64) * stride_bytes + b;
  return cupp::arange(b, b + count * stride_bytes, stride_bytes, cupp::int64);
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
