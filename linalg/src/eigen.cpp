// numpy.linalg's eigh / eigvalsh (cuSOLVER's 64-bit Xsyevd for one matrix, XsyevBatched for a
// stack: one call for the batch) and eig / eigvals (Xgeev per matrix, in the complex dtype: NumPy 2.5
// returns complex results for every input). The work copy is column-major, so the triangle UPLO
// names is the one cuSOLVER reads and the eigenvectors come back as columns. NaN input and
// non-convergence raise "Eigenvalues did not converge" (one read per call).
#include <algorithm>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {
namespace {

cublasFillMode_t fill_of(std::string_view uplo) {
  if (uplo == "L" || uplo == "l") return CUBLAS_FILL_MODE_LOWER;
  if (uplo == "U" || uplo == "u") return CUBLAS_FILL_MODE_UPPER;
  throw ValueError("UPLO argument must be 'L' or 'U'");
}

EighResult syev(const ndarray& a, std::string_view uplo, bool vectors) {
  require_square(a, vectors ? "eigh" : "eigvalsh");
  const cublasFillMode_t fill = fill_of(uplo);
  const cupp::dtype t = linalg_type({&a});
  const cupp::dtype rt = real_of(t);
  const i64 n = a.shape(-1), batch = batch_count(a);
  ndarray w = colmajor_copy(a, t);
  std::vector<i64> wshape = batch_shape(a);
  wshape.push_back(n);
  ndarray W = cupp::empty(wshape, rt);
  if (w.size() == 0) return {W, colmajor_view(w)};
  const ndarray nan = cupp::any(cupp::isnan(w));
  ndarray info = cupp::zeros({batch}, cupp::int32);
  const int device = w.device();
  const solver_binding& s = solver_on_current_stream(device);
  const cudaDataType ct = cuda_type(t), crt = cuda_type(rt);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  std::size_t dbytes = 0, hbytes = 0;
  bool batched = false;
  if (batch >= 2) {
    const cusolverStatus_t st = cusolverDnXsyevBatched_bufferSize(s.handle, s.params, jobz, fill, n, ct, w.data(), n, crt,
                                                                  W.data(), ct, &dbytes, &hbytes, batch);
    if (st == CUSOLVER_STATUS_SUCCESS) batched = true;
    else if (st != CUSOLVER_STATUS_NOT_SUPPORTED && st != CUSOLVER_STATUS_INVALID_VALUE)
      check_cusolver(st, "cusolverDnXsyevBatched_bufferSize");
  }
  if (batched) {
    cupp::cuda::Memory dwork = workspace(dbytes, device);
    std::vector<char> hwork(hbytes);
    check_cusolver(cusolverDnXsyevBatched(s.handle, s.params, jobz, fill, n, ct, w.data(), n, crt, W.data(), ct,
                                          dwork.ptr(), dbytes, hwork.data(), hbytes, static_cast<int*>(info.data()), batch),
                   "cusolverDnXsyevBatched");
  } else {
    check_cusolver(cusolverDnXsyevd_bufferSize(s.handle, s.params, jobz, fill, n, ct, w.data(), n, crt, W.data(), ct,
                                               &dbytes, &hbytes),
                   "cusolverDnXsyevd_bufferSize");
    cupp::cuda::Memory dwork = workspace(dbytes, device);
    std::vector<char> hwork(hbytes);
    const i64 isz = static_cast<i64>(t.itemsize()), rsz = static_cast<i64>(rt.itemsize());
    for (i64 i = 0; i < batch; ++i)
      check_cusolver(cusolverDnXsyevd(s.handle, s.params, jobz, fill, n, ct, static_cast<char*>(w.data()) + i * n * n * isz,
                                      n, crt, static_cast<char*>(W.data()) + i * n * rsz, ct, dwork.ptr(), dbytes,
                                      hwork.data(), hbytes, static_cast<int*>(info.data()) + i),
                     "cusolverDnXsyevd");
  }
  raise_if(info_failed(info) | nan, "Eigenvalues did not converge");
  return {W, vectors ? colmajor_view(w) : ndarray{}};
}

EigResult geev(const ndarray& a, bool vectors) {
  require_square(a, vectors ? "eig" : "eigvals");
  const cupp::dtype t = complex_of(linalg_type({&a}));
  const i64 n = a.shape(-1), batch = batch_count(a);
  ndarray w = colmajor_copy(a, t);
  std::vector<i64> wshape = batch_shape(a);
  wshape.push_back(n);
  ndarray W = cupp::empty(wshape, t);
  ndarray VR = colmajor_empty(batch_shape(a), n, vectors ? n : 0, t);
  if (w.size() == 0) return {W, vectors ? colmajor_view(VR) : ndarray{}};
  // NaN input is refused before Xgeev runs (its host-side QR iterations need not stop on NaN);
  // Xgeev's per-matrix calls synchronise with the host anyway, so this read costs no overlap.
  raise_if(cupp::any(cupp::isnan(w)), "Eigenvalues did not converge");
  ndarray info = cupp::zeros({batch}, cupp::int32);
  const int device = w.device();
  const solver_binding& s = solver_on_current_stream(device);
  const cudaDataType ct = cuda_type(t);
  const cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  std::size_t dbytes = 0, hbytes = 0;
  check_cusolver(cusolverDnXgeev_bufferSize(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, ct, w.data(), n, ct,
                                            W.data(), ct, nullptr, 1, ct, vectors ? VR.data() : nullptr, n, ct, &dbytes,
                                            &hbytes),
                 "cusolverDnXgeev_bufferSize");
  cupp::cuda::Memory dwork = workspace(dbytes, device);
  std::vector<char> hwork(hbytes);
  const i64 isz = static_cast<i64>(t.itemsize());
  for (i64 i = 0; i < batch; ++i)
    check_cusolver(cusolverDnXgeev(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, ct,
                                   static_cast<char*>(w.data()) + i * n * n * isz, n, ct,
                                   static_cast<char*>(W.data()) + i * n * isz, ct, nullptr, 1, ct,
                                   vectors ? static_cast<char*>(VR.data()) + i * n * n * isz : nullptr, n, ct, dwork.ptr(),
                                   dbytes, hwork.data(), hbytes, static_cast<int*>(info.data()) + i),
                   "cusolverDnXgeev");
  raise_if(info_failed(info), "Eigenvalues did not converge");
  return {W, vectors ? colmajor_view(VR) : ndarray{}};
}

}  // namespace
}  // namespace cupp::linalg::detail

namespace cupp::linalg {

EighResult eigh(const ndarray& a, const eigh_options& options) { return detail::syev(a, options.UPLO, true); }

ndarray eigvalsh(const ndarray& a, const eigh_options& options) {
  return detail::syev(a, options.UPLO, false).eigenvalues;
}

EigResult eig(const ndarray& a) { return detail::geev(a, true); }

ndarray eigvals(const ndarray& a) { return detail::geev(a, false).eigenvalues; }

}  // namespace cupp::linalg
