// cupp::linalg's decompositions and solvers (linalg part 2): numpy.linalg's solve, inv, det, slogdet,
// cholesky, eigh/eigvalsh, eig/eigvals, svd/svdvals, qr, lstsq, pinv, matrix_rank, norm,
// matrix_norm, vector_norm, cond, tensorsolve, tensorinv, and scipy.linalg's lu, lu_factor,
// lu_solve, cho_factor, cho_solve, solve_triangular, over cuSOLVER (64-bit cusolverDnX* for one
// matrix) and cuBLAS / cuSOLVER batched routines for stacks of small matrices.
//
//   auto x = cupp::linalg::solve(a, b);                        // a (..., n, n), b (..., n, k) or (n,)
//   auto [U, S, Vh] = cupp::linalg::svd(a, {.full_matrices = false});
//   auto [w, v] = cupp::linalg::eigh(a);                       // ascending eigenvalues, UPLO='L'
//   auto [Q, R] = cupp::linalg::qr(a);                         // mode "reduced"
//   auto [sign, logabsdet] = cupp::linalg::slogdet(a);
//
// Every routine takes stacks of matrices in the last two axes (batched over the leading ones).
// dtypes as NumPy's linalg: float32, float64, complex64, complex128 computed in their precision;
// bool, the integers (and bfloat16, which NumPy reads as a non-float) in float64; float16 is
// NumPy's TypeError "array type float16 is unsupported in linalg". Errors as NumPy 2.5:
// LinAlgError("Singular matrix") from solve/inv, "Matrix is not positive definite" from cholesky,
// "SVD did not converge" / "Eigenvalues did not converge" for NaN input to svd / eigh / eig (the
// one info read per call); inv and solve of NaN give NaN; "%d-dimensional array given. Array must
// be at least two-dimensional", "Last 2 dimensions of the array must be square" for shapes.
// Nothing synchronises the device except the routines that must read cuSOLVER's info array.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"

