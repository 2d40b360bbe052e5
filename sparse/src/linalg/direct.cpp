// Direct solves and norms of cupp::sparse::linalg: spsolve over cuSOLVER's sparse QR
// (cusolverSpXcsrlsvqr: the one sparse direct solver of this toolkit that factors on the GPU; its
// LU is host-only and cuDSS is not in the toolkit), except for narrow bands, which block cyclic
// reduction solves in log2(N) parallel steps (banded.cpp, checked by its backward error);
// scipy.sparse.linalg.norm, and onenormest (Higham and Tisseur's block estimator).
#define DISABLE_CUSOLVER_DEPRECATED  // cusolverSp is deprecated in favour of cuDSS, absent here
#include <cusolverSp.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;

void check_sp(cusolverStatus_t status, const char* call) {
  if (status != CUSOLVER_STATUS_SUCCESS) [[unlikely]]
    throw CudaError(std::string(call) + " failed: cusolverStatus_t " + std::to_string(static_cast<int>(status)),
                    static_cast<int>(status));
}

// This thread's cusolverSp handle on `device`, bound to its current cupp stream.
struct sp_handles {
  std::vector<cusolverSpHandle_t> by_device;
  ~sp_handles() {
    for (cusolverSpHandle_t h : by_device)
      if (h) cusolverSpDestroy(h);
  }
};
cusolverSpHandle_t sp_handle(int device) {
  thread_local sp_handles handles;
  auto& all = handles.by_device;
  if (static_cast<std::size_t>(device) >= all.size()) all.resize(device + 1, nullptr);
  if (!all[device]) {
    cusolverSpHandle_t h = nullptr;
    check_sp(cusolverSpCreate(&h), "cusolverSpCreate");
    all[device] = h;
  }
  check_sp(cusolverSpSetStream(all[device], cuda::detail::current_stream_handle(device)), "cusolverSpSetStream");
  return all[device];
}

