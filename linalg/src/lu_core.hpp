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
// to 256 and Xgetrf on side streams above): off until the H200 figures of
// cupp_bench_linalg_host_path's `blocked` section are in.
inline constexpr bool blocked_lu_by_default = false;
// Its NVRTC program for dtype t (for the host compile test).
cupp::detail::routine_program lu_blocked_program(cupp::dtype t);
int lu_blocked_nb(cupp::dtype t);
// The path for `batch` (m, n) matrices (force_solver: not cuBLAS's batched LU).
lu_path choose_lu_path(i64 batch, i64 m, i64 n, bool force_solver);  // CuPy takes cuBLAS's batched LU at every size; on the H200 it beats Xgetrf per matrix up to 256 and ties at 512 (solve), where inv gains getriBatched

struct lu_factors {
  ndarray w;     // (..., n, m) C = the packed LU of each (m, n) matrix, column-major
  ndarray piv;   // (..., min(m, n)) 1-based pivots: int32 (blas) or int64 (cuSOLVER)
  ndarray info;  // (batch,) int32: > 0 where U has an exact zero on its diagonal
  i64 m = 0, n = 0;
  bool blas = false;
  bool lanes = false;  // Xgetrf per matrix on side streams (getrs follows)
  ndarray ptrs;        // blas: the device pointers to each matrix of w (getrfBatched's, reused by getrs)
};

// inv of a stack on cuBLAS's batched LU: getriBatched, or getrsBatched against the identity
// (PyTorch's form); CUPP_LINALG_INV=getri|getrs overrides the choice by size.
inline constexpr i64 inv_getrs_min_n = 128;
bool inv_uses_getrs(i64 n);

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
