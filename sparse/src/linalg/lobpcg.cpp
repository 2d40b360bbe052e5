// lobpcg of cupp::sparse::linalg: Knyazev's locally optimal block preconditioned conjugate gradient
// method with soft locking, as SciPy 1.18 exposes it (A, X, B, M, Y, tol, maxiter, largest; the
// dense fallback for a block too large for the problem; the best iterate is returned). Blocks stay
// on the device: products by A, B and M are matmats, the Rayleigh-Ritz problem on [X, R, P] is a
// dense generalized eigenproblem of at most 3k x 3k solved on the device (Cholesky of the Gram
// matrix of B, eigh of the transformed Gram matrix of A). The host reads the k residual norms once
// per iteration. The Gram matrices are formed explicitly every iteration (SciPy switches to them
// only when the residuals are small): the same subspace, more stable.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/linalg.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;

ndarray ct(const ndarray& a) { return a.dtype().kind() == 'c' ? cupp::conjugate(a.T()) : a.T(); }
ndarray hermitian_part(const ndarray& g) { return (g + ct(g)) * 0.5; }

struct blocks {
  cupp::dtype type;
  const LinearOperator& A;
  const std::optional<LinearOperator>& B;
  ndarray apply_A(const ndarray& v) const { return detail::as_type(A.matmat(v), type); }
  ndarray apply_B(const ndarray& v) const { return B ? detail::as_type(B->matmat(v), type) : v; }
};

// B-orthonormalise the columns of V: V L^-H with L L^H = V^H B V. False when the Gram matrix is
// not positive definite (linearly dependent columns).
bool b_orthonormalize(const blocks& k, ndarray& V, ndarray& BV, ndarray* AV = nullptr) {
  BV = k.apply_B(V);
  const ndarray G = hermitian_part(cupp::matmul(ct(V), BV));
  ndarray L;
  try {
    L = cupp::linalg::cholesky(G);
  } catch (const LinAlgError&) {
    return false;
  }
  const ndarray Rinv = ct(cupp::linalg::inv(L));  // L^-H
  if (!cupp::all(cupp::isfinite(Rinv)).item<bool>()) return false;
  V = cupp::matmul(V, Rinv);
  BV = cupp::matmul(BV, Rinv);
  if (AV) *AV = cupp::matmul(*AV, Rinv);
  return true;
}

// Indices of the k wanted eigenvalues of an ascending list: the largest first (descending), or the
// smallest (ascending), as SciPy's _get_indx.
std::vector<i64> wanted(i64 count, i64 k, bool largest) {
  std::vector<i64> idx;
  for (i64 i = 0; i < k; ++i) idx.push_back(largest ? count - 1 - i : i);
  return idx;
}

ndarray columns(const ndarray& a, const std::vector<i64>& idx) {
  return cupp::take(a, cupp::asarray(idx), {.axis = 1});
}

// Generalized eigenproblem G_A c = w G_B c of a small Hermitian pair on the device: ascending w and
// G_B-orthonormal c. False when G_B is not positive definite.
bool small_eigh(const ndarray& GA, const ndarray& GB, ndarray& w, ndarray& c) {
  ndarray L;
  try {
    L = cupp::linalg::cholesky(GB);
  } catch (const LinAlgError&) {
    return false;
  }
  const ndarray Linv = cupp::linalg::inv(L);
  const ndarray C = hermitian_part(cupp::matmul(cupp::matmul(Linv, GA), ct(Linv)));
  const auto e = cupp::linalg::eigh(C);
  w = e.eigenvalues;
  c = cupp::matmul(ct(Linv), e.eigenvectors);
  return cupp::all(cupp::isfinite(c)).item<bool>();
}

}  // namespace