class mat_descr {
 public:
  mat_descr() {
    if (cusparseCreateMatDescr(&d_) != CUSPARSE_STATUS_SUCCESS) throw CudaError("cusparseCreateMatDescr failed", 0);
    cusparseSetMatType(d_, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(d_, CUSPARSE_INDEX_BASE_ZERO);
  }
  ~mat_descr() { cusparseDestroyMatDescr(d_); }
  mat_descr(const mat_descr&) = delete;
  mat_descr& operator=(const mat_descr&) = delete;
  cusparseMatDescr_t get() const noexcept { return d_; }

 private:
  cusparseMatDescr_t d_ = nullptr;
};

// One column: x = A \ b by sparse QR; NaNs when cuSOLVER reports a singular matrix.
void qr_column(const csr& a, const ndarray& indptr, const ndarray& indices, const ndarray& b, const ndarray& x) {
  const int device = x.device();
  cupp::detail::device_scope scope(device);
  cusolverSpHandle_t h = sp_handle(device);
  const mat_descr descr;
  const int m = static_cast<int>(a.shape()[0]), nnz = static_cast<int>(a.nnz());
  const int* rp = static_cast<const int*>(indptr.data());
  const int* ci = static_cast<const int*>(indices.data());
  const int reorder = 1;  // symrcm, as CuPy
  int singular = -1;
  const cupp::dtype t = a.dtype();
  if (t == float32)
    check_sp(cusolverSpScsrlsvqr(h, m, nnz, descr.get(), static_cast<const float*>(a.data().data()), rp, ci,
                                 static_cast<const float*>(b.data()), 0.0f, reorder, static_cast<float*>(x.data()),
                                 &singular),
             "cusolverSpScsrlsvqr");
  else if (t == float64)
    check_sp(cusolverSpDcsrlsvqr(h, m, nnz, descr.get(), static_cast<const double*>(a.data().data()), rp, ci,
                                 static_cast<const double*>(b.data()), 0.0, reorder, static_cast<double*>(x.data()),
                                 &singular),
             "cusolverSpDcsrlsvqr");
  else if (t == complex64)
    check_sp(cusolverSpCcsrlsvqr(h, m, nnz, descr.get(), static_cast<const cuComplex*>(a.data().data()), rp, ci,
                                 static_cast<const cuComplex*>(b.data()), 0.0f, reorder,
                                 static_cast<cuComplex*>(x.data()), &singular),
             "cusolverSpCcsrlsvqr");
  else
    check_sp(cusolverSpZcsrlsvqr(h, m, nnz, descr.get(), static_cast<const cuDoubleComplex*>(a.data().data()), rp,
                                 ci, static_cast<const cuDoubleComplex*>(b.data()), 0.0, reorder,
                                 static_cast<cuDoubleComplex*>(x.data()), &singular),
             "cusolverSpZcsrlsvqr");
  if (singular >= 0) x.fill(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace

ndarray spsolve(const csr& A0, const ndarray& b) {
  const shape2 s = A0.shape();
  if (s[0] != s[1])
    throw ValueError("matrix must be square (has shape (" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + "))");
  const i64 n = s[0];
  if (b.is_null() || b.ndim() < 1 || b.ndim() > 2 || b.shape(0) != n)
    throw ValueError("matrix - rhs dimension mismatch ((" + std::to_string(n) + ", " + std::to_string(n) + ") - " +
                     (b.is_null() || b.ndim() < 1 ? std::string("0") : std::to_string(b.shape(0))) + ")");
  if (n > std::numeric_limits<int>::max() || A0.nnz() > std::numeric_limits<int>::max())
    throw ValueError("spsolve: cuSOLVER's sparse QR takes at most 2^31 - 1 rows and entries");
  const cupp::dtype type = detail::solver_type(A0.dtype(), b.dtype());
  csr a = A0.astype(type, false);
  if (!a.has_canonical_format()) {
    a = a.copy();
    a.sum_duplicates();
  }
  const ndarray indptr = cupp::astype(a.indptr(), int32, casting::unsafe, false);
  const ndarray indices = cupp::astype(a.indices(), int32, casting::unsafe, false);
  const ndarray bb = cupp::astype(b, type);  // a C-contiguous copy of the solver dtype
  if (n == 0) return bb;
  {
    // a band within 8 diagonals: block cyclic reduction (banded.cpp), checked, else sparse QR
    const ndarray xb = bb.ndim() == 1 ? cupp::empty({n}, type) : cupp::empty({n, bb.shape(1)}, type);
    if (detail::banded_solve(a, indptr, indices, cupp::ascontiguousarray(bb), xb)) return xb;
  }
  if (bb.ndim() == 1) {
    ndarray x = cupp::empty({n}, type);
    qr_column(a, indptr, indices, bb, x);
    return x;
  }
  const i64 k = bb.shape(1);
  ndarray xt = cupp::empty({k, n}, type);
  const ndarray bt = cupp::ascontiguousarray(bb.T());
  for (i64 j = 0; j < k; ++j) qr_column(a, indptr, indices, bt(j), xt(j));
  return cupp::ascontiguousarray(xt.T());
}

std::function<ndarray(const ndarray&)> factorized(const csr& A) {
  const shape2 s = A.shape();
  if (s[0] != s[1]) throw ValueError("can only factor square matrices");
  if (!detail::is_inexact(A.dtype()) || A.dtype() == float16)
    return [a = A.astype(float64)](const ndarray& b) { return spsolve(a, b); };
  return [a = A](const ndarray& b) { return spsolve(a, b); };
}

ndarray norm(const csr& x0, const norm_ord& ord, std::optional<int> axis) {
  csr x = x0;
  if (!x.has_canonical_format()) {
    x = x.copy();
    x.sum_duplicates();
  }
  const cupp::dtype rt = detail::is_inexact(x.dtype()) ? detail::real_of(x.dtype()) : float64;
  const bool is_fro = std::holds_alternative<std::monostate>(ord) ||
                      (std::holds_alternative<std::string>(ord) && std::get<std::string>(ord) == "fro");
  if (!axis) {
    if (is_fro) {
      const ndarray d = detail::is_inexact(x.dtype()) ? x.data() : cupp::astype(x.data(), float64);
      if (d.size() == 0) return cupp::zeros({}, rt);
      return cupp::sqrt(detail::nrm2sq(d));
    }
    if (!std::holds_alternative<double>(ord)) throw ValueError("Invalid norm order for matrices.");
    const double p = std::get<double>(ord);
    if (p == 2 || p == -2)
      throw ValueError("norm: ord 2 and -2 (spectral norms) are not implemented for sparse matrices (SciPy: "
                       "NotImplementedError)");
    int ax;
    bool take_max;
    if (p == 1 || p == -1) ax = 0, take_max = p > 0;
    else if (std::isinf(p)) ax = 1, take_max = p > 0;
    else throw ValueError("Invalid norm order for matrices.");
    const ndarray sums = sparse::sum(sparse::abs(x), ax).ravel();
    if (sums.size() == 0) return cupp::zeros({}, sums.dtype());
    return take_max ? cupp::max(sums) : cupp::min(sums);
  }
  int ax = *axis;
  if (ax < -2 || ax > 1) throw AxisError("axis " + std::to_string(ax) + " is out of bounds for array of dimension 2");
  if (ax < 0) ax += 2;
  double p = 2;
  if (std::holds_alternative<double>(ord)) p = std::get<double>(ord);
  else if (std::holds_alternative<std::string>(ord)) throw ValueError("Invalid norm order for vectors.");
  if (std::isinf(p) || p == 0) {
    const ndarray dense = cupp::abs(x.toarray());
    if (p == 0) return cupp::sum(cupp::astype(dense != 0, rt), {.axis = {ax}});
    return p > 0 ? cupp::max(dense, {.axis = {ax}}) : cupp::min(dense, {.axis = {ax}});
  }
  if (p == 1) return sparse::sum(sparse::abs(x), ax).ravel();
  if (p == 2) return cupp::sqrt(cupp::astype(sparse::sum(sparse::power(sparse::abs(x), 2), ax).ravel(), rt));
  const ndarray s = sparse::sum(sparse::power(sparse::abs(x), p), ax).ravel();
  return cupp::power(cupp::astype(s, rt), 1.0 / p);
}

double onenormest(const LinearOperator& A, int t, int itmax) {
  const shape2 s = A.shape();
  if (s[0] != s[1]) throw ValueError("expected the operator to act like a square matrix");
  if (t < 1) throw ValueError("at least one column is required");
  if (itmax < 2) throw ValueError("at least two iterations are required");
  const i64 n = s[0];
  const cupp::dtype type = detail::solver_type(A.dtype(), float32), rt = detail::real_of(type);
  auto col_sums = [&](const ndarray& Y) {
    return cupp::astype(cupp::sum(cupp::abs(Y), {.axis = {0}}), float64).to_vector<double>();
  };
  if (t >= n) {  // exact, as SciPy
    const std::vector<double> c = col_sums(A.matmat(cupp::eye(n, std::nullopt, 0, type)));
    return c.empty() ? 0.0 : *std::max_element(c.begin(), c.end());
  }
  // starting block: ones, then columns of deterministic +-1 signs, all scaled by 1/n
  std::vector<double> X0(n * t);
  for (i64 i = 0; i < n; ++i)
    for (int j = 0; j < t; ++j) X0[i * t + j] = (j == 0 || ((i * 2654435761ULL + j * 40503ULL) >> 7) % 2) ? 1.0 : -1.0;
  ndarray X = cupp::astype(cupp::asarray(X0).reshape({n, t}), type) * (1.0 / static_cast<double>(n));
  std::set<i64> hist;
  double est_old = 0;
  i64 ind_best = 0;
  double est = 0;
  std::vector<i64> ind(t, 0);
  for (int k = 1; k <= itmax + 1; ++k) {
    const ndarray Y = A.matmat(X);
    const std::vector<double> mags = col_sums(Y);
    const auto best = std::max_element(mags.begin(), mags.end()) - mags.begin();
    est = mags[best];
    if (est > est_old || k == 2) {
      if (k >= 2) ind_best = ind[best];
    }
    if (k >= 2 && est <= est_old) {
      est = est_old;
      break;
    }
    est_old = est;
    if (k > itmax) break;
    // S = sign(Y) (Y / |Y| for complex, 1 where Y is 0)
    const ndarray aY = cupp::abs(Y);
    const ndarray S = cupp::where(aY == 0, cupp::ones({}, type), Y / cupp::where(aY == 0, cupp::ones({}, rt), aY));
    const ndarray Z = A.adjoint().matmat(S);
    const std::vector<double> h = cupp::astype(cupp::max(cupp::abs(Z), {.axis = {1}}), float64).to_vector<double>();
    const double hmax = *std::max_element(h.begin(), h.end());
    if (k >= 2 && hmax == h[ind_best]) break;
    std::vector<i64> order(n);
    for (i64 i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](i64 a, i64 b) { return h[a] > h[b]; });
    bool all_seen = true;
    for (int j = 0; j < t; ++j) all_seen = all_seen && hist.count(order[j]);
    if (all_seen) break;
    std::vector<i64> fresh;
    for (i64 i : order)
      if (!hist.count(i) && static_cast<int>(fresh.size()) < t) fresh.push_back(i);
    if (fresh.empty()) break;
    std::vector<double> E(n * t, 0.0);
    for (int j = 0; j < t; ++j) {
      ind[j] = fresh[std::min<std::size_t>(j, fresh.size() - 1)];
      E[ind[j] * t + j] = 1;
      hist.insert(ind[j]);
    }
    X = cupp::astype(cupp::asarray(E).reshape({n, t}), type);
  }
  return est;
}

}  // namespace cupp::sparse::linalg
