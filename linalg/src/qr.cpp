// numpy.linalg.qr (modes reduced, complete, r, raw): cuSOLVER's 64-bit Xgeqrf per matrix on a
// column-major copy, then orgqr / ungqr for Q. R is the upper triangle of the factored copy; raw
// returns the factored copy itself as NumPy's (..., N, M) h and the Householder scalars tau.
#include <algorithm>
#include <string>
#include <vector>

#include "batched_api.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/ufunc.hpp"
#include "solver_common.hpp"

namespace cupp::linalg {

using detail::i64;

QRResult qr(const ndarray& a, const qr_options& options) {
  const std::string_view mode = options.mode;
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    throw ValueError("Unrecognized mode '" + std::string(mode) + "'");
  detail::require_ndim(a, 2, "qr");
  const cupp::dtype t = detail::linalg_type({&a});
  const i64 m = a.shape(-2), n = a.shape(-1), k = std::min(m, n), count = detail::batch_count(a);
  const std::vector<i64> batch = detail::batch_shape(a);
  ndarray w = detail::colmajor_copy(a, t);
  std::vector<i64> tshape = batch;
  tshape.push_back(k);
  ndarray tau = cupp::zeros(tshape, t);
  const int device = w.device();
  if (count > 0 && k > 0) {
    const detail::solver_binding& s = detail::solver_on_current_stream(device);
    const cudaDataType ct = detail::cuda_type(t);
    std::size_t dbytes = 0, hbytes = 0;
    detail::check_cusolver(cusolverDnXgeqrf_bufferSize(s.handle, s.params, m, n, ct, w.data(), m, ct, tau.data(), ct, &dbytes,
                                               &hbytes),
                   "cusolverDnXgeqrf_bufferSize");
    cupp::cuda::Memory dwork = detail::workspace(dbytes, device);
    std::vector<char> hwork(hbytes);
    const ndarray info = cupp::empty({1}, cupp::int32);
    const i64 isz = static_cast<i64>(t.itemsize());
    for (i64 i = 0; i < count; ++i)
      detail::check_cusolver(cusolverDnXgeqrf(s.handle, s.params, m, n, ct, static_cast<char*>(w.data()) + i * m * n * isz, m, ct,
                                      static_cast<char*>(tau.data()) + i * k * isz, ct, dwork.ptr(), dbytes, hwork.data(),
                                      hbytes, static_cast<int*>(info.data())),
                     "cusolverDnXgeqrf");
  }
  if (mode == "raw") return {w, tau};
  const ndarray packed = detail::colmajor_view(w);
  const bool complete = mode == "complete";
  ndarray R = cupp::triu(complete ? packed : packed(cupp::ellipsis, cupp::slice(0, k), cupp::slice()));
  if (mode == "r") return {{}, R};
  const i64 qc = complete ? m : k;
  ndarray qw = detail::colmajor_empty(batch, m, qc, t);
  if (qw.size() == 0) return {qw.size() == 0 ? detail::colmajor_view(qw) : qw, R};
  if (k == 0) {  // no reflectors: Q is the identity
    detail::colmajor_view(qw).assign(cupp::eye(m, qc, 0, t));
    return {detail::colmajor_view(qw), R};
  }
  if (qc > k) qw.fill(0);
  detail::colmajor_view(qw)(cupp::ellipsis, cupp::slice(), cupp::slice(0, k)) = packed(cupp::ellipsis, cupp::slice(), cupp::slice(0, k));
  const detail::solver_binding& s = detail::solver_on_current_stream(device);
  const i64 isz = static_cast<i64>(t.itemsize());
  const ndarray info = cupp::empty({1}, cupp::int32);
  detail::with_type(t, [&](auto z) {
    using T = decltype(z);
    int lwork = 0;
    detail::check_cusolver(detail::orgqr_buffer<T>(s.handle, detail::as_int(m, "m"), detail::as_int(qc, "n"),
                                                   detail::as_int(k, "k"), qw.data(), detail::as_int(m, "m"), tau.data(),
                                                   &lwork),
                           "cusolverDn<t>orgqr_bufferSize");
    cupp::cuda::Memory work = detail::workspace(static_cast<std::size_t>(lwork) * sizeof(T), device);
    for (i64 i = 0; i < count; ++i)
      detail::check_cusolver(detail::orgqr<T>(s.handle, int(m), int(qc), int(k), static_cast<char*>(qw.data()) + i * m * qc * isz,
                                              int(m), static_cast<char*>(tau.data()) + i * k * isz, work.ptr(), lwork,
                                              static_cast<int*>(info.data())),
                             "cusolverDn<t>orgqr");
    return 0;
  });
  return {detail::colmajor_view(qw), R};
}

}  // namespace cupp::linalg