namespace cupp::linalg {

// ---- results with NumPy's field names (usable with structured bindings)
struct SVDResult {
  ndarray U, S, Vh;  // compute_uv=false: only S (U and Vh null)
};
struct EighResult {
  ndarray eigenvalues, eigenvectors;
};
struct EigResult {
  ndarray eigenvalues, eigenvectors;  // complex, as NumPy 2.5
};
struct QRResult {
  ndarray Q, R;  // mode "r": Q null; mode "raw": Q is h (..., n, m) and R is tau (..., k), NumPy's tuple
};
struct SlogdetResult {
  ndarray sign, logabsdet;
};
struct lstsq_result {
  ndarray x, residuals, rank, s;  // rank: a 0-d int32 array (NumPy's)
};
// scipy.linalg's tuples
struct lu_result {
  ndarray P, L, U;  // permute_l=true: P null and L is P @ L
};
struct lu_factor_result {
  ndarray lu, piv;  // piv: 0-based int32 row interchanges, as LAPACK's getrf (SciPy's)
};
struct cho_factor_result {
  ndarray c;
  bool lower = false;
};

// ---- solving and inverting
// numpy.linalg.solve(a, b): a (..., M, M); b (M,) (NumPy 2: only a 1-D b is a vector) or
// (..., M, K), batch dimensions broadcast. LU with partial pivoting.
ndarray solve(const ndarray& a, const ndarray& b);
// numpy.linalg.inv.
ndarray inv(const ndarray& a);
// numpy.linalg.det and slogdet (singular: 0, and sign 0 with logabsdet -inf; no error).
ndarray det(const ndarray& a);
SlogdetResult slogdet(const ndarray& a);
// numpy.linalg.tensorsolve / tensorinv.
// axes: a's axes moved to the end before the solve (None or empty: none moved).
ndarray tensorsolve(const ndarray& a, const ndarray& b, std::optional<std::vector<int>> axes = std::nullopt);
ndarray tensorinv(const ndarray& a, std::int64_t ind = 2);

// ---- Cholesky
struct cholesky_options {
  bool upper = false;  // NumPy 2.0's upper=: return U with a = U^H U (reads the upper triangle)
};
ndarray cholesky(const ndarray& a, const cholesky_options& options = {});

// ---- Hermitian eigenproblems
struct eigh_options {
  std::string_view UPLO = "L";  // the triangle read: "L" or "U" (ValueError otherwise)
};
EighResult eigh(const ndarray& a, const eigh_options& options = {});
ndarray eigvalsh(const ndarray& a, const eigh_options& options = {});
// ---- general eigenproblems (cuSOLVER's Xgeev; eigenvalues and right eigenvectors complex)
EigResult eig(const ndarray& a);
ndarray eigvals(const ndarray& a);

// ---- singular values
struct svd_options {
  bool full_matrices = true;
  bool compute_uv = true;
  bool hermitian = false;  // a Hermitian: through eigh (|eigenvalues| sorted descending)
};
SVDResult svd(const ndarray& a, const svd_options& options = {});
ndarray svdvals(const ndarray& x);  // numpy.linalg.svdvals (NumPy 2.0)

// ---- QR
struct qr_options {
  std::string_view mode = "reduced";  // "reduced", "complete", "r", "raw"
};
QRResult qr(const ndarray& a, const qr_options& options = {});

// ---- least squares, pseudo-inverse, rank
struct lstsq_options {
  std::optional<double> rcond{};  // default: eps * max(M, N) (NumPy 2's rcond=None)
};
lstsq_result lstsq(const ndarray& a, const ndarray& b, const lstsq_options& options = {});
struct pinv_options {
  std::optional<double> rcond{};  // default 1e-15 when rtol is not given either
  bool hermitian = false;
  std::optional<double> rtol{};   // the Array API's: rcond; both given is a ValueError
};
ndarray pinv(const ndarray& a, const pinv_options& options = {});
struct matrix_rank_options {
  std::optional<double> tol{};
  bool hermitian = false;
  std::optional<double> rtol{};
};
ndarray matrix_rank(const ndarray& A, const matrix_rank_options& options = {});

// ---- norms and condition numbers
// ord= of norm/matrix_norm/vector_norm/cond: a number (inf, -inf, 0, 1, -1, 2, -2, p) or "fro" / "nuc".
struct norm_ord {
  std::variant<double, std::string> value;
  norm_ord(double v) : value(v) {}                                // NOLINT: {.ord = 2}
  norm_ord(int v) : value(static_cast<double>(v)) {}             // NOLINT
  norm_ord(const char* name) : value(std::string(name)) {}      // NOLINT: {.ord = "fro"}
  norm_ord(std::string_view name) : value(std::string(name)) {}  // NOLINT
  norm_ord(const std::string& name) : value(name) {}             // NOLINT
  bool is_name() const noexcept { return value.index() == 1; }
};
struct norm_options {
  std::optional<norm_ord> ord{};             // None: Frobenius / 2-norm
  std::optional<std::vector<int>> axis{};    // None, one axis (vector norm) or two (matrix norm)
  bool keepdims = false;
};
ndarray norm(const ndarray& x, const norm_options& options = {});
struct matrix_norm_options {
  bool keepdims = false;
  norm_ord ord = "fro";
};
ndarray matrix_norm(const ndarray& x, const matrix_norm_options& options = {});
struct vector_norm_options {
  std::optional<std::vector<int>> axis{};  // None: every axis (flattened)
  bool keepdims = false;
  norm_ord ord = 2;
};
ndarray vector_norm(const ndarray& x, const vector_norm_options& options = {});
ndarray cond(const ndarray& x, std::optional<norm_ord> p = std::nullopt);

}  // namespace cupp::linalg

namespace cupp {
// `cupp ops`'s table of these routines (specs/routines/linalg_solvers.yaml; generated).
std::span<const routine_info> linalg_solver_routines() noexcept;
}  // namespace cupp

// scipy.linalg's LU and Cholesky factorisations and triangular solves, in cupp::linalg.
namespace cupp::linalg {

struct lu_options {
  bool permute_l = false;  // return (P @ L, U)
  bool p_indices = false;  // P as the row indices (int32, shape (..., M)) instead of a matrix
};
// scipy.linalg.lu: a = P @ L @ U for any (..., M, N); L (M, K) unit lower, U (K, N), K = min(M, N).
lu_result lu(const ndarray& a, const lu_options& options = {});
// scipy.linalg.lu_factor: the packed LU of square matrices and the 0-based pivots.
lu_factor_result lu_factor(const ndarray& a);
struct lu_solve_options {
  int trans = 0;  // 0: a x = b, 1: a^T x = b, 2: a^H x = b
};
ndarray lu_solve(const lu_factor_result& lu_and_piv, const ndarray& b, const lu_solve_options& options = {});
struct cho_factor_options {
  bool lower = false;
};
// scipy.linalg.cho_factor: c holds the factor in the chosen triangle (the other holds a's values).
cho_factor_result cho_factor(const ndarray& a, const cho_factor_options& options = {});
ndarray cho_solve(const cho_factor_result& c_and_lower, const ndarray& b);
struct solve_triangular_options {
  int trans = 0;  // 0 N, 1 T, 2 C
  bool lower = false;
  bool unit_diagonal = false;
};
ndarray solve_triangular(const ndarray& a, const ndarray& b, const solve_triangular_options& options = {});

}  // namespace cupp::linalg
