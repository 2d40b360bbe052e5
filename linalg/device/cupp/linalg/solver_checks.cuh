// The linalg module's device code (embedded by cmake/CuppModule.cmake as
// cupp/linalg/solver_checks.cuh): the one-launch checks the solvers read back once per call.
//   cupp_linalg_lu_suspect: over a stack of packed LU factors w (batch matrices of n x n, any
//     element layout with the diagonal at stride n + 1), flag[0] = 1 when some U(i, i) is zero or
//     not finite, or some info[b] != 0 (cuSOLVER's zero / NaN pivot). A matrix without NaN and with
//     a nonzero finite pivot everywhere needs nothing more; a flagged stack takes the exact path
//     on the host side (NumPy's NaN and singular rules).
//   cupp_linalg_info_any: flag[0] = 1 when some info[b] != 0.
//   cupp_linalg_any_nan: flag[0] = 1 when one of `count` contiguous reals (a complex array's
//     parts) is NaN (solve's and inv's input, scanned before the factorisation: the LUs of cuBLAS
//     and cuSOLVER need not carry a NaN to a pivot).
//   cupp_linalg_nan_scrub: as cupp_linalg_any_nan, and each NaN real is set to 0 in place (solve's
//     and inv's work copy: the factorisation then never sees a NaN, whose handling differs between
//     cuBLAS's and cuSOLVER's LUs; the flagged matrices' results are set to NaN afterwards).
//   cupp_linalg_transpose_copy: the column-major work copy of a C-contiguous stack (batch, rows,
//     cols): dst[b][c][r] = src[b][r][c], through 32 x 32 shared-memory tiles (coalesced reads and
//     writes; one block per tile, 256 threads); with a flag, each NaN real becomes 0 and sets it.
//   cupp_linalg_copy_scrub: dst = src over `count` contiguous reals, each NaN written as 0 and
//     flagged (solve's and inv's C-ordered work copy and its NaN scan in one pass).
//   cupp_linalg_zero_triangle: in each n x n matrix of a C-contiguous stack, the elements below
//     (lower != 0) or above the diagonal of the C-ordered view set to 0 (cholesky's factor cut out
//     of its work copy in place).
//   cupp_linalg_permuted_identity: for each n x n matrix b of a stack (n <= CUPP_LINALG_PERM_MAX),
//     x[b] (column-major) = P I, the identity with LAPACK's row interchanges piv[b] (1-based,
//     applied in order) done on it, and unit_piv[b] = 1 .. n: getrs on x with the unit pivots then
//     gives the inverse without interchanging rows across n right-hand sides (inv's `permuted`
//     form). One block per matrix, blocks looping over the stack; the interchanges are composed
//     by one thread in shared memory, then the block writes the matrix.
// The source defines CUPP_LINALG_R (float or double) and, for complex dtypes, CUPP_LINALG_COMPLEX
// (each element a (re, im) pair of CUPP_LINALG_R). Grid-stride 1-D kernels; flag is zeroed by the
// caller; every writer stores the same 1.
#pragma once

#ifndef CUPP_LINALG_R
#error "define CUPP_LINALG_R (float or double) before including cupp/linalg/solver_checks.cuh"
#endif

#ifdef CUPP_LINALG_COMPLEX
struct cupp_linalg_elem {
  CUPP_LINALG_R re, im;
};
__device__ inline bool cupp_linalg_scrub_elem(cupp_linalg_elem& v) {
  bool bad = false;
  if (v.re != v.re) {
    v.re = 0;
    bad = true;
  }
  if (v.im != v.im) {
    v.im = 0;
    bad = true;
  }
  return bad;
}
__device__ inline cupp_linalg_elem cupp_linalg_zero_elem() { return {0, 0}; }
__device__ inline cupp_linalg_elem cupp_linalg_one_elem() { return {1, 0}; }
#else
typedef CUPP_LINALG_R cupp_linalg_elem;
__device__ inline bool cupp_linalg_scrub_elem(cupp_linalg_elem& v) {
  if (v != v) {
    v = 0;
    return true;
  }
  return false;
}
__device__ inline cupp_linalg_elem cupp_linalg_zero_elem() { return 0; }
__device__ inline cupp_linalg_elem cupp_linalg_one_elem() { return 1; }
#endif

extern "C" __global__ void cupp_linalg_lu_suspect(const CUPP_LINALG_R* w, const int* info, long long batch,
                                                  long long n, int* flag) {
  const long long total = batch * n;
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long b = t / n, i = t % n;
    const long long at = b * n * n + i * (n + 1);
#ifdef CUPP_LINALG_COMPLEX
    const CUPP_LINALG_R re = w[2 * at], im = w[2 * at + 1];
    const bool bad = (re == 0 && im == 0) || !isfinite(re) || !isfinite(im);
#else
    const CUPP_LINALG_R d = w[at];
    const bool bad = d == 0 || !isfinite(d);
#endif
    if (bad || (i == 0 && info[b] != 0)) *flag = 1;
  }
}

