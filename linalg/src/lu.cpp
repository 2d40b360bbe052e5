// numpy.linalg's LU-based routines (solve, inv, det, slogdet, tensorsolve, tensorinv) and
// scipy.linalg's lu, lu_factor, lu_solve. One LU core: a stack of small square matrices goes to
// cuBLAS's getrfBatched / getrsBatched (one launch for the batch); a single matrix, a large one or a
// rectangular one to cuSOLVER's 64-bit Xgetrf / Xgetrs, one call per matrix. Work copies are
// column-major (solver_common.hpp), so no transpose flag is needed. solve and inv read once
// whether a pivot is exactly zero (LinAlgError "Singular matrix"); det and slogdet read nothing.
// lu and lu_factor of complex stacks take cuSOLVER's path: cuBLAS's complex getrfBatched picks
// other pivots than LAPACK's (the factors, unlike solve's x, are results; the GPU reference set
// showed it), so SciPy's P, L, U and pivots come only from Xgetrf.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
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
#include "cupp/ufunc.hpp"
#include "handles.hpp"
#include "linalg_device_headers.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {

bool lu_uses_batched(i64 batch, i64 m, i64 n) { return batch >= 2 && m == n && n <= batched_lu_max_n; }

lu_path choose_lu_path(i64 batch, i64 m, i64 n, bool force_solver) {
  const bool can_batch = !force_solver && lu_uses_batched(batch, m, n);
  const std::string& p = path_choice("CUPP_LINALG_LU");
  if (p == "batched" && can_batch) return lu_path::batched;
  if (p == "blocked" && can_batch && n <= blocked_lu_max_n) return lu_path::blocked;
  if (p == "loop") return lu_path::loop;
  if (p == "streams") return batch >= 2 ? lu_path::streams : lu_path::loop;
  if (blocked_lu_by_default && can_batch && n <= blocked_lu_max_n) return lu_path::blocked;
  if (can_batch && n < lu_streams_min_n) return lu_path::batched;
  if (batch >= 2 && std::min(m, n) >= lu_streams_min_n) return lu_path::streams;
  return can_batch ? lu_path::batched : lu_path::loop;
}

ndarray rowmajor_copy(const ndarray& a, cupp::dtype t) {
  ndarray w = cupp::empty(a.shape(), t);
  if (w.size() > 0) w.assign(a);
  return w;
}

inv_form inv_form_choice(i64 n) {
  const std::string& p = path_choice("CUPP_LINALG_INV");
  const bool permuted_fits = n <= permuted_identity_max_n;
  if (p == "getri") return inv_form::getri;
  if (p == "getrs") return inv_form::getrs;
  if (p == "permuted" && permuted_fits) return inv_form::permuted;
  return permuted_fits && n >= inv_permuted_min_n ? inv_form::permuted : inv_form::getri;  // auto (lu_core.hpp)
}

bool solve_colmajor(i64 batch, i64 n) {
  const std::string& p = path_choice("CUPP_LINALG_SOLVE");
  if (p == "colmajor") return true;
  if (p == "rowmajor") return false;
  return batch == 1 && n >= solve_colmajor_min_n;
}

// cuSOLVER's Xgetrf algorithm on `params`: CUPP_LINALG_GETRF_ALG=1 sets CUSOLVER_ALG_1 before the
// call; once it has been set in the process, other calls set ALG_0 back (the bench switches it);
// until then the params are left as cuSOLVER made them.
static std::atomic<bool> getrf_alg_touched{false};
static void set_getrf_alg(cusolverDnParams_t params) {
  const bool alg1 = path_choice("CUPP_LINALG_GETRF_ALG") == "1";
  if (!alg1 && !getrf_alg_touched.load(std::memory_order_relaxed)) return;
  getrf_alg_touched.store(true, std::memory_order_relaxed);
  check_cusolver(cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, alg1 ? CUSOLVER_ALG_1 : CUSOLVER_ALG_0),
                 "cusolverDnSetAdvOptions(GETRF)");
}

