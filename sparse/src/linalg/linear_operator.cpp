// scipy.sparse.linalg.LinearOperator and aslinearoperator (cupp/sparse_linalg.hpp): an operator is
// a shared record of its shape, dtype and four products (matvec, rmatvec, matmat, rmatmat); the
// sparse and dense forms fill them with SpMV/SpMM and cuBLAS products, the composite forms
// (product, sum, scaling, adjoint, transpose) with the operands' products.
#include <string>
#include <utility>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {

struct LinearOperator::impl {
  shape2 shape{0, 0};
  cupp::dtype type = float64;
  function matvec, rmatvec, matmat, rmatmat;
};

namespace {

using fn = LinearOperator::function;
using impl_ptr = std::shared_ptr<LinearOperator::impl>;

std::string shape_text(shape2 s) { return "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ")"; }

// matmat from matvec: one product per column, stacked as columns.
fn columns_of(fn vec) {
  return [vec = std::move(vec)](const ndarray& x) {
    std::vector<ndarray> cols;
    for (std::int64_t j = 0; j < x.shape(1); ++j) cols.push_back(vec(x(cupp::slice(), j)));
    if (cols.empty()) throw ValueError("matmat of a matrix with no columns");
    return cupp::stack(cols, {.axis = 1});
  };
}

// A sparse matrix's values as the operator computes them: integer and bool data as float64
// (cuSPARSE computes in float32/64 and complex only; SciPy's solvers coerce to float64 too).
csr computable(const csr& a) {
  return detail::is_inexact(a.dtype()) ? a : a.astype(float64);
}

}  // namespace

LinearOperator::LinearOperator(shape2 shape, function matvec, function rmatvec, function matmat,
                               std::optional<cupp::dtype> dtype, function rmatmat) {
  if (shape[0] < 0 || shape[1] < 0)
    throw ValueError("invalid shape " + shape_text(shape) + " (must be 2-d)");
  if (!matvec) throw TypeError("LinearOperator: matvec is required");
  auto p = std::make_shared<impl>();
  p->shape = shape;
  p->matvec = std::move(matvec);
  p->rmatvec = std::move(rmatvec);
  p->matmat = matmat ? std::move(matmat) : columns_of(p->matvec);
  p->rmatmat = rmatmat ? std::move(rmatmat) : (p->rmatvec ? columns_of(p->rmatvec) : function{});
  if (dtype) {
    p->type = *dtype;
  } else {  // SciPy: the dtype of matvec(zeros(N))
    p->type = p->matvec(cupp::zeros({shape[1]}, float64)).dtype();
  }
  p_ = std::move(p);
}

LinearOperator::LinearOperator(const csr& a0) {
  const csr a = computable(a0);
  auto p = std::make_shared<impl>();
  p->shape = a.shape();
  p->type = a.dtype();
  // A^H once, on first use, as CSR (SpMV of a CSC object converts it on every call)
  auto ah = std::make_shared<std::optional<csr>>();
  auto adj = [a, ah]() -> const csr& {
    if (!*ah) *ah = a.conj().transpose().tocsr();
    return **ah;
  };
  p->matvec = [a](const ndarray& x) { return a.dot(x); };
  p->matmat = [a](const ndarray& x) { return a.dot(x); };
  p->rmatvec = [adj](const ndarray& x) { return adj().dot(x); };
  p->rmatmat = [adj](const ndarray& x) { return adj().dot(x); };
  p_ = std::move(p);
}

LinearOperator::LinearOperator(const csc& a) : LinearOperator(a.tocsr()) {}
LinearOperator::LinearOperator(const coo& a) : LinearOperator(a.tocsr()) {}

