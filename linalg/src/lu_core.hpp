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
// against 0.681.
inline constexpr bool blocked_lu_by_default = true;
// inv's stacks take the blocked LU by default below this size only: at 100 x 256^2 and 20 x 512^2
// its inverses took 8.47 / 21.3 ms on the H100 (getrs against I applies the row swaps to n
// right-hand sides; the paths section's diagonally dominant inputs, which need none, gave 1.78 /
// 2.91 ms), against 6.56 / 9.99 ms on the former path (cuBLAS's batched LU + getriBatched at 256,
// Xgetrf on side streams at 512; the H200, session 20).
inline constexpr i64 blocked_lu_inv_max_n = 127;
// What a factorisation is for: inv_impl's stacks choose their LU path by the rule above.
enum class lu_use { factor, inverse };
// Its NVRTC program for dtype t (for the host compile test).
cupp::detail::routine_program lu_blocked_program(cupp::dtype t);
int lu_blocked_nb(cupp::dtype t);
// The path for `batch` (m, n) matrices (force_solver: not cuBLAS's batched LU).
lu_path choose_lu_path(i64 batch, i64 m, i64 n, bool force_solver, lu_use use = lu_use::factor);  // CuPy takes cuBLAS's batched LU at every size; on the H200 it beats Xgetrf per matrix up to 256 and ties at 512 (solve), where inv gains getriBatched

struct lu_factors {
  ndarray w;     // (..., n, m) C = the packed LU of each (m, n) matrix, column-major
  ndarray piv;   // (..., min(m, n)) 1-based pivots: int32 (blas) or int64 (cuSOLVER)
  ndarray info;  // (batch,) int32: > 0 where U has an exact zero on its diagonal
  i64 m = 0, n = 0;
  bool blas = false;
  bool lanes = false;  // Xgetrf per matrix on side streams (getrs follows)
  ndarray ptrs;        // blas: the device pointers to each matrix of w (getrfBatched's, reused by getrs)
};

// How inv finishes a stack on cuBLAS's batched LU (or the blocked one); CUPP_LINALG_INV picks:
//   getri: getriBatched, out of place (auto);
//   getrs: getrsBatched against the identity (PyTorch's form). It was the default from 128 on
//     inputs that need no row swaps (1.78 ms against getri's 5.75 at 100 x 256^2 on the H100); on
//     random inputs its interchanges over n right-hand sides cost more than getri's column swaps
//     (8.47 ms there, blocked_lu_inv_max_n);
//   permuted: P I built from the pivots in one kernel (permuted_identity), then getrsBatched with
//     unit pivots: getrs's triangular solves without its interchanges.
// A stack on Xgetrf (loop, streams) always takes getrs against the identity.
enum class inv_form { getri, getrs, permuted };
inv_form inv_form_choice();

bool lu_uses_batched(i64 batch, i64 m, i64 n);
lu_factors getrf(const ndarray& w, i64 m, i64 n, bool force_solver = false, lu_use use = lu_use::factor);
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
