// numpy.linalg.cholesky and scipy.linalg's cho_factor, cho_solve and solve_triangular. The factor
// runs in cuSOLVER's lower mode on a column-major copy of a (the lower factor) or on a C-ordered
// one (column-major a^T, for upper=True), so each reads exactly the triangle NumPy reads
// (plan_for; CUPP_LINALG_CHOLESKY=upper-fill takes CuPy's upper mode on a C-ordered copy for the
// lower factor; the column-major copy is one tiled transpose kernel), and the factor is cut out of
// the work copy in place (the other triangle zeroed by one kernel).
// Stacks of small matrices go to potrfBatched (one launch), others to the 64-bit Xpotrf per
// matrix (stacks on side streams); cholesky reads info once (a one-launch flag for a stack). Only
// when that read flags a matrix do the exact rules run: "Matrix is not positive definite", except
// for a matrix with NaN in the triangle read, which does not raise, as NumPy 2.5's (OpenBLAS's
// potrf lets a NaN pivot through, cuSOLVER's stops at it): its factor is all NaN (NumPy's is NaN
// from the first NaN pivot on; docs/linalg.md). Triangular solves are cuBLAS trsm (trsmBatched
// for stacks).
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "batched_api.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "handles.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {
namespace {

inline constexpr i64 batched_potrf_max_n = 128;

// Factors each (n, n) matrix of w (column-major) in place in cuSOLVER's `fill` mode; returns the
// info array (batch,). Stacks of small matrices: potrfBatched; others Xpotrf per matrix (on side
// streams for stacks).
ndarray potrf(const ndarray& w, i64 n, cublasFillMode_t fill) {
  const i64 batch = batch_count(w);
  ndarray info = cupp::empty({std::max<i64>(batch, 1)}, cupp::int32);
  if (batch == 0 || n == 0) {
    info.fill(0);
    return info;
  }
  const int device = w.device();
  const cupp::dtype t = w.dtype();
  const i64 isz = static_cast<i64>(t.itemsize());
  const solver_binding& s = solver_on_current_stream(device);
  if (batch >= 2 && n <= batched_potrf_max_n) {
    const ndarray p = pointer_array(w.data(), n * n * isz, batch);
    const cusolverStatus_t status = with_type(t, [&](auto z) {
      return potrf_batched<decltype(z)>(s.handle, fill, as_int(n, "n"), p.data(), as_int(n, "n"),
                                        static_cast<int*>(info.data()), as_int(batch, "the batch"));
    });
    // A cuSOLVER that takes only the lower mode in potrfBatched: the upper one per matrix below.
    if (!(fill == CUBLAS_FILL_MODE_UPPER &&
          (status == CUSOLVER_STATUS_INVALID_VALUE || status == CUSOLVER_STATUS_NOT_SUPPORTED))) {
      check_cusolver(status, "cusolverDn<t>potrfBatched");
      return info;
    }
  }
  const cudaDataType ct = cuda_type(t);
  std::size_t dbytes = 0, hbytes = 0;
  check_cusolver(cusolverDnXpotrf_bufferSize(s.handle, s.params, fill, n, ct, w.data(), n, ct, &dbytes, &hbytes),
                 "cusolverDnXpotrf_bufferSize");
  const int lanes = lanes_for(batch);
  const std::size_t dstep = (dbytes + 255) / 256 * 256, hstep = std::max<std::size_t>(hbytes, 1);
  cupp::cuda::Memory dwork = workspace(dstep * static_cast<std::size_t>(lanes), device);
  std::vector<char> hwork(hstep * static_cast<std::size_t>(lanes));
  char* a = static_cast<char*>(w.data());
  side_streams side(device, lanes);  // after the workspace: joined before it goes back
  for (i64 i = 0; i < batch; ++i) {
    const solver_binding& l = side.lane(i);
    const std::size_t j = static_cast<std::size_t>(i % side.size());
    check_cusolver(cusolverDnXpotrf(l.handle, l.params, fill, n, ct, a + i * n * n * isz, n, ct,
                                    static_cast<char*>(dwork.ptr()) + j * dstep, dbytes, hwork.data() + j * hstep,
                                    hbytes, static_cast<int*>(info.data()) + i),
                   "cusolverDnXpotrf");
  }
  side.join();
  return info;
}

// The work array and cuSOLVER's fill mode for the factor NumPy asks for. The factor always reads
// the triangle NumPy reads. upper=True: a C-ordered copy of a (column-major a^T, whose lower
// triangle is a's upper one) in the lower mode, U = the upper triangle of the copy read C-ordered
// (a^T = L' L'^H gives a = conj(a^T) = U^H U for U = L'^T). upper=False: a column-major copy in
// the lower mode, L in its lower triangle (PyTorch's and LAPACK's form; on the H200, CuPy's
// upper mode on a C-ordered copy ran 4.9 ms at 4096^2 against PyTorch's 2.2 ms), unless
// CUPP_LINALG_CHOLESKY=upper-fill: a C-ordered copy in the upper mode, as CuPy (no transposed
// copy, L = the copy's lower triangle read C-ordered).
struct factor_plan {
  bool rowmajor;          // the work copy is C-ordered a (else column-major a)
  cublasFillMode_t fill;  // cuSOLVER's mode on the work copy
};
factor_plan plan_for(bool upper) {
  if (upper) return {true, CUBLAS_FILL_MODE_LOWER};
  if (path_choice("CUPP_LINALG_CHOLESKY") == "upper-fill") return {true, CUBLAS_FILL_MODE_UPPER};
  return {false, CUBLAS_FILL_MODE_LOWER};
}

// Per matrix (batch shape), whether the triangle NumPy reads of a (as dtype t) holds a NaN. Only
// the exact path computes it: a NaN in that triangle reaches a pivot (every later Schur
// complement carries it, and the last pivot holds it), where cuSOLVER stops with info > 0.
ndarray nan_in_read_triangle(const ndarray& a, cupp::dtype t, bool upper) {
  const ndarray x = cupp::astype(a, t);
  return cupp::any(cupp::isnan(upper ? cupp::triu(x) : cupp::tril(x)), {.axis = {-2, -1}});
}

// b as column-major right-hand sides (..., k, n) for a batch, and the result's logical view.
struct rhs {
  ndarray bw, x;
  i64 k;
};
rhs make_rhs(const std::vector<i64>& batch, const ndarray& b, i64 n, cupp::dtype t) {
  const bool vector = b.ndim() == 1;
  const i64 k = vector ? 1 : b.shape(-1);
  std::vector<i64> bshape = batch;
  bshape.insert(bshape.end(), {n, k});
  ndarray bw = colmajor_empty(batch, n, k, t);
  if (bw.size() > 0) colmajor_view(bw).assign(cupp::broadcast_to(vector ? b.reshape({n, 1}) : b, bshape));
  if (vector) {
    std::vector<i64> xs = batch;
    xs.push_back(n);
    return {bw, bw.reshape(xs), k};
  }
  return {bw, colmajor_view(bw), k};
}

void check_rhs(const ndarray& a, const ndarray& b, const char* routine) {
  if (b.is_null()) throw ValueError(std::string(routine) + ": a null array");
  const i64 n = a.shape(-1);
  if (b.ndim() < 1 || b.shape(b.ndim() == 1 ? -1 : -2) != n)
    throw ValueError(std::string(routine) + ": incompatible dimensions (" + std::to_string(n) + " rows in a, " +
                     std::to_string(b.ndim() < 1 ? 0 : b.shape(b.ndim() == 1 ? -1 : -2)) + " in b)");
}

}  // namespace
}  // namespace cupp::linalg::detail