LinearOperator::LinearOperator(const ndarray& dense) {
  if (dense.is_null() || dense.ndim() != 2)
    throw ValueError("aslinearoperator: a dense operand must be 2-d, not " +
                     std::to_string(dense.is_null() ? 0 : dense.ndim()) + "-d");
  auto p = std::make_shared<impl>();
  p->shape = {dense.shape(0), dense.shape(1)};
  const ndarray a = detail::is_inexact(dense.dtype()) ? dense : cupp::astype(dense, float64);
  p->type = a.dtype();
  auto ah = std::make_shared<ndarray>();
  auto adj = [a, ah]() -> const ndarray& {
    if (ah->is_null()) *ah = a.dtype().kind() == 'c' ? cupp::conjugate(a.T()) : a.T();
    return *ah;
  };
  p->matvec = [a](const ndarray& x) { return cupp::matmul(a, x); };
  p->matmat = p->matvec;
  p->rmatvec = [adj](const ndarray& x) { return cupp::matmul(adj(), x); };
  p->rmatmat = p->rmatvec;
  p_ = std::move(p);
}

shape2 LinearOperator::shape() const noexcept { return p_->shape; }
cupp::dtype LinearOperator::dtype() const noexcept { return p_->type; }
bool LinearOperator::has_rmatvec() const noexcept { return static_cast<bool>(p_->rmatvec); }

namespace {

// SciPy's matvec/rmatvec contract: x (n,) or (n, 1); the result is (m,) or (m, 1).
ndarray vector_product(const fn& f, const ndarray& x, std::int64_t n, std::int64_t m, shape2 shape,
                       const char* what) {
  if (!f) throw TypeError(std::string(what) + " is not defined for this LinearOperator");
  const bool column = x.ndim() == 2 && x.shape(0) == n && x.shape(1) == 1;
  if (!(x.ndim() == 1 && x.shape(0) == n) && !column)
    throw ValueError("dimension mismatch: LinearOperator of shape " + shape_text(shape) + ", x of shape " +
                     detail::shape_text(x));
  ndarray y = f(column ? x.reshape({n}) : x);
  if (y.ndim() != 1 || y.shape(0) != m)
    y = y.reshape({m});  // ValueError when the callable returned the wrong size
  return column ? y.reshape({m, 1}) : y;
}

ndarray matrix_product(const fn& f, const ndarray& x, std::int64_t n, shape2 shape, const char* what) {
  if (!f) throw TypeError(std::string(what) + " is not defined for this LinearOperator");
  if (x.ndim() != 2) throw ValueError("expected 2-d ndarray or matrix, not " + std::to_string(x.ndim()) + "-d");
  if (x.shape(0) != n)
    throw ValueError("dimension mismatch: " + shape_text(shape) + ", " + detail::shape_text(x));
  return f(x);
}

}  // namespace

ndarray LinearOperator::matvec(const ndarray& x) const {
  return vector_product(p_->matvec, x, p_->shape[1], p_->shape[0], p_->shape, "matvec");
}
ndarray LinearOperator::rmatvec(const ndarray& x) const {
  return vector_product(p_->rmatvec, x, p_->shape[0], p_->shape[1], p_->shape, "rmatvec");
}
ndarray LinearOperator::matmat(const ndarray& x) const {
  return matrix_product(p_->matmat, x, p_->shape[1], p_->shape, "matmat");
}
ndarray LinearOperator::rmatmat(const ndarray& x) const {
  return matrix_product(p_->rmatmat, x, p_->shape[0], p_->shape, "rmatmat");
}

ndarray LinearOperator::dot(const ndarray& x) const {
  if (x.ndim() == 1 || (x.ndim() == 2 && x.shape(1) == 1)) return matvec(x);
  if (x.ndim() == 2) return matmat(x);
  throw ValueError("expected 1-d or 2-d array or matrix, got " + detail::shape_text(x));
}

namespace {
LinearOperator make(shape2 shape, cupp::dtype type, fn mv, fn rmv, fn mm, fn rmm) {
  auto p = std::make_shared<LinearOperator::impl>();
  p->shape = shape;
  p->type = type;
  p->matvec = std::move(mv);
  p->rmatvec = std::move(rmv);
  p->matmat = std::move(mm);
  p->rmatmat = std::move(rmm);
  return LinearOperator(std::shared_ptr<const LinearOperator::impl>(std::move(p)));
}
ndarray conj_if(const ndarray& x) { return x.dtype().kind() == 'c' ? cupp::conjugate(x) : x; }
}  // namespace