lobpcg_result lobpcg(const LinearOperator& A, const ndarray& X0, const lobpcg_options& o) {
  if (X0.is_null() || X0.ndim() != 2) throw ValueError("expected rank-2 array for argument X");
  const shape2 s = A.shape();
  const i64 n = X0.shape(0), k = X0.shape(1);
  if (s[0] != s[1] || s[0] != n)
    throw ValueError("lobpcg: A of shape (" + std::to_string(s[0]) + ", " + std::to_string(s[1]) +
                     ") does not match X of shape " + detail::shape_text(X0));
  if (k < 1 || k > n) throw ValueError("lobpcg: the block size must be in [1, n]");
  for (const auto* m : {&o.B, &o.M})
    if (*m && ((*m)->shape()[0] != n || (*m)->shape()[1] != n))
      throw ValueError("lobpcg: B and M must be (n, n) like A");
  const bool has_y = !o.Y.is_null();
  if (has_y && (o.Y.ndim() != 2 || o.Y.shape(0) != n))
    throw ValueError("lobpcg: Y must be (n, sizeY), not " + detail::shape_text(o.Y));
  const i64 ny = has_y ? o.Y.shape(1) : 0;
  // the iterates' dtype: X's (float32 for an integer X, as SciPy's cast), promoted with the operators'
  cupp::dtype type = detail::is_inexact(X0.dtype()) && X0.dtype() != float16 ? X0.dtype() : float32;
  type = detail::solver_type(type, A.dtype());
  if (o.B) type = detail::solver_type(type, o.B->dtype());
  const cupp::dtype rt = detail::real_of(type);
  const blocks op{type, A, o.B};
  const i64 maxiter = o.maxiter.value_or(20);
  lobpcg_result out;

  if (n - ny < 5 * k) {
    // SciPy: a dense eigensolver (no constraints, no history)
    if (has_y) throw ValueError("The dense eigensolver does not support constraints.");
    const ndarray I = cupp::eye(n, std::nullopt, 0, type);
    const ndarray Ad = hermitian_part(op.apply_A(I));
    ndarray w, c;
    if (o.B) {
      if (!small_eigh(Ad, hermitian_part(op.apply_B(I)), w, c)) throw LinAlgError("lobpcg: B is not positive definite");
    } else {
      const auto e = cupp::linalg::eigh(Ad);
      w = e.eigenvalues, c = e.eigenvectors;
    }
    const std::vector<i64> idx = wanted(n, k, o.largest);
    out.lambda = cupp::take(w, cupp::asarray(idx));
    out.v = columns(c, idx);
    return out;
  }
  const double tol = o.tol && *o.tol > 0 ? *o.tol : std::sqrt(detail::eps_of(type)) * static_cast<double>(n);

  // constraints: V -= Y (Y^H B Y)^-1 (B Y)^H V
  ndarray Y, BY, YBY;
  if (has_y) {
    Y = detail::as_type(o.Y, type);
    BY = op.apply_B(Y);
    YBY = hermitian_part(cupp::matmul(ct(Y), BY));
    try {
      (void)cupp::linalg::cholesky(YBY);
    } catch (const LinAlgError&) {
      throw ValueError("Linearly dependent constraints");
    }
  }
  auto constrain = [&](const ndarray& V) {
    return has_y ? V - cupp::matmul(Y, cupp::linalg::solve(YBY, cupp::matmul(ct(BY), V))) : V;
  };

  ndarray X = constrain(detail::as_type(X0, type).copy()), BX;
  if (!b_orthonormalize(op, X, BX)) throw ValueError("Linearly dependent initial approximations");
  ndarray AX = op.apply_A(X);
  ndarray lam;
  {
    const auto e = cupp::linalg::eigh(hermitian_part(cupp::matmul(ct(X), AX)));
    const std::vector<i64> idx = wanted(k, k, o.largest);
    lam = cupp::take(e.eigenvalues, cupp::asarray(idx));
    const ndarray W = columns(e.eigenvectors, idx);
    X = cupp::matmul(X, W), AX = cupp::matmul(AX, W), BX = cupp::matmul(BX, W);
  }
  if (o.retLambdaHistory) out.lambda_history.push_back(lam);
  ndarray P, AP;  // (n, k) once made
  double best = std::numeric_limits<double>::infinity();
  ndarray best_lam = lam, best_X = X;
  for (i64 it = 0; it <= maxiter; ++it) {
    const ndarray R = AX - BX * lam.reshape({1, k});
    const ndarray rnorm = cupp::sqrt(cupp::sum(cupp::real(cupp::conjugate(R) * R), {.axis = {0}}));
    const std::vector<double> rn = cupp::astype(rnorm, float64).to_vector<double>();  // the iteration's read
    if (o.retResidualNormsHistory) out.residual_norms_history.push_back(cupp::astype(rnorm, rt));
    const double worst = *std::max_element(rn.begin(), rn.end());
    if (worst < best) best = worst, best_lam = lam, best_X = X;
    std::vector<i64> active;
    for (i64 j = 0; j < k; ++j)
      if (rn[j] > tol) active.push_back(j);
    if (active.empty() || it == maxiter) break;
    // the preconditioned, constrained, X-orthogonal residuals of the active columns
    ndarray Ra = columns(R, active);
    if (o.M) Ra = detail::as_type(o.M->matmat(Ra), type);
    Ra = constrain(Ra);
    Ra = Ra - cupp::matmul(X, cupp::matmul(ct(BX), Ra));
    ndarray BR;
    if (!b_orthonormalize(op, Ra, BR)) break;
    const ndarray AR = op.apply_A(Ra);
    ndarray Pa, APa, BPa;  // BPa: B P, made by the orthonormalisation
    bool use_p = !P.is_null();
    if (use_p) {
      Pa = columns(P, active), APa = columns(AP, active);
      use_p = b_orthonormalize(op, Pa, BPa, &APa);
    }
    // Rayleigh-Ritz on [X, R, P]
    const ndarray S = use_p ? cupp::concatenate({X, Ra, Pa}, {.axis = 1}) : cupp::concatenate({X, Ra}, {.axis = 1});
    const ndarray AS = use_p ? cupp::concatenate({AX, AR, APa}, {.axis = 1}) : cupp::concatenate({AX, AR}, {.axis = 1});
    const ndarray BS = use_p ? cupp::concatenate({BX, BR, BPa}, {.axis = 1}) : cupp::concatenate({BX, BR}, {.axis = 1});
    ndarray w, c;
    if (!small_eigh(hermitian_part(cupp::matmul(ct(S), AS)), hermitian_part(cupp::matmul(ct(S), BS)), w, c)) {
      if (!use_p) break;
      // restart without P (SciPy's restart)
      const ndarray S2 = cupp::concatenate({X, Ra}, {.axis = 1}), AS2 = cupp::concatenate({AX, AR}, {.axis = 1}),
                    BS2 = cupp::concatenate({BX, BR}, {.axis = 1});
      if (!small_eigh(hermitian_part(cupp::matmul(ct(S2), AS2)), hermitian_part(cupp::matmul(ct(S2), BS2)), w, c))
        break;
      use_p = false;
      const i64 m2 = S2.shape(1);
      const std::vector<i64> idx = wanted(m2, k, o.largest);
      const ndarray Cs = columns(c, idx);
      lam = cupp::take(w, cupp::asarray(idx));
      const ndarray Crp = Cs(cupp::slice(k, m2));
      P = cupp::matmul(Ra, Crp), AP = cupp::matmul(AR, Crp);
      X = cupp::matmul(S2, Cs), AX = cupp::matmul(AS2, Cs), BX = cupp::matmul(BS2, Cs);
    } else {
      const i64 m = S.shape(1);
      const std::vector<i64> idx = wanted(m, k, o.largest);
      const ndarray Cs = columns(c, idx);
      lam = cupp::take(w, cupp::asarray(idx));
      // P: the [R, P] part of the new X
      const ndarray Crp = Cs(cupp::slice(k, m));
      P = cupp::matmul(S(cupp::slice(), cupp::slice(k, m)), Crp);
      AP = cupp::matmul(AS(cupp::slice(), cupp::slice(k, m)), Crp);
      X = cupp::matmul(S, Cs), AX = cupp::matmul(AS, Cs), BX = cupp::matmul(BS, Cs);
    }
    if (o.retLambdaHistory) out.lambda_history.push_back(lam);
  }
  out.lambda = cupp::astype(best_lam, rt);
  out.v = best_X;
  return out;
}

}  // namespace cupp::sparse::linalg