int lu_blocked_nb(cupp::dtype t) { return t.is_complex() ? 16 : 32; }

cupp::detail::routine_program lu_blocked_program(cupp::dtype t) {
  std::string source = std::string("#define CUPP_LINALG_R ") + (real_of(t).id() == type_id::float32 ? "float" : "double") +
                       "\n#define CUPP_LINALG_NB " + std::to_string(lu_blocked_nb(t)) + "\n";
  if (t.is_complex()) source += "#define CUPP_LINALG_COMPLEX 1\n";
  source += "#include <cupp/linalg/lu_blocked.cuh>\n";
  return {.name = "cupp_linalg_lu_blocked",
          .source = std::move(source),
          .kernels = {"cupp_linalg_lu_panel"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

// The blocked LU of the stack w (batch x n x n, column-major) in place: per panel of nb columns,
// the panel kernel (pivots, interchanges, U12), then A22 -= L21 U12 as one strided batched GEMM.
// piv (batch, n) int32 1-based, info (batch,) int32, zeroed here.
static void blocked_getrf(const ndarray& w, i64 n, i64 batch, const ndarray& piv, const ndarray& info) {
  const int device = w.device();
  const cupp::dtype t = w.dtype();
  const cudaStream_t stream = cupp::cuda::detail::current_stream_handle(device);
  cupp::cuda::detail::check(cudaMemsetAsync(info.data(), 0, static_cast<std::size_t>(batch) * sizeof(int), stream),
                            "cudaMemsetAsync");
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {"linalg:lu_blocked", static_cast<std::uint64_t>(t.id())}, [&] { return lu_blocked_program(t); });
  const blas_binding& blas = blas_on_current_stream(device);
  const i64 nb = lu_blocked_nb(t), isz = static_cast<i64>(t.itemsize());
  const unsigned threads = static_cast<unsigned>(std::max<i64>((n + 31) / 32 * 32, 32));
  const cudaDataType ct = cuda_type(t);
  const cublasComputeType_t compute =
      real_of(t).id() == type_id::float32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;  // no TF32 (the handle keeps the default math mode)
  const double alpha64[2] = {-1.0, 0.0}, beta64[2] = {1.0, 0.0};
  const float alpha32[2] = {-1.0f, 0.0f}, beta32[2] = {1.0f, 0.0f};
  const bool single = real_of(t).id() == type_id::float32;
  char* a = static_cast<char*>(w.data());
  void* pp = piv.data();
  void* pi = info.data();
  long long lb = batch, ln = n;
  for (i64 k0 = 0; k0 < n; k0 += nb) {
    long long lk = k0;
    void* pa = a;
    void* args[] = {&pa, &pp, &pi, &lb, &ln, &lk};
    cupp::detail::launch_1d(module.function(0), batch * threads, args, device, std::min<i64>(batch, i64{1} << 20),
                            threads);
    const i64 m2 = n - k0 - nb;
    if (m2 <= 0) continue;
    // A22 (k0+nb.., k0+nb..) -= L21 (k0+nb.., k0..k0+nb) U12 (k0..k0+nb, k0+nb..)
    const char* l21 = a + (k0 * n + k0 + nb) * isz;
    const char* u12 = a + ((k0 + nb) * n + k0) * isz;
    char* a22 = a + ((k0 + nb) * n + k0 + nb) * isz;
    check_cublas(cublasGemmStridedBatchedEx(blas.cublas, CUBLAS_OP_N, CUBLAS_OP_N, as_int(m2, "n"), as_int(m2, "n"),
                                            as_int(nb, "nb"), single ? static_cast<const void*>(alpha32) : alpha64, l21,
                                            ct, as_int(n, "n"), n * n, u12, ct, as_int(n, "n"), n * n,
                                            single ? static_cast<const void*>(beta32) : beta64, a22, ct, as_int(n, "n"),
                                            n * n, as_int(batch, "the batch"), compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx");
  }
}

lu_factors getrf(const ndarray& w, i64 m, i64 n, bool force_solver) {
  lu_factors f;
  f.w = w;
  f.m = m;
  f.n = n;
  const i64 batch = batch_count(w), k = std::min(m, n);
  std::vector<i64> pshape = batch_shape(w);
  pshape.push_back(k);
  const lu_path path = choose_lu_path(batch, m, n, force_solver);
  f.blas = path == lu_path::batched || path == lu_path::blocked;  // cuBLAS's pivots and getrs either way
  f.lanes = path == lu_path::streams;
  f.piv = cupp::empty(pshape, f.blas ? cupp::int32 : cupp::int64);
  f.info = cupp::empty({std::max<i64>(batch, 1)}, cupp::int32);
  if (batch == 0 || k == 0) {
    f.info.fill(0);
    return f;
  }
  const int device = w.device();
  const cupp::dtype t = w.dtype();
  const i64 isz = static_cast<i64>(t.itemsize());
  if (path == lu_path::blocked) {
    blocked_getrf(w, n, batch, f.piv, f.info);
    f.ptrs = pointer_array(w.data(), m * n * isz, batch);
    return f;
  }
  if (f.blas) {
    const blas_binding& blas = blas_on_current_stream(device);
    f.ptrs = pointer_array(w.data(), m * n * isz, batch);
    const ndarray& p = f.ptrs;
    with_type(t, [&](auto z) {
      check_cublas(getrf_batched<decltype(z)>(blas.cublas, as_int(n, "n"), p.data(), as_int(n, "n"),
                                              static_cast<int*>(f.piv.data()), static_cast<int*>(f.info.data()),
                                              as_int(batch, "the batch")),
                   "cublas<t>getrfBatched");
      return 0;
    });
    return f;
  }
  const solver_binding& s = solver_on_current_stream(device);
  const cudaDataType ct = cuda_type(t);
  set_getrf_alg(s.params);
  std::size_t dbytes = 0, hbytes = 0;
  check_cusolver(cusolverDnXgetrf_bufferSize(s.handle, s.params, m, n, ct, w.data(), std::max<i64>(m, 1), ct, &dbytes,
                                             &hbytes),
                 "cusolverDnXgetrf_bufferSize");
  const int lanes = f.lanes ? lanes_for(batch) : 1;
  const std::size_t dstep = (dbytes + 255) / 256 * 256;
  cupp::cuda::Memory dwork = workspace(dstep * static_cast<std::size_t>(lanes), device);
  std::vector<char> hwork(std::max<std::size_t>(hbytes, 1) * static_cast<std::size_t>(lanes));
  char* a = static_cast<char*>(w.data());
  auto* piv = static_cast<std::int64_t*>(f.piv.data());
  int* info = static_cast<int*>(f.info.data());
  side_streams side(device, lanes);  // after the workspace: joined before it goes back
  for (i64 i = 0; i < batch; ++i) {
    const solver_binding& l = side.lane(i);
    const std::size_t j = static_cast<std::size_t>(i % side.size());
    if (i < side.size() && l.params != s.params) set_getrf_alg(l.params);
    check_cusolver(cusolverDnXgetrf(l.handle, l.params, m, n, ct, a + i * m * n * isz, std::max<i64>(m, 1), piv + i * k,
                                    ct, static_cast<char*>(dwork.ptr()) + j * dstep, dbytes,
                                    hwork.data() + j * std::max<std::size_t>(hbytes, 1), hbytes, info + i),
                   "cusolverDnXgetrf");
  }
  side.join();
  return f;
}

void getrs(const lu_factors& f, const ndarray& bw, i64 nrhs, cublasOperation_t op) {
  const i64 n = f.n, batch = batch_count(f.w);
  if (batch == 0 || n == 0 || nrhs == 0) return;
  const int device = f.w.device();
  const cupp::dtype t = f.w.dtype();
  const i64 isz = static_cast<i64>(t.itemsize());
  if (f.blas) {
    const blas_binding& blas = blas_on_current_stream(device);
    const ndarray pa = f.ptrs.is_null() ? pointer_array(f.w.data(), n * n * isz, batch) : f.ptrs;
    const ndarray pb = pointer_array(bw.data(), n * nrhs * isz, batch);
    int host_info = 0;
    with_type(t, [&](auto z) {
      check_cublas(getrs_batched<decltype(z)>(blas.cublas, op, as_int(n, "n"), as_int(nrhs, "nrhs"), pa.data(),
                                              as_int(n, "n"), static_cast<const int*>(f.piv.data()), pb.data(),
                                              as_int(n, "n"), &host_info, as_int(batch, "the batch")),
                   "cublas<t>getrsBatched");
      return 0;
    });
    if (host_info != 0)
      throw CudaError("cublas<t>getrsBatched: invalid parameter " + std::to_string(-host_info), host_info);
    return;
  }
  const cudaDataType ct = cuda_type(t);
  const int lanes = f.lanes ? lanes_for(batch) : 1;
  const ndarray info = cupp::empty({lanes}, cupp::int32);
  const char* a = static_cast<const char*>(f.w.data());
  char* b = static_cast<char*>(bw.data());
  const auto* piv = static_cast<const std::int64_t*>(f.piv.data());
  side_streams side(device, lanes);
  for (i64 i = 0; i < batch; ++i) {
    const solver_binding& l = side.lane(i);
    check_cusolver(cusolverDnXgetrs(l.handle, l.params, op, n, nrhs, ct, a + i * n * n * isz, n, piv + i * n, ct,
                                    b + i * n * nrhs * isz, n, static_cast<int*>(info.data()) + i % side.size()),
                   "cusolverDnXgetrs");
  }
  side.join();
}

// LAPACK's singular condition, which NumPy raises on: some U(i, i) of the packed LU is exactly zero,
// in a matrix that held no NaN (`nan`, per matrix, from the input). NumPy's inv and solve of NaN
// give NaN without raising; cuSOLVER's getrf flags NaN pivots in info and may leave zeros on the
// diagonal of such a matrix, so neither info nor the diagonal alone tells. A 0-d bool, no read.
static ndarray singular_without_nan(const lu_factors& f, const ndarray& nan) {
  return cupp::any(cupp::any(f.w.diagonal(0, -2, -1) == 0, {.axis = {-1}}) & ~nan);
}

// After the solve, NumPy's rules with one read in the common case: `suspect` is read first. It
// is set when the input held a NaN (found while copying it to the work array, which
// also sets those NaNs to 0: no library's NaN handling is relied on; cuBLAS's and cuSOLVER's LUs
// treat a NaN pivot differently, and may stop at it, leaving part of x finite) or some pivot is
// zero or not finite or some info
// nonzero (lu_suspect_into after it). A clear flag means no NaN in a and no zero pivot: x is the
// result. Otherwise the exact rules run on `a` (the broadcast input, which the factorisation did
// not touch): "Singular matrix" for an exact zero pivot in a matrix without NaN (one read), then
// an all-NaN result for each matrix that held a NaN, NumPy's (its LAPACK's NaN spreads through
// the elimination), applied without another read (a where over the flagged stack only).
static ndarray finish_solve(const ndarray& x, const lu_factors& f, const ndarray& suspect, const ndarray& a,
                            cupp::dtype t, int core_dims) {
  if (read_first_info(suspect) == 0) return x;
  const ndarray nan = nan_per_matrix(cupp::astype(a, t));
  raise_if(singular_without_nan(f, nan), "Singular matrix");
  ndarray m = nan;
  for (int i = 0; i < core_dims; ++i) m = m.expand_dims(-1);
  return cupp::where(m, std::numeric_limits<double>::quiet_NaN(), x);
}

// The flag solve and inv read (new_flag) is zeroed, then set by a NaN in the input while it is
// copied to the work array (rowmajor_copy_scrub / colmajor_copy_scrub: one pass), whose NaNs
// become 0: the LUs never see a NaN (cuBLAS's and cuSOLVER's pivot search and info on a NaN
// column are theirs, not LAPACK's; a scrubbed matrix's result is all NaN after finish_solve
// anyway, and its zero pivots do not raise: singular_without_nan).

std::vector<i64> broadcast_batch(const ndarray& a, const ndarray& b, int b_core) {
  const shape_t sa(a.shape().begin(), a.shape().end() - 2);
  const shape_t sb(b.shape().begin(), b.shape().end() - b_core);
  return cupp::broadcast_shapes({sa, sb});
}

ndarray solve_impl(const ndarray& a, const ndarray& b, bool raise_singular, const char* routine) {
  require_square(a, routine);
  if (b.is_null()) throw ValueError(std::string(routine) + ": a null array");
  const cupp::dtype t = linalg_type({&a, &b});
  const i64 n = a.shape(-1);
  const bool vector = b.ndim() == 1;
  if (!vector && b.ndim() < 2)
    throw ValueError(std::string(routine) + ": Input operand 1 does not have enough dimensions (has 0, gufunc core "
                     "with signature (m,m),(m,n)->(m,n) requires 2)");
  const i64 bn = b.shape(vector ? -1 : -2);
  if (bn != n)
    throw ValueError(std::string(vector ? "solve1" : "solve") + ": Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                     (vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)") + " (size " + std::to_string(bn) +
                     " is different from " + std::to_string(n) + ")");
  const std::vector<i64> batch = vector ? batch_shape(a) : broadcast_batch(a, b, 2);
  const i64 k = vector ? 1 : b.shape(-1);
  std::vector<i64> ashape = batch, bshape = batch;
  ashape.insert(ashape.end(), {n, n});
  bshape.insert(bshape.end(), {n, k});
  ndarray bw = colmajor_empty(batch, n, k, t);
  if (bw.size() > 0) colmajor_view(bw).assign(cupp::broadcast_to(vector ? b.reshape({n, 1}) : b, bshape));
  ndarray x = colmajor_view(bw);
  if (vector) {
    std::vector<i64> xs = batch;
    xs.push_back(n);
    x = bw.reshape(xs);
  }
  if (bw.size() == 0) return x;
  // w: C-ordered a, i.e. column-major a^T; its LU solves a x = b as (a^T)^T x = b. One large
  // matrix (solve_colmajor) takes a column-major copy of a instead, solved without the transpose
  // flag (PyTorch's form: Xgetrs's untransposed triangular solves).
  const ndarray ab = cupp::broadcast_to(a, ashape);
  const bool colmajor = solve_colmajor(batch_count(ab), n);
  const ndarray suspect = raise_singular ? new_flag(a.device()) : ndarray{};
  ndarray w;
  if (colmajor)
    w = raise_singular ? colmajor_copy_scrub(ab, t, suspect) : colmajor_copy(ab, t);
  else
    w = raise_singular ? rowmajor_copy_scrub(ab, t, suspect) : rowmajor_copy(ab, t);
  const lu_factors f = getrf(w, n, n);
  if (raise_singular) lu_suspect_into(f.w, f.info, n, suspect);
  getrs(f, bw, k, colmajor ? CUBLAS_OP_N : CUBLAS_OP_T);  // (a NaN in b alone gives NaN in x as LAPACK's getrs does: no rule)
  if (raise_singular) return finish_solve(x, f, suspect, ab, t, vector ? 1 : 2);
  return x;
}

ndarray inv_impl(const ndarray& a, bool raise_singular) {
  require_square(a, "inv");
  const cupp::dtype t = linalg_type({&a});
  const i64 n = a.shape(-1);
  std::vector<i64> shape = batch_shape(a);
  shape.insert(shape.end(), {n, n});
  // w: C-ordered a = column-major a^T. Its inverse (a^T)^-1 = (a^-1)^T, column-major, is a^-1
  // read C-ordered: bw holds the result in C order.
  ndarray bw = cupp::empty(shape, t);
  if (bw.size() == 0) return bw;
  const ndarray suspect = raise_singular ? new_flag(a.device()) : ndarray{};
  const ndarray w = raise_singular ? rowmajor_copy_scrub(a, t, suspect) : rowmajor_copy(a, t);
  const lu_factors f = getrf(w, n, n);
  if (raise_singular) lu_suspect_into(f.w, f.info, n, suspect);
  const inv_form form = f.blas ? inv_form_choice(n) : inv_form::getrs;
  if (form == inv_form::getri) {
    // a stack on cuBLAS's batched LU: getriBatched writes each inverse out of place (column-major)
    const int device = w.device();
    const blas_binding& blas = blas_on_current_stream(device);
    const i64 count = batch_count(w), isz = static_cast<i64>(t.itemsize());
    const ndarray& pa = f.ptrs;
    const ndarray pc = pointer_array(bw.data(), n * n * isz, count);
    const ndarray info = cupp::empty({count}, cupp::int32);
    with_type(t, [&](auto z) {
      check_cublas(getri_batched<decltype(z)>(blas.cublas, as_int(n, "n"), pa.data(), as_int(n, "n"),
                                              static_cast<const int*>(f.piv.data()), pc.data(), as_int(n, "n"),
                                              static_cast<int*>(info.data()), as_int(count, "the batch")),
                   "cublas<t>getriBatched");
      return 0;
    });
  } else if (form == inv_form::permuted) {
    // P I built from the pivots in one kernel, then getrsBatched with unit pivots: its two
    // triangular solves only, no row interchanges over the n right-hand sides
    lu_factors unit = f;
    unit.piv = cupp::empty(f.piv.shape(), cupp::int32);
    permuted_identity(f.piv, n, bw, unit.piv);
    getrs(unit, bw, n, CUBLAS_OP_N);
  } else {
    // getrs against the identity (its own transpose): Xgetrs per matrix, or getrsBatched
    bw.assign(cupp::broadcast_to(cupp::eye(n, std::nullopt, 0, t), shape));
    getrs(f, bw, n, CUBLAS_OP_N);
  }
  if (raise_singular) return finish_solve(bw, f, suspect, a, t, 2);
  return bw;
}

// The diagonal of the packed LU (..., k) and the permutation's sign (..., ) as dtype t.
std::pair<ndarray, ndarray> lu_diagonal_and_parity(const lu_factors& f, cupp::dtype t) {
  const ndarray d = colmajor_view(f.w).diagonal(0, -2, -1);
  const i64 k = std::min(f.m, f.n);
  const ndarray swaps = cupp::count_nonzero(f.piv != cupp::arange(1, k + 1, 1, f.piv.dtype()), {.axis = {-1}});
  const ndarray parity = cupp::astype(1 - 2 * (swaps % 2), t);
  return {d, parity};
}

}  // namespace cupp::linalg::detail

namespace cupp::linalg {

using detail::i64;

ndarray solve(const ndarray& a, const ndarray& b) { return detail::solve_impl(a, b, true, "solve"); }

ndarray inv(const ndarray& a) { return detail::inv_impl(a, true); }

ndarray det(const ndarray& a) {
  detail::require_square(a, "det");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 n = a.shape(-1);
  const detail::lu_factors f = detail::getrf(detail::rowmajor_copy(a, t), n, n);  // det(a^T) = det(a)
  auto [d, parity] = detail::lu_diagonal_and_parity(f, t);
  return cupp::multiply(cupp::prod(d, {.axis = {-1}}), parity);
}

SlogdetResult slogdet(const ndarray& a) {
  detail::require_square(a, "slogdet");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 n = a.shape(-1);
  const detail::lu_factors f = detail::getrf(detail::rowmajor_copy(a, t), n, n);  // det(a^T) = det(a)
  auto [d, parity] = detail::lu_diagonal_and_parity(f, t);
  const ndarray absd = cupp::absolute(d);
  ndarray unit;
  if (t.is_complex())
    unit = cupp::where(absd == 0, cupp::zeros({1}, t), cupp::divide(d, absd));
  else
    unit = cupp::sign(d);
  ndarray sign = cupp::multiply(cupp::prod(unit, {.axis = {-1}}), parity);
  ndarray logabsdet = cupp::sum(cupp::log(absd), {.axis = {-1}});
  return {sign, logabsdet};
}

ndarray tensorsolve(const ndarray& a0, const ndarray& b, std::optional<std::vector<int>> axes) {
  if (a0.is_null() || b.is_null()) throw ValueError("tensorsolve: a null array");
  ndarray a = a0;
  const int an = a.ndim();
  if (axes) {
    std::vector<int> all;
    for (int i = 0; i < an; ++i) all.push_back(i);
    for (int k0 : *axes) {
      const int k = k0 < 0 ? k0 + an : k0;
      auto it = std::find(all.begin(), all.end(), k);
      if (it == all.end()) throw ValueError("list.remove(x): x not in list");
      all.erase(it);
      all.push_back(k);
    }
    a = a.transpose(all);
  }
  const int keep = an - b.ndim();
  std::vector<i64> oldshape(a.shape().begin() + (keep > 0 ? an - keep : 0), a.shape().end());
  i64 prod = 1;
  for (i64 v : oldshape) prod *= v;
  if (a.size() != prod * prod)
    throw LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  const ndarray x = solve(cupp::ascontiguousarray(a).reshape({prod, prod}), b.ravel());
  return cupp::ascontiguousarray(x).reshape(oldshape);
}

ndarray tensorinv(const ndarray& a, std::int64_t ind) {
  if (a.is_null()) throw ValueError("tensorinv: a null array");
  if (ind <= 0) throw ValueError("Invalid ind argument.");
  const auto shape = a.shape();
  if (ind > static_cast<i64>(shape.size())) ind = static_cast<i64>(shape.size());
  std::vector<i64> invshape(shape.begin() + ind, shape.end());
  invshape.insert(invshape.end(), shape.begin(), shape.begin() + ind);
  i64 prod = 1;
  for (auto it = shape.begin() + ind; it != shape.end(); ++it) prod *= *it;
  const i64 rest = prod == 0 ? 0 : a.size() / prod;
  const ndarray ia = inv(cupp::ascontiguousarray(a).reshape({prod, rest}));
  return cupp::ascontiguousarray(ia).reshape(invshape);
}

lu_factor_result lu_factor(const ndarray& a) {
  detail::require_ndim(a, 2, "lu_factor");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 m = a.shape(-2), n = a.shape(-1);
  const detail::lu_factors f = detail::getrf(detail::colmajor_copy(a, t), m, n, t.is_complex());
  return {detail::colmajor_view(f.w), cupp::astype(f.piv - 1, cupp::int32)};
}

ndarray lu_solve(const lu_factor_result& lu_and_piv, const ndarray& b, const lu_solve_options& options) {
  const ndarray& lu = lu_and_piv.lu;
  detail::require_square(lu, "lu_solve");
  if (options.trans < 0 || options.trans > 2) throw ValueError("lu_solve: trans must be 0, 1 or 2");
  const cupp::dtype t = detail::linalg_type({&lu, &b});
  const i64 n = lu.shape(-1);
  const bool vector = b.ndim() == 1;
  if (b.ndim() < 1 || b.shape(vector ? -1 : -2) != n)
    throw ValueError("lu_solve: shapes of lu " + std::to_string(n) + "x" + std::to_string(n) + " and b are incompatible");
  const std::vector<i64> batch = vector ? detail::batch_shape(lu) : detail::broadcast_batch(lu, b, 2);
  const i64 k = vector ? 1 : b.shape(-1);
  std::vector<i64> ashape = batch, bshape = batch, pshape = batch;
  ashape.insert(ashape.end(), {n, n});
  bshape.insert(bshape.end(), {n, k});
  pshape.push_back(n);
  detail::lu_factors f;
  f.w = detail::colmajor_copy(cupp::broadcast_to(lu, ashape), t);
  f.m = f.n = n;
  f.blas = false;
  f.piv = cupp::ascontiguousarray(cupp::broadcast_to(cupp::astype(lu_and_piv.piv, cupp::int64) + 1, pshape));
  ndarray bw = detail::colmajor_empty(batch, n, k, t);
  if (bw.size() > 0) detail::colmajor_view(bw).assign(cupp::broadcast_to(vector ? b.reshape({n, 1}) : b, bshape));
  const cublasOperation_t op = options.trans == 0 ? CUBLAS_OP_N : options.trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
  detail::getrs(f, bw, k, op);
  if (vector) {
    std::vector<i64> xs = batch;
    xs.push_back(n);
    return bw.reshape(xs);
  }
  return detail::colmajor_view(bw);
}

lu_result lu(const ndarray& a, const lu_options& options) {
  detail::require_ndim(a, 2, "lu");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  const detail::lu_factors f = detail::getrf(detail::colmajor_copy(a, t), m, n, t.is_complex());
  const ndarray packed = detail::colmajor_view(f.w);
  const ndarray L = cupp::tril(packed(cupp::ellipsis, cupp::slice(), cupp::slice(0, k)), -1) +
                    cupp::eye(m, k, 0, t);
  const ndarray U = cupp::triu(packed(cupp::ellipsis, cupp::slice(0, k), cupp::slice()));
  // The row interchanges as a permutation (on the host: a sequential walk of the pivots).
  const i64 batch = detail::batch_count(a);
  const std::vector<std::int64_t> piv = cupp::astype(f.piv, cupp::int64).to_vector<std::int64_t>();
  std::vector<std::int32_t> p(static_cast<std::size_t>(batch * m));
  std::vector<double> P(static_cast<std::size_t>(options.p_indices ? 0 : batch * m * m), 0.0);
  for (i64 b = 0; b < batch; ++b) {
    std::vector<i64> perm(static_cast<std::size_t>(m));
    for (i64 i = 0; i < m; ++i) perm[i] = i;
    for (i64 i = 0; i < k; ++i) std::swap(perm[i], perm[piv[b * k + i] - 1]);
    // a[perm[i]] = (L U)[i]: p is perm's inverse, P[perm[i], i] = 1
    for (i64 i = 0; i < m; ++i) {
      p[b * m + perm[i]] = static_cast<std::int32_t>(i);
      if (!options.p_indices) P[b * m * m + perm[i] * m + i] = 1.0;
    }
  }
  std::vector<i64> pshape = detail::batch_shape(a);
  pshape.push_back(m);
  if (options.p_indices) {
    ndarray pi = cupp::asarray(p.data(), cupp::int32, pshape);
    if (m == 1 && n == 1) pi = cupp::astype(pi, cupp::int64);  // SciPy's 1x1 shortcut: zeros(dtype=int)
    if (options.permute_l) return {{}, cupp::take_along_axis(L, pi.expand_dims(-1), -2), U};
    return {pi, L, U};
  }
  pshape.push_back(m);
  // SciPy's P: real in a's precision, except a 1x1 a's, which is ones_like(a) (SciPy's shortcut)
  const bool one = m == 1 && n == 1;
  const ndarray Pm = cupp::astype(cupp::asarray(P.data(), cupp::float64, pshape), one ? t : detail::real_of(t));
  if (options.permute_l) return {{}, cupp::matmul(Pm, L), U};
  return {Pm, L, U};
}

}  // namespace cupp::linalg
