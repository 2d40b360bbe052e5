// cupp::sparse::linalg, SciPy's scipy.sparse.linalg (1.18) on the GPU (part 2 of the sparse module,
// target cupp::sparse; docs/sparse-linalg.md is the guide): LinearOperator and aslinearoperator,
// the Krylov solvers (cg, cgs, bicg, bicgstab, gmres, minres) returning SciPy's (x, info), the
// eigensolvers eigsh and svds (thick-restart Lanczos), norm and onenormest, and the direct solve
// spsolve (cuSOLVER's sparse QR).
//
// Solvers run on the current stream: the vectors, the scalars of the recurrences (rho, alpha,
// beta, ...) and the convergence test stay on the device, and the host reads one small state
// record per check interval (cg, cgs, bicg, bicgstab), not per iteration. An operand can be a
// sparse matrix (csr, csc, coo), a dense 2-D ndarray or a LinearOperator: all convert implicitly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse::linalg {

// SciPy's LinearOperator: a (M, N) shape, a dtype and the products it can compute. From callables
// (matvec is required; matmat defaults to one matvec per column, rmatmat to rmatvec per column;
// a missing rmatvec raises NotImplementedError-as-TypeError "rmatvec is not defined" when asked),
// or, implicitly (aslinearoperator), from a sparse matrix or a dense 2-D array. Copies share
// the operator. Without a dtype, the dtype is that of matvec(zeros(N)) (as SciPy).
class LinearOperator {
 public:
  using function = std::function<ndarray(const ndarray&)>;

  LinearOperator(shape2 shape, function matvec, function rmatvec = {}, function matmat = {},
                 std::optional<cupp::dtype> dtype = std::nullopt, function rmatmat = {});
  LinearOperator(const csr& a);  // NOLINT: aslinearoperator
  LinearOperator(const csc& a);  // NOLINT
  LinearOperator(const coo& a);  // NOLINT
  LinearOperator(const ndarray& dense);  // NOLINT: a dense 2-D array (ValueError otherwise)

  shape2 shape() const noexcept;
  int ndim() const noexcept { return 2; }
  cupp::dtype dtype() const noexcept;
  bool has_rmatvec() const noexcept;

  // x of shape (N,) or (N, 1) gives (M,) or (M, 1) (SciPy's "dimension mismatch" ValueError
  // otherwise); matmat takes (N, K) and gives (M, K).
  ndarray matvec(const ndarray& x) const;
  ndarray rmatvec(const ndarray& x) const;
  ndarray matmat(const ndarray& x) const;
  ndarray rmatmat(const ndarray& x) const;
  // A @ x: matvec for 1-D or (N, 1) x, matmat for other 2-D x.
  ndarray dot(const ndarray& x) const;
  // The operators A @ B, A + B, alpha * A, -A, the adjoint A^H and the transpose A^T.
  LinearOperator dot(const LinearOperator& b) const;
  LinearOperator adjoint() const;
  LinearOperator H() const { return adjoint(); }
  LinearOperator transpose() const;
  LinearOperator T() const { return transpose(); }

  struct impl;
  explicit LinearOperator(std::shared_ptr<const impl> p) noexcept : p_(std::move(p)) {}

 private:
  std::shared_ptr<const impl> p_;
};

// scipy.sparse.linalg.aslinearoperator.
inline LinearOperator aslinearoperator(const LinearOperator& a) { return a; }
inline LinearOperator aslinearoperator(const csr& a) { return LinearOperator(a); }
inline LinearOperator aslinearoperator(const csc& a) { return LinearOperator(a); }
inline LinearOperator aslinearoperator(const coo& a) { return LinearOperator(a); }
inline LinearOperator aslinearoperator(const ndarray& a) { return LinearOperator(a); }

ndarray operator*(const LinearOperator& a, const ndarray& x);  // A @ x (SciPy's A * x)
LinearOperator operator*(const LinearOperator& a, const LinearOperator& b);
LinearOperator operator*(double alpha, const LinearOperator& a);
LinearOperator operator+(const LinearOperator& a, const LinearOperator& b);
LinearOperator operator-(const LinearOperator& a, const LinearOperator& b);
LinearOperator operator-(const LinearOperator& a);

// ---- iterative solvers: SciPy 1.18's signatures; x0 and keywords in options.
// The returned pair is SciPy's (x, info): info 0 converged, > 0 the iteration limit (maxiter) was
// reached without convergence, < 0 breakdown (-10: rho, -11: a dot product, SciPy's codes).
struct solve_result {
  ndarray x;
  int info = 0;
};