namespace cupp::linalg {

using detail::i64;

ndarray cholesky(const ndarray& a, const cholesky_options& options) {
  detail::require_square(a, "cholesky");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 n = a.shape(-1);
  const detail::factor_plan plan = detail::plan_for(options.upper);
  ndarray w = plan.rowmajor ? detail::rowmajor_copy(a, t) : detail::colmajor_copy(a, t);
  if (w.size() == 0) return plan.rowmajor ? w : detail::colmajor_view(w);
  const ndarray info = detail::potrf(w, n, plan.fill);
  // The factor cut out of w's memory in place (one kernel writing the other triangle's zeros; with
  // CUPP_LINALG_COPY=assign, a coalesced triu / tril copy): U = triu(w) (upper=True), L = tril(w)
  // (upper mode), or, for the column-major w, L^T = triu(w) read transposed (an F-ordered result,
  // as PyTorch's).
  ndarray r;
  if (detail::kernel_copies()) {
    detail::zero_triangle(w, n, /*lower=*/options.upper || !plan.rowmajor);
    r = plan.rowmajor ? w : detail::colmajor_view(w);
  } else {
    r = options.upper ? cupp::triu(w) : plan.rowmajor ? cupp::tril(w) : cupp::triu(w).swapaxes(-1, -2);
  }
  // One read: a flag over info and the factors' diagonals (a NaN in the triangle read reaches its
  // row's pivot; a zero or non-finite pivot is flagged even where cuSOLVER's info would not be).
  const bool flagged = detail::read_first_info(detail::lu_suspect_flag(w, info, n)) != 0;
  if (!flagged) return r;
  // The exact rules: "not positive definite" unless the failing matrix read a NaN (NumPy 2.5 lets a
  // NaN pivot through: no error, and that factor all NaN).
  const ndarray nan = detail::nan_in_read_triangle(a, t, options.upper);
  const ndarray failed = cupp::any((info != 0) & ~nan.ravel());
  detail::raise_if(failed, "Matrix is not positive definite");
  return cupp::where(nan.expand_dims(-1).expand_dims(-1), std::numeric_limits<double>::quiet_NaN(), r);
}

cho_factor_result cho_factor(const ndarray& a, const cho_factor_options& options) {
  detail::require_square(a, "cho_factor");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 n = a.shape(-1);
  // The factor in the triangle SciPy names (lower: L in the lower triangle, else U in the upper
  // one) of c's logical view; the other triangle keeps a's values, as SciPy's.
  const detail::factor_plan plan = detail::plan_for(!options.lower);
  ndarray w = plan.rowmajor ? detail::rowmajor_copy(a, t) : detail::colmajor_copy(a, t);
  const ndarray c = plan.rowmajor ? w : detail::colmajor_view(w);
  if (w.size() == 0) return {c, options.lower};
  const ndarray info = detail::potrf(w, n, plan.fill);
  const bool flagged = detail::read_first_info(detail::lu_suspect_flag(w, info, n)) != 0;
  if (flagged) {
    const ndarray nan = detail::nan_in_read_triangle(a, t, !options.lower);
    const std::vector<int> codes = cupp::where(nan.ravel(), 0, info).to_vector<int>();  // NaN: no error, as SciPy's
    for (int code : codes)
      if (code > 0) throw LinAlgError(std::to_string(code) + "-th leading minor of the array is not positive definite");
  }
  return {c, options.lower};
}

ndarray cho_solve(const cho_factor_result& c_and_lower, const ndarray& b) {
  const ndarray& c = c_and_lower.c;
  detail::require_square(c, "cho_solve");
  detail::check_rhs(c, b, "cho_solve");
  const cupp::dtype t = detail::linalg_type({&c, &b});
  const i64 n = c.shape(-1);
  const std::vector<i64> batch = b.ndim() == 1 ? detail::batch_shape(c) : detail::broadcast_batch(c, b, 2);
  std::vector<i64> cshape = batch;
  cshape.insert(cshape.end(), {n, n});
  // Column-major c, with cuSOLVER told which triangle holds the factor.
  const ndarray cw = detail::colmajor_copy(cupp::broadcast_to(c, cshape), t);
  detail::rhs r = detail::make_rhs(batch, b, n, t);
  const i64 count = detail::batch_count(cw);
  if (r.bw.size() == 0 || n == 0) return r.x;
  const int device = cw.device();
  const detail::solver_binding& s = detail::solver_on_current_stream(device);
  const cudaDataType ct = detail::cuda_type(t);
  const ndarray info = cupp::empty({1}, cupp::int32);
  const i64 isz = static_cast<i64>(t.itemsize());
  const cublasFillMode_t uplo = c_and_lower.lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  for (i64 i = 0; i < count; ++i)
    detail::check_cusolver(cusolverDnXpotrs(s.handle, s.params, uplo, n, r.k, ct,
                                            static_cast<const char*>(cw.data()) + i * n * n * isz, n, ct,
                                            static_cast<char*>(r.bw.data()) + i * n * r.k * isz, n,
                                            static_cast<int*>(info.data())),
                           "cusolverDnXpotrs");
  return r.x;
}

ndarray solve_triangular(const ndarray& a, const ndarray& b, const solve_triangular_options& options) {
  detail::require_square(a, "solve_triangular");
  detail::check_rhs(a, b, "solve_triangular");
  if (options.trans < 0 || options.trans > 2) throw ValueError("solve_triangular: trans must be 0, 1 or 2 (N, T, C)");
  const cupp::dtype t = detail::linalg_type({&a, &b});
  const i64 n = a.shape(-1);
  const std::vector<i64> batch = b.ndim() == 1 ? detail::batch_shape(a) : detail::broadcast_batch(a, b, 2);
  std::vector<i64> ashape = batch;
  ashape.insert(ashape.end(), {n, n});
  const ndarray aw = detail::colmajor_copy(cupp::broadcast_to(a, ashape), t);
  detail::rhs r = detail::make_rhs(batch, b, n, t);
  if (r.bw.size() == 0 || n == 0) return r.x;
  ndarray zero_diag;
  if (!options.unit_diagonal) zero_diag = cupp::any(detail::colmajor_view(aw).diagonal(0, -2, -1) == 0);
  const int device = aw.device();
  const detail::blas_binding& blas = detail::blas_on_current_stream(device);
  const cublasFillMode_t uplo = options.lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const cublasOperation_t op = options.trans == 0 ? CUBLAS_OP_N : options.trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
  const cublasDiagType_t diag = options.unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  const i64 count = detail::batch_count(aw), isz = static_cast<i64>(t.itemsize());
  detail::with_type(t, [&](auto z) {
    using T = decltype(z);
    T one{};
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) one = 1;
    else one.x = 1;
    if (count >= 2) {
      const ndarray pa = detail::pointer_array(aw.data(), n * n * isz, count);
      const ndarray pb = detail::pointer_array(r.bw.data(), n * r.k * isz, count);
      detail::check_cublas(detail::trsm_batched<T>(blas.cublas, uplo, op, diag, detail::as_int(n, "n"),
                                                   detail::as_int(r.k, "nrhs"), &one, pa.data(), detail::as_int(n, "n"),
                                                   pb.data(), detail::as_int(n, "n"), detail::as_int(count, "the batch")),
                           "cublas<t>trsmBatched");
    } else {
      detail::check_cublas(detail::trsm<T>(blas.cublas, uplo, op, diag, n, r.k, &one, aw.data(), n, r.bw.data(), n),
                           "cublas<t>trsm");
    }
    return 0;
  });
  if (!zero_diag.is_null() && zero_diag.item<bool>()) {
    // SciPy's trtrs message names the first zero on the diagonal (of the first such matrix).
    const ndarray first = cupp::argmax((detail::colmajor_view(aw).diagonal(0, -2, -1) == 0).ravel());
    const i64 at = first.item<std::int64_t>() % n;
    throw LinAlgError("singular matrix: resolution failed at diagonal " + std::to_string(at));
  }
  return r.x;
}

}  // namespace cupp::linalg
