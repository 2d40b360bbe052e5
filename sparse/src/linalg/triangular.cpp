// spsolve_triangular of cupp::sparse::linalg: SciPy 1.18's checks and dtype rule, solved on the
// GPU by cuSPARSE's SpSV (one analysis per call, then one solve per right-hand side column). Only
// the named triangle is read (cuSPARSE's fill mode), as SciPy's SuperLU triangular solve reads it;
// unit_diagonal takes the diagonal as ones (SciPy sets it to 1).
#include <cstdint>
#include <string>

#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "cusparse_wrap.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;

class spsv_descr {
 public:
  spsv_descr() { sparse::detail::check(cusparseSpSV_createDescr(&d_), "cusparseSpSV_createDescr"); }
  ~spsv_descr() {
    if (d_) cusparseSpSV_destroyDescr(d_);
  }
  spsv_descr(const spsv_descr&) = delete;
  spsv_descr& operator=(const spsv_descr&) = delete;
  cusparseSpSVDescr_t get() const noexcept { return d_; }

 private:
  cusparseSpSVDescr_t d_ = nullptr;
};

std::string shape2_text(shape2 s) { return "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ")"; }

}  // namespace

ndarray spsolve_triangular(const csr& A0, const ndarray& b, const spsolve_triangular_options& o) {
  const shape2 s = A0.shape();
  if (s[0] != s[1]) throw ValueError("A must be a square matrix but its shape is " + shape2_text(s) + ".");
  const i64 n = s[0];
  if (b.is_null() || (b.ndim() != 1 && b.ndim() != 2))
    throw ValueError("b must have 1 or 2 dims but its shape is " + (b.is_null() ? std::string("()") : detail::shape_text(b)) +
                     ".");
  if (b.shape(0) != n)
    throw ValueError(
        "The size of the dimensions of A must be equal to the size of the first dimension of b but the shape of A is " +
        shape2_text(s) + " and the shape of b is " + detail::shape_text(b) + ".");
  // SciPy: promote_types(promote_types(A.dtype, float32), b.dtype)
  const cupp::dtype type = cupp::promote_types(cupp::promote_types(A0.dtype(), float32), b.dtype());
  if (!detail::is_inexact(type) || type == float16)
    throw TypeError("spsolve_triangular: no solve for dtype " + std::string(type.name()));
  csr a = A0.astype(type, false);
  if (!a.has_canonical_format()) {
    a = a.copy();
    a.sum_duplicates();
  }
  if (!o.unit_diagonal && n > 0 && cupp::any(a.diagonal() == 0).item<bool>())
    throw LinAlgError("A is singular: zero entry on diagonal.");
  ndarray bb = cupp::astype(b, type);  // a C-contiguous copy
  if (n == 0) return bb;
  const int device = bb.device();
  cupp::detail::device_scope scope(device);
  cusparseHandle_t h = sparse::detail::handle(device);
  // the named triangle alone (without the diagonal when it is taken as ones), whatever cuSPARSE
  // would read of the other one
  const std::int64_t off = o.unit_diagonal ? 1 : 0;
  const csr tri = o.lower ? sparse::tril(a, -off) : sparse::triu(a, off);
  const ndarray indptr = tri.indptr(), indices = tri.indices(), values = tri.data();
  sparse::detail::sp_mat mat = sparse::detail::make_csr(n, n, indptr, indices, values);
  cusparseFillMode_t fill = o.lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t diag = o.unit_diagonal ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  sparse::detail::check(cusparseSpMatSetAttribute(mat.get(), CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
                        "cusparseSpMatSetAttribute");
  sparse::detail::check(cusparseSpMatSetAttribute(mat.get(), CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag),
                        "cusparseSpMatSetAttribute");
  const cudaDataType vt = sparse::detail::value_type(type, "spsolve_triangular");
  // alpha = 1 in the compute type
  const double one_d[2] = {1.0, 0.0};
  const float one_f[2] = {1.0f, 0.0f};
  const void* alpha = detail::real_of(type) == float32 ? static_cast<const void*>(one_f) : one_d;
  const i64 k = bb.ndim() == 1 ? 1 : bb.shape(1);
  const ndarray cols = bb.ndim() == 1 ? bb.reshape({1, n}) : cupp::ascontiguousarray(bb.T());  // (k, n)
  ndarray xt = cupp::empty({k, n}, type);
  const spsv_descr descr;
  ndarray buffer;
  for (i64 j = 0; j < k; ++j) {
    const ndarray bj = cols(j), xj = xt(j);
    sparse::detail::dn_vec vb(n, bj.data(), vt), vx(n, xj.data(), vt);
    if (j == 0) {
      std::size_t bytes = 0;
      sparse::detail::check(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat.get(), vb.get(),
                                                    vx.get(), vt, CUSPARSE_SPSV_ALG_DEFAULT, descr.get(), &bytes),
                            "cusparseSpSV_bufferSize");
      buffer = cupp::empty({static_cast<i64>(bytes > 0 ? bytes : 1)}, uint8);
      sparse::detail::check(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat.get(), vb.get(),
                                                  vx.get(), vt, CUSPARSE_SPSV_ALG_DEFAULT, descr.get(), buffer.data()),
                            "cusparseSpSV_analysis");
    }
    sparse::detail::check(cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, mat.get(), vb.get(), vx.get(),
                                             vt, CUSPARSE_SPSV_ALG_DEFAULT, descr.get()),
                          "cusparseSpSV_solve");
  }
  if (bb.ndim() == 1) return xt.reshape({n});
  return cupp::ascontiguousarray(xt.T());
}

}  // namespace cupp::sparse::linalg