extern "C" __global__ void cupp_linalg_info_any(const int* info, long long batch, int* flag) {
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < batch;
       t += static_cast<long long>(gridDim.x) * blockDim.x)
    if (info[t] != 0) *flag = 1;
}

extern "C" __global__ void cupp_linalg_any_nan(const CUPP_LINALG_R* x, long long count, int* flag) {
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<long long>(gridDim.x) * blockDim.x)
    if (x[t] != x[t]) *flag = 1;
}

extern "C" __global__ void cupp_linalg_nan_scrub(CUPP_LINALG_R* x, long long count, int* flag) {
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<long long>(gridDim.x) * blockDim.x)
    if (x[t] != x[t]) {
      x[t] = 0;
      *flag = 1;
    }
}

// blockDim.x == 256: lane tx = threadIdx.x % 32 walks a tile's row (reads) or column (writes),
// ty = threadIdx.x / 32 its rows 8 apart. Blocks loop over the tiles of the whole stack.
extern "C" __global__ void cupp_linalg_transpose_copy(const cupp_linalg_elem* src, cupp_linalg_elem* dst, long long batch,
                                                      long long rows, long long cols, int* flag) {
  __shared__ cupp_linalg_elem tile[32][33];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const long long row_tiles = (rows + 31) / 32, col_tiles = (cols + 31) / 32, per = row_tiles * col_tiles;
  const long long tiles = per * batch;
  bool bad = false;
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long b = t / per, rem = t % per, r0 = (rem / col_tiles) * 32, c0 = (rem % col_tiles) * 32;
    const cupp_linalg_elem* s = src + b * rows * cols;
    cupp_linalg_elem* d = dst + b * rows * cols;
    for (int j = ty; j < 32; j += 8) {
      const long long r = r0 + j, c = c0 + tx;
      if (r < rows && c < cols) {
        cupp_linalg_elem v = s[r * cols + c];
        if (flag && cupp_linalg_scrub_elem(v)) bad = true;
        tile[j][tx] = v;
      }
    }
    __syncthreads();
    for (int j = ty; j < 32; j += 8) {
      const long long c = c0 + j, r = r0 + tx;
      if (r < rows && c < cols) d[c * rows + r] = tile[tx][j];
    }
    __syncthreads();
  }
  if (bad) *flag = 1;
}

extern "C" __global__ void cupp_linalg_copy_scrub(const CUPP_LINALG_R* src, CUPP_LINALG_R* dst, long long count,
                                                  int* flag) {
  bool bad = false;
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < count;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const CUPP_LINALG_R v = src[t];
    if (v != v) {
      dst[t] = 0;
      bad = true;
    } else {
      dst[t] = v;
    }
  }
  if (bad) *flag = 1;
}

extern "C" __global__ void cupp_linalg_zero_triangle(cupp_linalg_elem* w, long long batch, long long n, int lower) {
  const long long total = batch * n * n;
  for (long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long e = t % (n * n), i = e / n, j = e % n;
    if (lower ? i > j : i < j) w[t] = cupp_linalg_zero_elem();
  }
}

#define CUPP_LINALG_PERM_MAX 512
extern "C" __global__ void cupp_linalg_permuted_identity(const int* piv, cupp_linalg_elem* x, int* unit_piv,
                                                         long long batch, long long n) {
  __shared__ int perm[CUPP_LINALG_PERM_MAX];
  __shared__ int swaps[CUPP_LINALG_PERM_MAX];
  const int m = static_cast<int>(n);
  for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
    for (int i = threadIdx.x; i < m; i += blockDim.x) {
      perm[i] = i;
      swaps[i] = piv[b * n + i] - 1;
      unit_piv[b * n + i] = i + 1;
    }
    __syncthreads();
    if (threadIdx.x == 0)
      for (int i = 0; i < m; ++i) {
        const int p = swaps[i];
        if (p > i && p < m) {  // a valid pivot is in i .. n-1; p == i swaps nothing
          const int t = perm[i];
          perm[i] = perm[p];
          perm[p] = t;
        }
      }
    __syncthreads();
    // row r of P I is the identity's row perm[r]: x(r, c) = 1 where c == perm[r]
    cupp_linalg_elem* xb = x + b * n * n;
    for (int e = threadIdx.x; e < m * m; e += blockDim.x) {
      const int r = e % m, c = e / m;
      xb[e] = c == perm[r] ? cupp_linalg_one_elem() : cupp_linalg_zero_elem();
    }
    __syncthreads();  // perm is rewritten for the block's next matrix
  }
}
