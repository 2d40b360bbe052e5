// numpy.linalg.svd / svdvals and what is built on them (pinv, lstsq, matrix_rank). Stacks of
// matrices up to 32x32 go to cuSOLVER's gesvdjBatched (one launch for the batch); matrices above
// 32x32 whose working set fits one block's shared memory (float64 up to ~118x118) to cupp's own
// one-sided Jacobi kernel (linalg/device/cupp/linalg/jacobi_svd.cuh, one launch for the stack);
// others matrix after matrix (svd_loop: Xgesvd, or Xgesvdp for matrices of 256 and more, or
// gesvdj on side streams; CUPP_LINALG_SVD=gesvd|gesvdj|gesvdp|jacobi overrides the choice), on a
// column-major copy of a when M >= N and of a^T otherwise (the factors of a^T are read back
// transposed). hermitian=True goes through eigh as
// NumPy's does. NaN input and non-convergence raise "SVD did not converge" (one read per call).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "batched_api.hpp"
#include "compiler/launch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/linalg.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sorting.hpp"
#include "cupp/ufunc.hpp"
#include "linalg_device_headers.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {
namespace {

inline constexpr i64 gesvdj_batched_max = 32;
inline constexpr int jacobi_threads = 256;         // the shared-memory form
inline constexpr int jacobi_global_threads = 512;  // the global-memory form (70 registers a thread)
inline constexpr int jacobi_max_sweeps = 40;
inline constexpr i64 jacobi_global_max = 1024;

enum class jacobi_form { none, shared, global };

struct gesvdj_deleter {
  void operator()(gesvdjInfo* p) const noexcept { static_cast<void>(cusolverDnDestroyGesvdjInfo(p)); }
};

std::vector<i64> with_tail(std::vector<i64> s, std::initializer_list<i64> tail) {
  s.insert(s.end(), tail);
  return s;
}

// The identity-filled factors NumPy gives for an empty matrix.
SVDResult empty_svd(const ndarray& a, cupp::dtype t, bool full, bool uv) {
  const std::vector<i64> batch = batch_shape(a);
  const i64 m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  ndarray S = cupp::empty(with_tail(batch, {k}), real_of(t));
  if (!uv) return {{}, S, {}};
  const i64 uc = full ? m : k, vr = full ? n : k;
  ndarray U = cupp::empty(with_tail(batch, {m, uc}), t), Vh = cupp::empty(with_tail(batch, {vr, n}), t);
  if (U.size() > 0) U.assign(cupp::eye(m, uc, 0, t));
  if (Vh.size() > 0) Vh.assign(cupp::eye(vr, n, 0, t));
  return {U, S, Vh};
}

SVDResult svd_batched_small(const ndarray& a, cupp::dtype t, bool full, bool uv) {
  const std::vector<i64> batch = batch_shape(a);
  const i64 m = a.shape(-2), n = a.shape(-1), k = std::min(m, n), count = batch_count(a);
  ndarray w = colmajor_copy(a, t);
  const ndarray nan = cupp::any(cupp::isnan(w));
  ndarray S = cupp::empty(with_tail(batch, {k}), real_of(t));
  ndarray Uw = colmajor_empty(batch, m, m, t), Vw = colmajor_empty(batch, n, n, t);
  ndarray info = cupp::zeros({count}, cupp::int32);
  const int device = w.device();
  const solver_binding& s = solver_on_current_stream(device);
  gesvdjInfo_t raw = nullptr;
  check_cusolver(cusolverDnCreateGesvdjInfo(&raw), "cusolverDnCreateGesvdjInfo");
  std::unique_ptr<gesvdjInfo, gesvdj_deleter> params(raw);
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  with_type(t, [&](auto z) {
    using T = decltype(z);
    int lwork = 0;
    check_cusolver(gesvdj_batched_buffer<T>(s.handle, jobz, int(m), int(n), w.data(), int(m), S.data(), Uw.data(), int(m),
                                            Vw.data(), int(n), &lwork, params.get(), int(count)),
                   "cusolverDn<t>gesvdjBatched_bufferSize");
    cupp::cuda::Memory work = workspace(static_cast<std::size_t>(lwork) * sizeof(T), device);
    check_cusolver(gesvdj_batched<T>(s.handle, jobz, int(m), int(n), w.data(), int(m), S.data(), Uw.data(), int(m),
                                     Vw.data(), int(n), work.ptr(), lwork, static_cast<int*>(info.data()), params.get(),
                                     int(count)),
                   "cusolverDn<t>gesvdjBatched");
    return 0;
  });
  raise_if(info_failed(info) | nan, "SVD did not converge");
  if (!uv) return {{}, S, {}};
  // Uw's logical view is U (m, m); Vw's memory read row-major is V^T, so Vh = conj(Vw).
  ndarray U = colmajor_view(Uw), Vh = t.is_complex() ? cupp::conjugate(Vw) : Vw;
  if (!full) {
    U = U(cupp::ellipsis, cupp::slice(), cupp::slice(0, k));
    Vh = Vh(cupp::ellipsis, cupp::slice(0, k), cupp::slice());
  }
  return {U, S, Vh};
}

// The dynamic shared memory of jacobi_svd.cuh's block for an M x N working matrix (M >= N), with W
// and V in it (the shared form) or not (the global form).
std::size_t jacobi_shared_bytes(i64 M, i64 N, bool uv, cupp::dtype t, bool with_matrices = true) {
  const std::size_t e = t.itemsize(), r = real_of(t).itemsize();
  const i64 matrices = with_matrices ? M * N + (uv ? N * N : 0) : 0;
  return static_cast<std::size_t>(matrices + M) * e + static_cast<std::size_t>(N + M + 32) * r +
         static_cast<std::size_t>(2 + N) * sizeof(int);
}

int shared_limit(int device) {
  int v = 0;
  cupp::cuda::detail::check(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                            "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)");
  return v;
}

int sm_count(int device) {
  int v = 0;
  cupp::cuda::detail::check(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device),
                            "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
  return v;
}

// Which form of the batched Jacobi kernel a stack of count (m, n) matrices takes: none up to
// gesvdj's 32x32; shared when W and V fit one block's shared memory; global when the stack is
// large enough that one block per matrix beats Xgesvd matrix after matrix. The global form's
// estimate: ~15 sweeps, each moving 2 N^2 (M + N) elements through one SM at ~50 GB/s, in
// ceil(count / SMs) waves; Xgesvd's ~19 ms (N / 256)^1.35 per matrix (CuPy's loop on the H200).
// Both calibrated on the H200: 100 x 256^2 float64 180 ms (CuPy 1924 ms), 20 x 512^2 1145 ms
// (CuPy's loop 960 ms: that stack goes to Xgesvd).
jacobi_form jacobi_choice(i64 count, i64 m, i64 n, bool uv, cupp::dtype t, int device) {
  const i64 M = std::max(m, n), N = std::min(m, n);
  if (M <= gesvdj_batched_max) return jacobi_form::none;
  if (M <= 4096 && jacobi_shared_bytes(M, N, uv, t) <= static_cast<std::size_t>(shared_limit(device)))
    return jacobi_form::shared;
  if (count < 2 || M > jacobi_global_max) return jacobi_form::none;
  if (path_choice("CUPP_LINALG_SVD") == "jacobi") return jacobi_form::global;
  const double e = static_cast<double>(t.itemsize());
  const double sweep_s = 2.0 * double(N) * double(N) * double(M + (uv ? N : 0)) * e / 50e9;
  const double waves = std::ceil(double(count) / double(std::max(sm_count(device), 1)));
  const double jacobi_ms = 15.0 * sweep_s * 1e3 * waves;
  const double gesvd_ms = double(count) * 19.0 * std::pow(double(N) / 256.0, 1.35);
  return jacobi_ms < 0.7 * gesvd_ms ? jacobi_form::global : jacobi_form::none;
}

cupp::detail::routine_program jacobi_svd_program(cupp::dtype t) {
  std::string source = std::string("#define CUPP_SVD_R ") + (real_of(t).id() == type_id::float32 ? "float" : "double") + "\n";
  if (t.is_complex()) source += "#define CUPP_SVD_COMPLEX 1\n";
  source += "#include <cupp/linalg/jacobi_svd.cuh>\n";
  return {.name = "cupp_linalg_jacobi_svd",
          .source = std::move(source),
          .kernels = {"cupp_linalg_jacobi_svd"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

// A stack of matrices above 32x32 through cupp's one-sided Jacobi kernel (jacobi_svd.cuh): one
// block per matrix, one launch for the stack, the info read once with the NaN check.
SVDResult svd_jacobi(const ndarray& a, cupp::dtype t, bool full, bool uv, jacobi_form form) {
  const std::vector<i64> batch = batch_shape(a);
  const i64 m = a.shape(-2), n = a.shape(-1), count = batch_count(a);
  const bool tall = m >= n;
  const i64 M = tall ? m : n, N = tall ? n : m, pcols = full ? M : N;
  // The working matrices, W[j * M + i]: a column-major (tall), a row-major = conj(a^H) (wide).
  ndarray w;
  if (tall) {
    w = colmajor_copy(a, t);
  } else {
    w = cupp::empty(a.shape(), t);
    w.assign(a);
  }
  const ndarray nan = cupp::any(cupp::isnan(w));
  ndarray S = cupp::empty(with_tail(batch, {N}), real_of(t));
  ndarray Pw = cupp::empty(with_tail(batch, {uv ? pcols : 0, M}), t);
  ndarray Qw = cupp::empty(with_tail(batch, {uv ? N : 0, N}), t);
  ndarray info = cupp::zeros({count}, cupp::int32);
  const int device = w.device();
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {"linalg:jacobi_svd", static_cast<std::uint64_t>(t.id())}, [&] { return jacobi_svd_program(t); });
  const bool global = form == jacobi_form::global;
  const std::size_t shared = jacobi_shared_bytes(M, N, uv, t, !global);
  cupp::cuda::Memory vwork = global && uv ? workspace(static_cast<std::size_t>(count * N * N) * t.itemsize(), device)
                                          : cupp::cuda::Memory{};
  cupp::detail::device_scope scope(device);
  if (shared > 48 * 1024)
    cupp::cuda::detail::check(cudaKernelSetAttributeForDevice(module.kernel(0), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                              static_cast<int>(shared), device),
                              "cudaKernelSetAttributeForDevice(MaxDynamicSharedMemorySize)");
  const void* in = w.data();
  void* s_ptr = S.data();
  void* p_ptr = Pw.data();
  void* q_ptr = Qw.data();
  void* info_ptr = info.data();
  long long nb = count;
  int Mi = static_cast<int>(M), Ni = static_cast<int>(N), pc = static_cast<int>(pcols), want = uv ? 1 : 0,
      conj_in = tall ? 0 : 1, sweeps = jacobi_max_sweeps;
  const double eps = real_of(t).id() == type_id::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                                         : std::numeric_limits<double>::epsilon();
  const double tol_d = eps * static_cast<double>(M);
  float tol_f = static_cast<float>(tol_d);
  double tol_dd = tol_d;
  void* tol_ptr = real_of(t).id() == type_id::float32 ? static_cast<void*>(&tol_f) : static_cast<void*>(&tol_dd);
  void* gw = global ? w.data() : nullptr;  // the global form works in place in w
  void* gv = global && uv ? vwork.ptr() : nullptr;
  void* args[] = {&in, &s_ptr, &p_ptr, &q_ptr, &info_ptr, &nb, &Mi, &Ni, &pc, &want, &conj_in, tol_ptr, &sweeps, &gw, &gv};
  const unsigned grid = static_cast<unsigned>(std::min<i64>(count, i64{1} << 20));
  cupp::cuda::detail::check(cudaLaunchKernel(module.function(0), dim3(grid), dim3(global ? jacobi_global_threads : jacobi_threads),
                                             args, shared, cupp::cuda::detail::current_stream_handle(device)),
                            "cudaLaunchKernel(cupp_linalg_jacobi_svd)");
  raise_if(info_failed(info) | nan, "SVD did not converge");
  if (!uv) return {{}, S, {}};
  if (tall) return {colmajor_view(Pw), S, t.is_complex() ? cupp::conjugate(Qw) : Qw};
  return {colmajor_view(Qw), S, t.is_complex() ? cupp::conjugate(Pw) : Pw};
}

enum class loop_method { gesvd, gesvdj, gesvdp };

}  // namespace

std::int64_t& gesvdp_redone() {
  thread_local std::int64_t count = 0;
  return count;
}

std::int64_t& gesvdj_fallbacks() {
  thread_local std::int64_t count = 0;
  return count;
}

namespace {

// cusolverDnXgesvdp's result for one matrix is kept when its h_err_sigma (the perturbation the
// polar decomposition added for an ill-conditioned or rank-deficient matrix) is at most this many
// ulps of the largest singular value; else that matrix is factored again by Xgesvd.
inline constexpr double gesvdp_err_ulps = 64.0;

// Whether a cusolverDn<t>gesvdj call of this process has returned a status other than success.
std::atomic<bool>& gesvdj_refused() {
  static std::atomic<bool> refused{false};
  return refused;
}

// Matrix after matrix (Xgesvd, gesvdj on side streams, or Xgesvdp, which reads its error estimate
// back per call), on a column-major copy of a when M >= N and of a^T otherwise (the factors of
// a^T are read back transposed).
SVDResult svd_loop(const ndarray& a, cupp::dtype t, bool full, bool uv, loop_method method) {
  const std::vector<i64> batch = batch_shape(a);
  const i64 m0 = a.shape(-2), n0 = a.shape(-1), count = batch_count(a);
  const bool tall = m0 >= n0;  // the factors are of M >= N: a itself, else a^T
  const i64 m = tall ? m0 : n0, n = tall ? n0 : m0, k = n;
  auto work_copy = [&](const ndarray& x) {
    if (tall) return colmajor_copy(x, t);
    ndarray w = cupp::empty(x.shape(), t);
    w.assign(x);  // row-major x = column-major x^T (m x n, m > n)
    return w;
  };
  ndarray w = work_copy(a);
  const ndarray nan = cupp::any(cupp::isnan(w));
  ndarray S = cupp::empty(with_tail(batch, {k}), real_of(t));
  const i64 ucols = full && uv ? m : k;
  // Xgesvdp and gesvdj write through U and V even when asked for no vectors (Xgesvdp's QR step
  // copies R into U: a null U faulted on the H200), so those methods always get factor buffers
  // (economy-sized when the caller wants none); Xgesvd takes null ones.
  const bool factors = uv || method != loop_method::gesvd;
  // Xgesvd writes V^H (n x n); gesvdj and Xgesvdp write V (n x k; k = n here).
  ndarray Uw = colmajor_empty(batch, m, factors ? ucols : 0, t), VTw = colmajor_empty(batch, n, factors ? n : 0, t);
  ndarray info = cupp::zeros({count}, cupp::int32);
  const int device = w.device();
  const solver_binding& s = solver_on_current_stream(device);
  const cudaDataType ct = cuda_type(t), crt = cuda_type(real_of(t));
  const i64 isz = static_cast<i64>(t.itemsize()), rsz = static_cast<i64>(real_of(t).itemsize());
  auto w_at = [&](i64 i) { return static_cast<char*>(w.data()) + i * m * n * isz; };
  auto s_at = [&](i64 i) { return static_cast<char*>(S.data()) + i * k * rsz; };
  auto u_at = [&](i64 i) { return factors ? static_cast<char*>(Uw.data()) + i * m * ucols * isz : nullptr; };
  auto v_at = [&](i64 i) { return factors ? static_cast<char*>(VTw.data()) + i * n * n * isz : nullptr; };
  const signed char jobu = uv ? (full ? 'A' : 'S') : 'N', jobvt = uv ? 'A' : 'N';
  auto gesvd_one = [&](const solver_binding& l, i64 i, void* dwork, std::size_t dbytes, void* hwork, std::size_t hbytes) {
    check_cusolver(cusolverDnXgesvd(l.handle, l.params, jobu, jobvt, m, n, ct, w_at(i), m, crt, s_at(i), ct, u_at(i), m,
                                    ct, v_at(i), n, ct, dwork, dbytes, hwork, hbytes, static_cast<int*>(info.data()) + i),
                   "cusolverDnXgesvd");
  };
  auto gesvd_sizes = [&](std::size_t& dbytes, std::size_t& hbytes) {
    check_cusolver(cusolverDnXgesvd_bufferSize(s.handle, s.params, jobu, jobvt, m, n, ct, w.data(), m, crt, S.data(), ct,
                                               factors ? Uw.data() : nullptr, m, ct, factors ? VTw.data() : nullptr, n, ct, &dbytes,
                                               &hbytes),
                   "cusolverDnXgesvd_bufferSize");
  };
  bool v_not_vh = false;  // VTw holds V (gesvdj, Xgesvdp) rather than V^H (Xgesvd)
  if (method == loop_method::gesvd) {
    std::size_t dbytes = 0, hbytes = 0;
    gesvd_sizes(dbytes, hbytes);
    cupp::cuda::Memory dwork = workspace(dbytes, device);
    std::vector<char> hwork(hbytes);
    for (i64 i = 0; i < count; ++i) gesvd_one(s, i, dwork.ptr(), dbytes, hwork.data(), hbytes);
  } else if (method == loop_method::gesvdj) {
    // gesvdj per matrix (PyTorch's path above 32x32), on side streams, one gesvdjInfo per lane.
    // Once a call has been refused (below), the process's later gesvdj SVDs go to Xgesvd at once.
    if (gesvdj_refused().load(std::memory_order_relaxed)) {
      ++gesvdj_fallbacks();
      return svd_loop(a, t, full, uv, loop_method::gesvd);
    }
    v_not_vh = true;
    const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const int econ = full && uv ? 0 : 1;
    const int lanes = lanes_for(count);
    std::vector<std::unique_ptr<gesvdjInfo, gesvdj_deleter>> params;
    for (int j = 0; j < lanes; ++j) {
      gesvdjInfo_t raw = nullptr;
      check_cusolver(cusolverDnCreateGesvdjInfo(&raw), "cusolverDnCreateGesvdjInfo");
      params.emplace_back(raw);
    }
    // U m x ucols and V n x n (k = n) as Xgesvd's; without vectors cuSOLVER still wants ld >= 1.
    const int ldu = static_cast<int>(m), ldv = static_cast<int>(n);
    cusolverStatus_t refused = CUSOLVER_STATUS_SUCCESS;  // the first status other than success
    with_type(t, [&](auto z) {
      using T = decltype(z);
      int lwork = 0;
      const cusolverStatus_t sized = gesvdj_buffer<T>(s.handle, jobz, econ, int(m), int(n), w.data(), int(m), S.data(),
                                                      u_at(0), ldu, v_at(0), ldv, &lwork, params[0].get());
      if (sized == CUSOLVER_STATUS_ALLOC_FAILED) check_cusolver(sized, "cusolverDn<t>gesvdj_bufferSize");
      if (sized != CUSOLVER_STATUS_SUCCESS) {  // refused as a call would be (below)
        refused = sized;
        return 0;
      }
      const std::size_t step = (static_cast<std::size_t>(lwork) * sizeof(T) + 255) / 256 * 256;
      cupp::cuda::Memory work = workspace(step * static_cast<std::size_t>(lanes), device);
      side_streams side(device, lanes);  // after the workspace: joined before it goes back
      for (i64 i = 0; i < count; ++i) {
        const std::size_t j = static_cast<std::size_t>(i % side.size());
        const cusolverStatus_t status =
            gesvdj<T>(side.lane(i).handle, jobz, econ, int(m), int(n), w_at(i), int(m), s_at(i), u_at(i), ldu, v_at(i),
                      ldv, static_cast<char*>(work.ptr()) + j * step, lwork, static_cast<int*>(info.data()) + i,
                      params[j].get());
        if (status == CUSOLVER_STATUS_SUCCESS) continue;
        if (status == CUSOLVER_STATUS_ALLOC_FAILED) check_cusolver(status, "cusolverDn<t>gesvdj");
        refused = status;
        break;
      }
      side.join();
      return 0;
    });
    if (refused != CUSOLVER_STATUS_SUCCESS) {
      // cuSOLVER 12.0 (CUDA 13.0) answers some calls of cusolverDn<t>gesvdj with
      // CUSOLVER_STATUS_EXECUTION_FAILED for valid arguments (the H200 run of SvdLoopMethods; the
      // same status is reported upstream for a 6x5 float64 matrix). The whole stack goes to
      // Xgesvd instead (w may be half overwritten: svd_loop starts from a), unless the device
      // itself reports an error, which no fallback can cure.
      static_cast<void>(cudaGetLastError());  // a failed launch inside cuSOLVER: not for cupp's next check
      const cudaError_t e = cudaStreamSynchronize(s.stream);
      if (e != cudaSuccess)
        throw CudaError(std::string("cusolverDn<t>gesvdj failed: ") + status_name(refused) + ", and the device reports " +
                            cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")",
                        static_cast<int>(e));
      gesvdj_refused().store(true, std::memory_order_relaxed);
      ++gesvdj_fallbacks();
      return svd_loop(a, t, full, uv, loop_method::gesvd);
    }
  } else {
    // Xgesvdp: polar decomposition + Xsyevd; one host read per call (its error estimate). A
    // matrix whose estimate is large is factored again by Xgesvd from a fresh copy.
    v_not_vh = true;
    const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const int econ = full && uv ? 0 : 1;
    std::size_t dbytes = 0, hbytes = 0;
    check_cusolver(cusolverDnXgesvdp_bufferSize(s.handle, s.params, jobz, econ, m, n, ct, w.data(), m, crt, S.data(), ct,
                                                factors ? Uw.data() : nullptr, m, ct, factors ? VTw.data() : nullptr, n, ct, &dbytes,
                                                &hbytes),
                   "cusolverDnXgesvdp_bufferSize");
    cupp::cuda::Memory dwork = workspace(dbytes, device);
    std::vector<char> hwork(hbytes);
    const double eps = real_of(t).id() == type_id::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                                           : std::numeric_limits<double>::epsilon();
    std::vector<i64> redo;
    for (i64 i = 0; i < count; ++i) {
      double err = 0;
      const cusolverStatus_t status =
          cusolverDnXgesvdp(s.handle, s.params, jobz, econ, m, n, ct, w_at(i), m, crt, s_at(i), ct, u_at(i), m, ct,
                            v_at(i), n, ct, dwork.ptr(), dbytes, hwork.data(), hbytes,
                            static_cast<int*>(info.data()) + i, &err);
      if (status == CUSOLVER_STATUS_ALLOC_FAILED) check_cusolver(status, "cusolverDnXgesvdp");
      if (status != CUSOLVER_STATUS_SUCCESS) {  // a matrix (or a type) it does not take: Xgesvd's
        redo.push_back(i);
        continue;
      }
      // Its info, largest and smallest singular values (the call has synchronised already).
      int inf = 0;
      double first = 0, last = 0;
      float ff = 0, fl = 0;
      const bool single = real_of(t).id() == type_id::float32;
      const std::size_t rs = single ? sizeof ff : sizeof first;
      cupp::cuda::detail::check(cudaMemcpyAsync(single ? static_cast<void*>(&ff) : static_cast<void*>(&first), s_at(i), rs,
                                                cudaMemcpyDeviceToHost, s.stream),
                                "cudaMemcpyAsync");
      cupp::cuda::detail::check(cudaMemcpyAsync(single ? static_cast<void*>(&fl) : static_cast<void*>(&last),
                                                s_at(i) + (k - 1) * rsz, rs, cudaMemcpyDeviceToHost, s.stream),
                                "cudaMemcpyAsync");
      cupp::cuda::detail::check(cudaMemcpyAsync(&inf, static_cast<int*>(info.data()) + i, sizeof inf,
                                                cudaMemcpyDeviceToHost, s.stream),
                                "cudaMemcpyAsync");
      cupp::cuda::detail::check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
      if (single) {
        first = ff;
        last = fl;
      }
      // Kept when it succeeded, its perturbation is small and the matrix is clearly of full rank:
      // the polar factor of a rank-deficient matrix need not be unitary (cuSOLVER warns), and a
      // zero singular value can come back as anything up to err, which may exceed the rank
      // threshold matrix_rank uses (eps * max(m, n) * first; on the H100, Xgesvdp gave a rank-3
      // 60 x 50 matrix rank 50). The smallest value must exceed twice the error bound, so the
      // true one (>= last - err, Weyl) is above it too.
      const double scale = eps * static_cast<double>(m) * first;  // m = max(M, N) here
      if (!(inf == 0 && err <= gesvdp_err_ulps * scale && last > 2 * gesvdp_err_ulps * scale)) redo.push_back(i);
    }
    gesvdp_redone() += static_cast<std::int64_t>(redo.size());
    if (!redo.empty()) {
      // Xgesvd writes V^H: convert those matrices' V^H to V afterwards (V = (V^H)^H); its info
      // replaces Xgesvdp's.
      const ndarray fresh = work_copy(a);
      cupp::cuda::detail::check(cudaMemcpyAsync(w.data(), fresh.data(), static_cast<std::size_t>(w.nbytes()),
                                                cudaMemcpyDeviceToDevice, s.stream),
                                "cudaMemcpyAsync");
      std::size_t gd = 0, gh = 0;
      gesvd_sizes(gd, gh);
      cupp::cuda::Memory gwork = workspace(gd, device);
      std::vector<char> ghost(gh);
      const ndarray vflat = uv ? VTw.reshape({count, n, n}) : ndarray{};
      for (i64 i : redo) {
        gesvd_one(s, i, gwork.ptr(), gd, ghost.data(), gh);
        if (uv) {
          const ndarray vi = vflat(i);
          const ndarray v = vi.swapaxes(-1, -2);
          vi.assign(cupp::ascontiguousarray(t.is_complex() ? cupp::conjugate(v) : v));
        }
      }
    }
  }
  raise_if(info_failed(info) | nan, "SVD did not converge");
  if (!uv) return {{}, S, {}};
  // VTw is column-major V^H (Xgesvd) or V (gesvdj, Xgesvdp). Tall: Vh = colmajor_view(VTw), or
  // V^H = conj(V^T) = conj(VTw read row-major). Wide (a^T = U' S V'^H, so a = conj(V') S U'^T):
  // U = conj(V') (VTw read row-major for Xgesvd, conj(colmajor_view(VTw)) for the others) and
  // Vh = U'^T, which is Uw read row-major.
  const auto conj_if = [&](const ndarray& x) { return t.is_complex() ? cupp::conjugate(x) : x; };
  if (tall) return {colmajor_view(Uw), S, v_not_vh ? conj_if(VTw) : colmajor_view(VTw)};
  return {v_not_vh ? conj_if(colmajor_view(VTw)) : VTw, S, Uw};
}

// The loop method: CUPP_LINALG_SVD if it names one, else Xgesvdp for matrices of 256 and more,
// one or a stack (on the H200, 20 x 512^2 float64: Xgesvdp 245 ms in all against Xgesvd's 48 ms
// per matrix; a single 4096^2 on Xgesvd took 1711 ms against PyTorch's gesvdj 1633;
// linalg/bench/host_path.cpp's solvers section times both), Xgesvd otherwise.
loop_method loop_method_for(i64 count, i64 m, i64 n) {
  const std::string& p = path_choice("CUPP_LINALG_SVD");
  if (p == "gesvd") return loop_method::gesvd;
  // gesvdj per matrix on side streams is turned off: on the H200 with cuSOLVER 12.0 (CUDA 13.0) its
  // calls first failed with EXECUTION_FAILED, and with the fallback to Xgesvd in place a later call
  // left an illegal-address fault that loses the CUDA context (session 19, SvdLoopMethods). The code
  // stays for the day a cuSOLVER runs it cleanly (loop_method::gesvdj).
  if (p == "gesvdj")
    throw ValueError("CUPP_LINALG_SVD=gesvdj is turned off (cuSOLVER 12.0's gesvdj faulted on the H200); "
                     "use gesvd, gesvdp or jacobi");
  if (p == "gesvdp") return loop_method::gesvdp;
  static_cast<void>(count);
  return std::min(m, n) >= 256 ? loop_method::gesvdp : loop_method::gesvd;
}

}  // namespace

SVDResult svd_impl(const ndarray& a, const svd_options& o) {
  require_ndim(a, 2, "svd");
  const cupp::dtype t = linalg_type({&a});
  if (o.hermitian) {
    require_square(a, "svd");
    if (!o.compute_uv) {
      const ndarray s = cupp::absolute(eigvalsh(a));
      return {{}, cupp::flip(cupp::sort(s, -1), -1), {}};
    }
    auto [s0, u0] = eigh(a);
    const ndarray sgn = cupp::sign(s0);
    const ndarray s1 = cupp::absolute(s0);
    const ndarray sidx = cupp::flip(cupp::argsort(s1, -1), -1);
    const ndarray sg = cupp::take_along_axis(sgn, sidx, -1);
    const ndarray s = cupp::take_along_axis(s1, sidx, -1);
    const ndarray u = cupp::take_along_axis(u0, sidx.expand_dims(-2), -1);
    ndarray vt = (u * cupp::astype(sg, t).expand_dims(-2)).swapaxes(-1, -2);
    if (t.is_complex()) vt = cupp::conjugate(vt);
    return {u, s, vt};
  }
  if (a.size() == 0) return empty_svd(a, t, o.full_matrices, o.compute_uv);
  const i64 m = a.shape(-2), n = a.shape(-1);
  if (batch_count(a) >= 2 && m <= gesvdj_batched_max && n <= gesvdj_batched_max)
    return svd_batched_small(a, t, o.full_matrices, o.compute_uv);
  const std::string& p = path_choice("CUPP_LINALG_SVD");
  const bool forced_loop = p == "gesvd" || p == "gesvdj" || p == "gesvdp";
  const jacobi_form form = forced_loop ? jacobi_form::none : jacobi_choice(batch_count(a), m, n, o.compute_uv, t, a.device());
  if (form != jacobi_form::none) return svd_jacobi(a, t, o.full_matrices, o.compute_uv, form);
  return svd_loop(a, t, o.full_matrices, o.compute_uv, loop_method_for(batch_count(a), m, n));
}

double eps_of(cupp::dtype t) {
  return real_of(t).id() == type_id::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                             : std::numeric_limits<double>::epsilon();
}

}  // namespace cupp::linalg::detail

namespace cupp::linalg {

using detail::i64;

SVDResult svd(const ndarray& a, const svd_options& options) { return detail::svd_impl(a, options); }

ndarray svdvals(const ndarray& x) { return detail::svd_impl(x, {.compute_uv = false}).S; }

ndarray pinv(const ndarray& a, const pinv_options& options) {
  detail::require_ndim(a, 2, "pinv");
  const cupp::dtype t = detail::linalg_type({&a});
  double rcond;
  if (options.rcond) {
    if (options.rtol) throw ValueError("`rtol` and `rcond` can't be both set.");
    rcond = *options.rcond;
  } else {
    rcond = options.rtol ? *options.rtol : 1e-15;
  }
  const i64 m = a.shape(-2), n = a.shape(-1);
  if (a.size() == 0) {
    std::vector<i64> shape = detail::batch_shape(a);
    shape.insert(shape.end(), {n, m});
    return cupp::empty(shape, t);
  }
  const ndarray ac = t.is_complex() ? cupp::conjugate(cupp::astype(a, t)) : a;
  auto [u, s, vt] = detail::svd_impl(ac, {.full_matrices = false, .hermitian = options.hermitian});
  const ndarray cutoff = cupp::max(s, {.axis = {-1}, .keepdims = true}) * rcond;
  const ndarray large = s > cutoff;
  const ndarray sinv = cupp::where(large, cupp::reciprocal(s), cupp::zeros({1}, s.dtype()));
  return cupp::matmul(vt.swapaxes(-1, -2), cupp::astype(sinv, t).expand_dims(-1) * u.swapaxes(-1, -2));
}

ndarray matrix_rank(const ndarray& A, const matrix_rank_options& options) {
  if (A.is_null()) throw ValueError("matrix_rank: a null array");
  if (A.ndim() < 2) return cupp::astype(cupp::any(A != 0), cupp::int64);
  const ndarray S = detail::svd_impl(A, {.compute_uv = false, .hermitian = options.hermitian}).S;
  ndarray tol;
  if (options.tol) {
    tol = cupp::full({1}, *options.tol, S.dtype());
  } else {
    const double rtol = options.rtol ? *options.rtol
                                     : static_cast<double>(std::max(A.shape(-2), A.shape(-1))) * detail::eps_of(S.dtype());
    tol = cupp::max(S, {.axis = {-1}, .keepdims = true}) * rtol;
  }
  return cupp::astype(cupp::count_nonzero(S > tol, {.axis = {-1}}), cupp::int64);
}

lstsq_result lstsq(const ndarray& a, const ndarray& b, const lstsq_options& options) {
  if (a.is_null() || b.is_null()) throw ValueError("lstsq: a null array");
  if (a.ndim() != 2)
    throw LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be two-dimensional");
  if (b.ndim() != 1 && b.ndim() != 2)
    throw LinAlgError(std::to_string(b.ndim()) + "-dimensional array given. Array must be one or two-dimensional");
  const cupp::dtype t = detail::linalg_type({&a, &b});
  const cupp::dtype rt = detail::real_of(t);
  const i64 m = a.shape(0), n = a.shape(1);
  const bool vector = b.ndim() == 1;
  if (b.shape(0) != m)
    throw LinAlgError("Incompatible dimensions");
  const ndarray b2 = cupp::astype(vector ? b.reshape({m, 1}) : b, t);
  const i64 k = b2.shape(1);
  const double rcond = options.rcond ? *options.rcond : detail::eps_of(t) * static_cast<double>(std::max(m, n));
  if (m == 0 || n == 0) {
    ndarray x = cupp::zeros({n, k}, t);
    ndarray s = cupp::empty({0}, rt);
    ndarray res = m == 0 && n > 0 ? ndarray(cupp::empty({0}, rt)) : cupp::empty({0}, rt);
    return {vector ? x.reshape({n}) : x, res, cupp::zeros({}, cupp::int32), s};
  }
  auto [u, s, vh] = detail::svd_impl(cupp::astype(a, t), {.full_matrices = false});
  const ndarray cutoff = cupp::max(s, {.axis = {-1}, .keepdims = true}) * rcond;
  const ndarray large = s > cutoff;
  const ndarray sinv = cupp::astype(cupp::where(large, cupp::reciprocal(s), cupp::zeros({1}, rt)), t);
  ndarray uh = u.swapaxes(-1, -2), v = vh.swapaxes(-1, -2);
  if (t.is_complex()) {
    uh = cupp::conjugate(uh);
    v = cupp::conjugate(v);
  }
  const ndarray x = cupp::matmul(v, sinv.expand_dims(-1) * cupp::matmul(uh, b2));
  const ndarray rank = cupp::astype(cupp::count_nonzero(large), cupp::int32);  // NumPy's: LAPACK's int
  const std::int64_t r = rank.item<std::int64_t>();
  ndarray residuals;
  if (r == n && m > n) {
    const ndarray d = b2 - cupp::matmul(cupp::astype(a, t), x);
    const ndarray sq = t.is_complex() ? cupp::square(d.real()) + cupp::square(d.imag()) : cupp::square(d);
    residuals = cupp::sum(sq, {.axis = {0}});
  } else {
    residuals = cupp::empty({0}, rt);
  }
  return {vector ? cupp::ascontiguousarray(x).reshape({n}) : x, residuals, rank, s};
}

}  // namespace cupp::linalg