LinearOperator LinearOperator::dot(const LinearOperator& b) const {
  const LinearOperator a = *this;
  if (a.shape()[1] != b.shape()[0])
    throw ValueError("cannot matmul LinearOperators of shapes " + shape_text(a.shape()) + " and " +
                     shape_text(b.shape()));
  const bool adj = a.has_rmatvec() && b.has_rmatvec();
  return make({a.shape()[0], b.shape()[1]}, cupp::promote_types(a.dtype(), b.dtype()),
              [a, b](const ndarray& x) { return a.matvec(b.matvec(x)); },
              adj ? fn([a, b](const ndarray& x) { return b.rmatvec(a.rmatvec(x)); }) : fn{},
              [a, b](const ndarray& x) { return a.matmat(b.matmat(x)); },
              adj ? fn([a, b](const ndarray& x) { return b.rmatmat(a.rmatmat(x)); }) : fn{});
}

LinearOperator LinearOperator::adjoint() const {
  const LinearOperator a = *this;
  if (!a.has_rmatvec()) throw TypeError("rmatvec is not defined for this LinearOperator (adjoint)");
  return make({a.shape()[1], a.shape()[0]}, a.dtype(), [a](const ndarray& x) { return a.rmatvec(x); },
              [a](const ndarray& x) { return a.matvec(x); }, [a](const ndarray& x) { return a.rmatmat(x); },
              [a](const ndarray& x) { return a.matmat(x); });
}

LinearOperator LinearOperator::transpose() const {
  // SciPy's _TransposedLinearOperator: A^T x = conj(A^H conj(x))
  const LinearOperator a = *this;
  if (!a.has_rmatvec()) throw TypeError("rmatvec is not defined for this LinearOperator (transpose)");
  return make({a.shape()[1], a.shape()[0]}, a.dtype(),
              [a](const ndarray& x) { return conj_if(a.rmatvec(conj_if(x))); },
              [a](const ndarray& x) { return conj_if(a.matvec(conj_if(x))); },
              [a](const ndarray& x) { return conj_if(a.rmatmat(conj_if(x))); },
              [a](const ndarray& x) { return conj_if(a.matmat(conj_if(x))); });
}

ndarray operator*(const LinearOperator& a, const ndarray& x) { return a.dot(x); }
LinearOperator operator*(const LinearOperator& a, const LinearOperator& b) { return a.dot(b); }

LinearOperator operator*(double alpha, const LinearOperator& a) {
  const bool adj = a.has_rmatvec();
  return make(a.shape(), cupp::promote_types(a.dtype(), float32 /* a weak float keeps float32 */),
              [a, alpha](const ndarray& x) { return a.matvec(x) * alpha; },
              adj ? fn([a, alpha](const ndarray& x) { return a.rmatvec(x) * alpha; }) : fn{},
              [a, alpha](const ndarray& x) { return a.matmat(x) * alpha; },
              adj ? fn([a, alpha](const ndarray& x) { return a.rmatmat(x) * alpha; }) : fn{});
}

LinearOperator operator+(const LinearOperator& a, const LinearOperator& b) {
  if (a.shape() != b.shape())
    throw ValueError("cannot add " + shape_text(a.shape()) + " and " + shape_text(b.shape()) + " LinearOperators");
  const bool adj = a.has_rmatvec() && b.has_rmatvec();
  return make(a.shape(), cupp::promote_types(a.dtype(), b.dtype()),
              [a, b](const ndarray& x) { return a.matvec(x) + b.matvec(x); },
              adj ? fn([a, b](const ndarray& x) { return a.rmatvec(x) + b.rmatvec(x); }) : fn{},
              [a, b](const ndarray& x) { return a.matmat(x) + b.matmat(x); },
              adj ? fn([a, b](const ndarray& x) { return a.rmatmat(x) + b.rmatmat(x); }) : fn{});
}

LinearOperator operator-(const LinearOperator& a) { return -1.0 * a; }
LinearOperator operator-(const LinearOperator& a, const LinearOperator& b) { return a + (-b); }

}  // namespace cupp::sparse::linalg