// cg, cgs, bicg, bicgstab: convergence when norm(b - A x) <= max(rtol * norm(b), atol) (SciPy's
// `< atol` test); maxiter defaults to 10 * N; M is the preconditioner (an approximate inverse of A);
// callback(xk) is called after every iteration (with a callback the state is read every iteration).
// check_every: iterations between host reads of the device state (0: cupp's default, 8; more
// iterations than needed run as no-ops on the device, so x is the iterate SciPy returns).
struct iterative_options {
  ndarray x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<std::int64_t> maxiter{};
  std::optional<LinearOperator> M{};
  std::function<void(const ndarray&)> callback{};
  int check_every = 0;
};
solve_result cg(const LinearOperator& A, const ndarray& b, const iterative_options& options = {});
solve_result cgs(const LinearOperator& A, const ndarray& b, const iterative_options& options = {});
solve_result bicg(const LinearOperator& A, const ndarray& b, const iterative_options& options = {});
solve_result bicgstab(const LinearOperator& A, const ndarray& b, const iterative_options& options = {});

// gmres: restarted GMRES with left preconditioning (restart default min(20, N); maxiter counts
// restart cycles, as SciPy's callback_type 'x'/'pr_norm'; 'legacy', SciPy's default, counts inner
// iterations). callback_x(xk) after each restart cycle; callback_pr(presid / norm(b)) after each
// inner iteration. Orthogonalisation: classical Gram-Schmidt applied twice (one gemv pair per pass;
// SciPy uses modified Gram-Schmidt: the same basis in exact arithmetic). One host read per inner
// iteration (the new Hessenberg column).
struct gmres_options {
  ndarray x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<std::int64_t> restart{};
  std::optional<std::int64_t> maxiter{};
  std::optional<LinearOperator> M{};
  std::string callback_type = "legacy";  // 'x', 'pr_norm' or 'legacy' (ValueError otherwise)
  std::function<void(const ndarray&)> callback_x{};
  std::function<void(double)> callback_pr{};
};
solve_result gmres(const LinearOperator& A, const ndarray& b, const gmres_options& options = {});

// minres (Paige and Saunders, SciPy's port): A symmetric (Hermitian), possibly indefinite; solves
// (A - shift I) x = b. info: 0 converged (SciPy's istop 1-5 success cases), maxiter when the limit
// is reached. One host read of two scalars per iteration (the recurrences' stopping tests).
struct minres_options {
  ndarray x0{};
  double rtol = 1e-5;
  double shift = 0.0;
  std::optional<std::int64_t> maxiter{};
  std::optional<LinearOperator> M{};
  std::function<void(const ndarray&)> callback{};
};
solve_result minres(const LinearOperator& A, const ndarray& b, const minres_options& options = {});

// qmr (SciPy's port of Freund and Nachtigal's QMR without look-ahead): left and right
// preconditioners M1, M2 (both need rmatvec; identity when absent); A needs rmatvec. info -10 ..
// -15: SciPy's rho, beta, gamma, delta, epsilon and xi breakdowns. The scalars live on the device:
// one host read per check_every iterations (as cg's; every iteration with a callback).
struct qmr_options {
  ndarray x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<std::int64_t> maxiter{};
  std::optional<LinearOperator> M1{};
  std::optional<LinearOperator> M2{};
  std::function<void(const ndarray&)> callback{};
  int check_every = 0;
};
solve_result qmr(const LinearOperator& A, const ndarray& b, const qmr_options& options = {});

// tfqmr (Freund's transpose-free QMR, SciPy's port): iterative_options; maxiter defaults to
// min(10000, 10 N); convergence is SciPy's tau sqrt(k + 1) < max(atol, rtol ||r0||); info -1 on
// the <r*, v> = 0 breakdown. The scalars live on the device: one host read per check_every
// iterations (every iteration with a callback).
solve_result tfqmr(const LinearOperator& A, const ndarray& b, const iterative_options& options = {});

// lgmres (Baker, Jessup and Manteuffel's LGMRES, SciPy's): inner_m Arnoldi steps per outer
// iteration augmented by the last outer_k error approximations; outer_v, when given, is SciPy's
// in/out list of (v, A v or null) pairs kept between calls. maxiter defaults to 1000 (outer
// iterations). The Arnoldi process is flexible GMRES with classical Gram-Schmidt twice (one host
// read per step) and the small least-squares problem by Givens rotations on the host.
struct lgmres_options {
  ndarray x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  std::int64_t maxiter = 1000;
  std::optional<LinearOperator> M{};
  std::function<void(const ndarray&)> callback{};
  std::int64_t inner_m = 30;
  std::int64_t outer_k = 3;
  std::vector<std::pair<ndarray, ndarray>>* outer_v = nullptr;
  bool store_outer_Av = true;
  bool prepend_outer_v = false;
};
solve_result lgmres(const LinearOperator& A, const ndarray& b, const lgmres_options& options = {});

