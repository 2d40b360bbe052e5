// Internal to the linalg solvers: the LU core shared by solve, inv, det, slogdet, lu, lu_factor,
// lu_solve and cond (lu.cpp). getrf factors a column-major work array in place: cuBLAS's
// getrfBatched (int32 pivots) for stacks of square matrices up to batched_lu_max_n, else cuSOLVER's
// Xgetrf per matrix (int64 pivots), on side streams for stacks of larger matrices (lu_path; the
// environment's CUPP_LINALG_LU overrides the choice); getrs solves with the same path. Nothing is
// read back. solve, inv, det and slogdet factor a C-ordered copy of a, which is column-major a^T
// (no transposed copy): det(a^T) = det(a), and a x = b is solved as (a^T)^T x = b.
#pragma once

#include <utility>
#include <vector>

#include "solver_common.hpp"

namespace cupp::linalg::detail {

inline constexpr i64 batched_lu_max_n = 512;
// Above this size a stack goes to Xgetrf per matrix on side streams (measured on the H200: at
// 256, cuBLAS's batched LU beat Xgetrf matrix after matrix 20x; at 512 they tied, 22 ms for 20
// matrices, against PyTorch's 4.4 ms).
inline constexpr i64 lu_streams_min_n = 257;

enum class lu_path { batched, loop, streams, blocked };
// cupp's blocked batched LU (lu_blocked.cuh; CUPP_LINALG_LU=blocked): stacks of square matrices
// up to this size.
inline constexpr i64 blocked_lu_max_n = 512;
// Whether `auto` takes the blocked LU for the stacks it serves (instead of cuBLAS's batched LU up
// to 256 and Xgetrf on side streams above). On the H100 (bench/, CUPP_LINALG_LU=blocked, CuPy and
// PyTorch in the same run) solve took 0.481 / 1.637 / 3.481 ms at 1000 x 64^2 / 100 x 256^2 /
// 20 x 512^2 float64 against the best peer's 0.512 / 2.427 / 4.295, inv 0.648 ms at 1000 x 64^2
// against 0.681 (getri); inv's larger stacks take it too since its permuted form (inv_form).
inline constexpr bool blocked_lu_by_default = true;
// Its NVRTC program for dtype t (for the host compile test).
cupp::detail::routine_program lu_blocked_program(cupp::dtype t);
int lu_blocked_nb(cupp::dtype t);
// The path for `batch` (m, n) matrices (force_solver: not cuBLAS's batched LU).
lu_path choose_lu_path(i64 batch, i64 m, i64 n, bool force_solver);  // CuPy takes cuBLAS's batched LU at every size; on the H200 it beats Xgetrf per matrix up to 256 and ties at 512 (solve)

struct lu_factors {
  ndarray w;     // (..., n, m) C = the packed LU of each (m, n) matrix, column-major
  ndarray piv;   // (..., min(m, n)) 1-based pivots: int32 (blas) or int64 (cuSOLVER)
  ndarray info;  // (batch,) int32: > 0 where U has an exact zero on its diagonal
  i64 m = 0, n = 0;
  bool blas = false;
  bool lanes = false;  // Xgetrf per matrix on side streams (getrs follows)
  ndarray ptrs;        // blas: the device pointers to each matrix of w (getrfBatched's, reused by getrs)
};

// How inv finishes a stack whose LU has int32 pivots (the blocked LU, or cuBLAS's batched LU);
// CUPP_LINALG_INV picks, auto by the size (inv_permuted_min_n):
//   getri: getriBatched, out of place;
//   getrs: getrsBatched against the identity (PyTorch's form); its row interchanges over n
//     right-hand sides cost more than getri's column swaps on inputs that need pivoting (8.47 ms
//     at 100 x 256^2 on the H100, against getri's 6.56);
//   permuted: P I built from the pivots in one kernel (permuted_identity, n <= 512), then
//     getrsBatched with unit pivots: getrs's triangular solves without its interchanges.
// A stack on Xgetrf (loop, streams) always takes getrs against the identity.
enum class inv_form { getri, getrs, permuted };
// auto: permuted from this size to permuted_identity_max_n, getri elsewhere. On the H100 (bench/,
// blocked LU, random inputs, CuPy and PyTorch in the same run, session 23) permuted took 2.047 /
// 3.696 ms at 100 x 256^2 / 20 x 512^2 float64 against PyTorch's 3.273 / 4.777 (getri: 6.56 /
// 9.99), and 0.712 ms at 1000 x 64^2 against getri's 0.648 (session 21) and CuPy's 0.685.
inline constexpr i64 inv_permuted_min_n = 128;
inv_form inv_form_choice(i64 n);

bool lu_uses_batched(i64 batch, i64 m, i64 n);
lu_factors getrf(const ndarray& w, i64 m, i64 n, bool force_solver = false);
// Solves op(A) X = B in place for bw (..., nrhs, n) C = column-major (n, nrhs) right-hand sides.
void getrs(const lu_factors& f, const ndarray& bw, i64 nrhs, cublasOperation_t op);
std::vector<i64> broadcast_batch(const ndarray& a, const ndarray& b, int b_core);
ndarray solve_impl(const ndarray& a, const ndarray& b, bool raise_singular, const char* routine);
// A C-ordered copy of a in dtype t: column-major a^T, the work array solve/inv/det factor.
ndarray rowmajor_copy(const ndarray& a, cupp::dtype t);
// solve's work array for `batch` n x n matrices: the C-ordered copy (a^T column-major; getrs with
// the transpose flag), or a column-major copy (PyTorch's form; getrs without it) for one matrix
// of solve_colmajor_min_n and more (on the H200 at 4096^2 the C-ordered form took 15.1 ms against
// PyTorch's 14.5); CUPP_LINALG_SOLVE=rowmajor|colmajor overrides the choice.
inline constexpr i64 solve_colmajor_min_n = 512;
bool solve_colmajor(i64 batch, i64 n);
ndarray inv_impl(const ndarray& a, bool raise_singular);
std::pair<ndarray, ndarray> lu_diagonal_and_parity(const lu_factors& f, cupp::dtype t);

}  // namespace cupp::linalg::detail
