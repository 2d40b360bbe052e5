// Internal to the linalg module's solvers (linalg part 2): the cuSOLVER handle and params of the
// calling thread on a device (created on first use, bound to the device's current stream on every
// call), NumPy's linalg dtype rules, column-major work copies of stacked matrices, workspaces
// from cupp's pool, batch pointer arrays, and the one info read a routine makes.
//
//   const auto& s = solver_on_current_stream(device);              // s.handle, s.params, s.stream
//   ndarray w = colmajor_copy(a, t);   // (..., n, m) C-contiguous = each a[i] column-major
//   check_cusolver(cusolverDnXgetrf(s.handle, s.params, ...), "cusolverDnXgetrf");
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::linalg::detail {

using i64 = std::int64_t;

struct solver_binding {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  cudaStream_t stream = nullptr;
};
// The calling thread's cuSOLVER handle on `device` (which must be current), on its current stream.
const solver_binding& solver_on_current_stream(int device);

// Side streams for loops of one-matrix cuSOLVER calls that do not synchronise the host (Xgetrf,
// Xgetrs, Xpotrf, ...): `count` lanes, each a cuSOLVER handle on its own non-blocking stream of
// `device` (kept per (thread, device), created on first use). Construction forks: every lane
// waits for the work queued so far on the device's current stream. join() (and the destructor,
// so an exception cannot leave the lanes running while their memory goes back to the pool) makes
// the current stream wait for every lane. Allocate what the lanes use on the current stream
// before forking and let it go after the join (declare the Memory before the side_streams).
class side_streams {
 public:
  side_streams(int device, int count);
  ~side_streams();
  side_streams(const side_streams&) = delete;
  side_streams& operator=(const side_streams&) = delete;
  int size() const noexcept { return count_; }
  // Lane i % size(): its handle, params and stream.
  const solver_binding& lane(i64 i) const;
  void join();

 private:
  int device_ = 0, count_ = 0;
  bool joined_ = false;
  void* state_ = nullptr;
};

// How many lanes a loop of `count` one-matrix calls takes: min(count, CUPP_LINALG_STREAMS) (read
// once; default 16; 1 turns the side streams off).
int lanes_for(i64 count);

// A linalg path chosen by an environment variable (read once): CUPP_LINALG_LU (auto, batched,
// loop, streams), CUPP_LINALG_SVD (auto, gesvd, gesvdj, gesvdp, jacobi), CUPP_LINALG_INV (auto,
// getri, getrs), CUPP_LINALG_SOLVE (auto, rowmajor, colmajor), CUPP_LINALG_GETRF_ALG (auto, 0, 1),
// CUPP_LINALG_COPY (auto, assign), CUPP_LINALG_CHOLESKY (auto, upper-fill); "auto" (or unset) gives
// an empty string. For benchmarks, set_path_override(name, value) replaces it (not thread-safe).
const std::string& path_choice(const char* variable);
void set_path_override(const char* variable, const std::string& value);

// How many matrices the calling thread's Xgesvdp SVDs handed to Xgesvd (svd.cpp; for the bench).
std::int64_t& gesvdp_redone();
// How many of the calling thread's gesvdj-method SVDs went to Xgesvd because a gesvdj call
// returned a status other than success (svd.cpp; cuSOLVER 12.0's EXECUTION_FAILED), or because
// one of the process had before (later calls skip gesvdj); for the bench and tests.
std::int64_t& gesvdj_fallbacks();
// "CUSOLVER_STATUS_..." for a cuSOLVER status.
const char* status_name(cusolverStatus_t status);

// Throws cupp::CudaError "<call> failed: CUSOLVER_STATUS_..." unless success (ALLOC_FAILED: OutOfMemoryError).
void check_cusolver(cusolverStatus_t status, const char* call);

// NumPy's _commonType: the computation dtype of a linalg routine's inputs (float32/complex64 stay
// single, float64/complex128 double, bool/integers/bfloat16 float64; float16 TypeError).
cupp::dtype linalg_type(std::initializer_list<const ndarray*> inputs);
cupp::dtype real_of(cupp::dtype t);
cupp::dtype complex_of(cupp::dtype t);
cudaDataType cuda_type(cupp::dtype t);

// Shape checks with NumPy's messages.
void require_ndim(const ndarray& a, int at_least, const char* routine);   // "%d-dimensional array given..."
void require_square(const ndarray& a, const char* routine);              // also ndim >= 2

// A C-contiguous (..., cols, rows) array of dtype t whose memory holds each matrix of a (..., rows,
// cols) in column-major order (ld = rows); its logical view is colmajor_view(w).
// A C-contiguous a of dtype t takes one tiled transpose kernel (solver_checks.cuh), other inputs
// cupp's assign; CUPP_LINALG_COPY=assign sends every input to assign (for the bench).
ndarray colmajor_copy(const ndarray& a, cupp::dtype t);
// colmajor_copy and scrub_nan in one pass where the kernel applies: each NaN of the copy set to 0
// and `flag` set (else the copy, then scrub_nan).
ndarray colmajor_copy_scrub(const ndarray& a, cupp::dtype t, const ndarray& flag);
// A C-ordered copy of a in dtype t, scrubbed of NaN as scrub_nan does, in one pass (one kernel)
// when a is C-contiguous of dtype t, else cupp's assign and scrub_nan.
ndarray rowmajor_copy_scrub(const ndarray& a, cupp::dtype t, const ndarray& flag);
// Sets to 0, in place, the elements below (lower) or above the diagonal of each n x n matrix of
// the C-contiguous w's C-ordered view.
void zero_triangle(const ndarray& w, i64 n, bool lower);
// For a stack of n x n LU factorisations' int32 pivots piv (batch, n), n <= permuted_identity_max_n:
// x (batch matrices of n x n, column-major, C-contiguous) = P I, the identity with the pivots'
// row interchanges done on it, and unit_piv (batch, n) int32 = 1 .. n (inv's `permuted` form:
// getrs with the unit pivots on x). One kernel.
inline constexpr i64 permuted_identity_max_n = 512;
void permuted_identity(const ndarray& piv, i64 n, const ndarray& x, const ndarray& unit_piv);
// Whether the one-kernel copies above are on (CUPP_LINALG_COPY unset or auto; "assign" turns
// them off).
bool kernel_copies();
ndarray colmajor_empty(std::span<const i64> batch, i64 rows, i64 cols, cupp::dtype t);
inline ndarray colmajor_view(const ndarray& w) { return w.swapaxes(-1, -2); }

// The number of matrices of a (..., r, c): the product of the leading dimensions.
i64 batch_count(const ndarray& a);
std::vector<i64> batch_shape(const ndarray& a);

// A device array of `count` pointers base + i * stride_bytes (int64), made by a ufunc kernel.
ndarray pointer_array(const void* base, i64 stride_bytes, i64 count);

// A workspace from cupp's pool on the current stream of `device` (zero bytes: a null block).
cupp::cuda::Memory workspace(std::size_t bytes, int device);

// Reads info[0] (an int32 device array) in one 4-byte transfer (one synchronisation).
int read_first_info(const ndarray& info);
// One-launch checks (linalg/device/cupp/linalg/solver_checks.cuh), each a (1,) int32 device flag
// (no read): lu_suspect_flag for packed n x n LU factors w (..., n, n) with info (batch,): some
// pivot zero or not finite, or some info nonzero; info_any_flag: some info nonzero.
ndarray lu_suspect_flag(const ndarray& w, const ndarray& info, i64 n);
// A zeroed (1,) int32 device flag on the current stream of `device`, and lu_suspect_flag's
// check setting an existing flag (which may already be set: e.g. by flag_nan on the input).
ndarray new_flag(int device);
void lu_suspect_into(const ndarray& w, const ndarray& info, i64 n, const ndarray& flag);
ndarray info_any_flag(const ndarray& info);
// Sets `flag` (one of the above) when the C-contiguous x holds a NaN.
void flag_nan(const ndarray& x, const ndarray& flag);
// The same, and each NaN of x (C-contiguous, writeable; a complex element's parts one by one) set
// to 0 in place: solve's and inv's work copy before the factorisation.
void scrub_nan(const ndarray& x, const ndarray& flag);
// The program of those checks for dtype t (for the host compile test).
cupp::detail::routine_program solver_checks_program(cupp::dtype t);
// Reads several 0-d bool device arrays in one transfer (one synchronisation).
std::vector<bool> read_flags(std::initializer_list<ndarray> flags);
// Per matrix of w (..., r, c): whether it holds a NaN (a bool array of the batch shape, no read).
ndarray nan_per_matrix(const ndarray& w);

// Reads `flag` (a 0-d bool array) once; throws LinAlgError(message) when true.
void raise_if(const ndarray& flag, const std::string& message);
// flag = any(info != 0) as a 0-d bool device array (no read).
ndarray info_failed(const ndarray& info);

// The elements of x's last two axes as one number each for BLAS (i64 fits int for batched APIs?).
int as_int(i64 v, const char* what);

}  // namespace cupp::linalg::detail