// gcrotmk (Hicken and Zingg's GCROT(m, k), SciPy's): m inner steps, k kept vectors (default m),
// truncate 'oldest' or 'smallest'. SciPy's CU and discard_C (a subspace carried between calls)
// are not offered. info: 0 converged, else the number of outer iterations run.
struct gcrotmk_options {
  ndarray x0{};
  double rtol = 1e-5;
  double atol = 0.0;
  std::int64_t maxiter = 1000;
  std::optional<LinearOperator> M{};
  std::function<void(const ndarray&)> callback{};
  std::int64_t m = 20;
  std::optional<std::int64_t> k{};
  std::string truncate = "oldest";
};
solve_result gcrotmk(const LinearOperator& A, const ndarray& b, const gcrotmk_options& options = {});

// lsqr and lsmr (Paige and Saunders; Fong and Saunders): least squares min ||A x - b||^2 +
// damp^2 ||x||^2 for any (M, N) A with rmatvec. SciPy's result tuples; istop 0-7 as SciPy's
// messages. x is float64 (complex128 for complex data), as SciPy's. Two host reads per iteration
// (lsmr: three), of the Golub-Kahan norms.
struct lsqr_options {
  double damp = 0.0;
  double atol = 1e-6;
  double btol = 1e-6;
  double conlim = 1e8;
  std::optional<std::int64_t> iter_lim{};  // default 2 N
  bool calc_var = false;
  ndarray x0{};
};
struct lsqr_result {
  ndarray x;
  int istop = 0;
  std::int64_t itn = 0;
  double r1norm = 0, r2norm = 0, anorm = 0, acond = 0, arnorm = 0, xnorm = 0;
  ndarray var;  // (N,) float64: zeros unless calc_var
};
lsqr_result lsqr(const LinearOperator& A, const ndarray& b, const lsqr_options& options = {});

struct lsmr_options {
  double damp = 0.0;
  double atol = 1e-6;
  double btol = 1e-6;
  double conlim = 1e8;
  std::optional<std::int64_t> maxiter{};  // default min(M, N)
  ndarray x0{};
};
struct lsmr_result {
  ndarray x;
  int istop = 0;
  std::int64_t itn = 0;
  double normr = 0, normar = 0, normA = 0, condA = 0, normx = 0;
};
lsmr_result lsmr(const LinearOperator& A, const ndarray& b, const lsmr_options& options = {});

// ---- eigenvalues and singular values
// eigsh(A, k=6, which='LM', v0, ncv, maxiter, tol, return_eigenvectors) for a real symmetric or
// complex Hermitian A: thick-restart Lanczos (the symmetric Krylov-Schur method ARPACK's implicit
// restarts are equivalent to) with full reorthogonalisation on the device; the small projected
// problem is solved on the host (Jacobi). which: 'LM', 'SM', 'LA', 'SA', 'BE'. Eigenvalues come
// in ascending order, as SciPy's. sigma (shift-invert) is not offered yet (docs/sparse-linalg.md).
// ArpackNoConvergence is a LinAlgError naming the converged count.
struct eigsh_options {
  std::int64_t k = 6;
  std::string which = "LM";
  ndarray v0{};
  std::optional<std::int64_t> ncv{};
  std::optional<std::int64_t> maxiter{};
  double tol = 0.0;  // 0: machine precision
  bool return_eigenvectors = true;
};
struct eigsh_result {
  ndarray w;  // (k,) real
  ndarray v;  // (N, k), null without return_eigenvectors
};
eigsh_result eigsh(const LinearOperator& A, const eigsh_options& options = {});

// svds(A, k=6, ncv, tol, which='LM'|'SM', v0, maxiter, return_singular_vectors): eigsh of A^H A
// (or A A^H for a wide A); singular values in ascending order, as SciPy's.
struct svds_options {
  std::int64_t k = 6;
  std::optional<std::int64_t> ncv{};
  double tol = 0.0;
  std::string which = "LM";
  ndarray v0{};
  std::optional<std::int64_t> maxiter{};
  bool return_singular_vectors = true;
};
struct svds_result {
  ndarray u;   // (M, k)
  ndarray s;   // (k,)
  ndarray vh;  // (k, N)
};
svds_result svds(const LinearOperator& A, const svds_options& options = {});

