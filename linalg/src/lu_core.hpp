// Internal to the linalg solvers: the LU core shared by solve, inv, det, slogdet, lu, lu_factor,
// lu_solve and cond (lu.cpp). getrf factors a column-major work array in place: cuBLAS's
// getrfBatched (int32 pivots) for stacks of square matrices up to batched_lu_max_n, else cuSOLVER's
// Xgetrf per matrix (int64 pivots); getrs solves with the same path. Nothing is read back.
#pragma once

#include <utility>
#include <vector>

#include "solver_common.hpp"

namespace cupp::linalg::detail {

inline constexpr i64 batched_lu_max_n = 512;  // CuPy takes cuBLAS's batched LU at every size; on the H200 it beats Xgetrf per matrix up to 256 and ties at 512 (solve), where inv gains getriBatched

struct lu_factors {
  ndarray w;     // (..., n, m) C = the packed LU of each (m, n) matrix, column-major
  ndarray piv;   // (..., min(m, n)) 1-based pivots: int32 (blas) or int64 (cuSOLVER)
  ndarray info;  // (batch,) int32: > 0 where U has an exact zero on its diagonal
  i64 m = 0, n = 0;
  bool blas = false;
};

bool lu_uses_batched(i64 batch, i64 m, i64 n);
lu_factors getrf(const ndarray& w, i64 m, i64 n, bool force_solver = false);
// Solves op(A) X = B in place for bw (..., nrhs, n) C = column-major (n, nrhs) right-hand sides.
void getrs(const lu_factors& f, const ndarray& bw, i64 nrhs, cublasOperation_t op);
std::vector<i64> broadcast_batch(const ndarray& a, const ndarray& b, int b_core);
ndarray solve_impl(const ndarray& a, const ndarray& b, bool raise_singular, const char* routine);
ndarray inv_impl(const ndarray& a, bool raise_singular);
std::pair<ndarray, ndarray> lu_diagonal_and_parity(const lu_factors& f, cupp::dtype t);

}  // namespace cupp::linalg::detail