// lobpcg(A, X, B, M, Y, tol, maxiter=20, largest=True, retLambdaHistory, retResidualNormsHistory):
// Knyazev's LOBPCG for the k = X.shape[1] largest (or smallest) eigenpairs of A x = w B x, with a
// preconditioner M and constraints Y (the search stays B-orthogonal to Y's columns); tol defaults
// to sqrt(eps) N. Blocks on the device; the Rayleigh-Ritz problem (at most 3k x 3k) by cuSOLVER
// through cupp::linalg; one host read (the residual norms) per iteration. N - sizeY < 5 k solves
// densely, as SciPy (ValueError with constraints: SciPy's NotImplementedError). Eigenvalues come
// largest first for largest=True, ascending otherwise, as SciPy's; no convergence returns the best
// iterate without a warning.
struct lobpcg_options {
  std::optional<LinearOperator> B{};
  std::optional<LinearOperator> M{};
  ndarray Y{};
  std::optional<double> tol{};
  std::optional<std::int64_t> maxiter{};
  bool largest = true;
  bool retLambdaHistory = false;
  bool retResidualNormsHistory = false;
};
struct lobpcg_result {
  ndarray lambda;  // (k,) real
  ndarray v;       // (N, k)
  std::vector<ndarray> lambda_history, residual_norms_history;
};
lobpcg_result lobpcg(const LinearOperator& A, const ndarray& X, const lobpcg_options& options = {});

// ---- norms
// scipy.sparse.linalg.norm(x, ord=None, axis=None): ord "fro" (default), 1, -1, inf, -inf for the
// matrix norm (2 and -2: NotImplementedError as SciPy, here a ValueError); with axis (0 or 1) the
// vector norms along it (ord any real or +-inf; default 2). Returns a 0-d array (float64 for
// integer data) or a 1-D one.
using norm_ord = std::variant<std::monostate, double, std::string>;
ndarray norm(const csr& x, const norm_ord& ord = {}, std::optional<int> axis = std::nullopt);
// onenormest(A, t=2, itmax=5): Higham and Tisseur's block 1-norm estimator (exact when t >= N),
// with deterministic starting columns (SciPy draws random signs).
double onenormest(const LinearOperator& A, int t = 2, int itmax = 5);

// ---- direct solves
// spsolve(A, b): A square (CSR/CSC/COO), b 1-D (N,) or 2-D (N, K) dense; cuSOLVER's sparse QR
// (cusolverSpXcsrlsvqr, symrcm reordering) per column. A singular matrix gives NaNs with no
// exception (SciPy warns MatrixRankWarning and returns NaNs). float32/64, complex64/128 (integer
// data: float64).
ndarray spsolve(const csr& A, const ndarray& b);
inline ndarray spsolve(const csc& A, const ndarray& b) { return spsolve(A.tocsr(), b); }
inline ndarray spsolve(const coo& A, const ndarray& b) { return spsolve(A.tocsr(), b); }

// factorized(A): SciPy's factorized, a function b -> A^-1 b for a square A (ValueError "can only
// factor square matrices" otherwise). It keeps A in the solver dtype and index form and solves on
// the GPU by spsolve's sparse QR on each call: the factors are not kept between calls (the
// toolkit's sparse LU is host-only, and cusolverSp's device QR that could keep them is a preview
// API). splu, whose SuperLU object exposes L and U, is not offered.
std::function<ndarray(const ndarray&)> factorized(const csr& A);

// expm_multiply(A, B, start, stop, num, endpoint, traceA): exp(t A) B by Al-Mohy and Higham's
// method (SciPy's parameters, theta table and stopping test); without start/stop/num/endpoint the
// action at t = 1, else a (num, *B.shape) stack at numpy.linspace(start, stop, num, endpoint)
// (each step from the previous one: SciPy's interval core 0). float64 / complex128 results.
struct expm_multiply_options {
  std::optional<double> start{};
  std::optional<double> stop{};
  std::optional<std::int64_t> num{};
  std::optional<bool> endpoint{};
  std::optional<double> traceA{};
};
ndarray expm_multiply(const csr& A, const ndarray& B, const expm_multiply_options& options = {});

// spsolve_triangular(A, b, lower=True, overwrite_A, overwrite_b, unit_diagonal): cuSPARSE's SpSV
// on the GPU (one analysis, one solve per column of b). Only the named triangle is read; SciPy's
// LinAlgError "A is singular: zero entry on diagonal." for a zero diagonal entry (unless
// unit_diagonal); dtype promote_types(promote_types(A, float32), b). overwrite_* change nothing.
struct spsolve_triangular_options {
  bool lower = true;
  bool overwrite_A = false;
  bool overwrite_b = false;
  bool unit_diagonal = false;
};
ndarray spsolve_triangular(const csr& A, const ndarray& b, const spsolve_triangular_options& options = {});
inline ndarray spsolve_triangular(const csc& A, const ndarray& b, const spsolve_triangular_options& options = {}) {
  return spsolve_triangular(A.tocsr(), b, options);
}
inline ndarray spsolve_triangular(const coo& A, const ndarray& b, const spsolve_triangular_options& options = {}) {
  return spsolve_triangular(A.tocsr(), b, options);
}

}  // namespace cupp::sparse::linalg
