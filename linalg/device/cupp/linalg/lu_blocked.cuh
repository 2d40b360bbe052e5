// The linalg module's blocked batched LU (embedded as cupp/linalg/lu_blocked.cuh; lu.cpp's
// CUPP_LINALG_LU=blocked path): LAPACK's right-looking getrf with partial pivoting for a stack of
// square column-major n x n matrices (n <= 512), one panel of CUPP_LINALG_NB columns at a time.
//   cupp_linalg_lu_panel: one thread block per matrix, one thread per row of the panel (its NB
//     values in registers). For each panel column: the pivot (LAPACK's i?amax: the first largest
//     |x|, |re| + |im| for complex) by a block reduction, the two rows exchanged, the column
//     below scaled by the pivot and the rest of the panel updated (no pivot of exactly 0: LAPACK's
//     getf2 leaves that column and reports info). Then the panel's interchanges are applied to
//     the other columns (LAPACK's laswp), and U12 = L11^-1 A12 solved (unit lower L11 from
//     shared memory, a thread per column). Pivots are 1-based int32 as LAPACK's and cuBLAS's
//     (getrsBatched / getriBatched take them); info[b] = the first zero pivot (1-based), set once
//     (the caller zeroes it).
// The trailing update A22 -= L21 U12 is a strided batched GEMM between the panels (lu.cpp).
// The source defines CUPP_LINALG_R (float or double), CUPP_LINALG_NB (the panel width) and, for
// complex dtypes, CUPP_LINALG_COMPLEX.
#pragma once

#ifndef CUPP_LINALG_R
#error "define CUPP_LINALG_R (float or double) before including cupp/linalg/lu_blocked.cuh"
#endif
#ifndef CUPP_LINALG_NB
#error "define CUPP_LINALG_NB (the panel width) before including cupp/linalg/lu_blocked.cuh"
#endif

#ifdef CUPP_LINALG_COMPLEX
struct cupp_lu_elem {
  CUPP_LINALG_R re, im;
};
__device__ inline cupp_lu_elem cupp_lu_zero() { return {0, 0}; }
__device__ inline bool cupp_lu_is_zero(cupp_lu_elem a) { return a.re == 0 && a.im == 0; }
__device__ inline CUPP_LINALG_R cupp_lu_abs1(cupp_lu_elem a) { return fabs(a.re) + fabs(a.im); }
__device__ inline cupp_lu_elem cupp_lu_fms(cupp_lu_elem c, cupp_lu_elem a, cupp_lu_elem b) {  // c - a b
  return {c.re - (a.re * b.re - a.im * b.im), c.im - (a.re * b.im + a.im * b.re)};
}
__device__ inline cupp_lu_elem cupp_lu_div(cupp_lu_elem a, cupp_lu_elem b) {
  // Smith's division (no overflow for large |b|)
  if (fabs(b.re) >= fabs(b.im)) {
    const CUPP_LINALG_R r = b.im / b.re, d = b.re + b.im * r;
    return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  const CUPP_LINALG_R r = b.re / b.im, d = b.im + b.re * r;
  return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
#else
typedef CUPP_LINALG_R cupp_lu_elem;
__device__ inline cupp_lu_elem cupp_lu_zero() { return 0; }
__device__ inline bool cupp_lu_is_zero(cupp_lu_elem a) { return a == 0; }
__device__ inline CUPP_LINALG_R cupp_lu_abs1(cupp_lu_elem a) { return fabs(a); }
__device__ inline cupp_lu_elem cupp_lu_fms(cupp_lu_elem c, cupp_lu_elem a, cupp_lu_elem b) { return c - a * b; }
__device__ inline cupp_lu_elem cupp_lu_div(cupp_lu_elem a, cupp_lu_elem b) { return a / b; }
#endif

// The warp's largest v and, among equal ones, the smallest idx, in lane 0 (the pivot search's
// reduction, once over a warp's rows and once over the warps' winners).
__device__ inline void cupp_lu_warp_argmax(CUPP_LINALG_R& v, int& idx) {
  for (int off = 16; off > 0; off >>= 1) {
    const CUPP_LINALG_R ov = __shfl_down_sync(0xffffffffu, v, off);
    const int oi = __shfl_down_sync(0xffffffffu, idx, off);
    if (ov > v || (ov == v && oi < idx)) {
      v = ov;
      idx = oi;
    }
  }
}

// blockDim.x: a multiple of 32, at least n - k0 and at most 512. Blocks loop over the stack.
extern "C" __global__ void __launch_bounds__(512)
    cupp_linalg_lu_panel(cupp_lu_elem* a_all, int* piv_all, int* info_all, long long batch, long long n, long long k0) {
  constexpr int NB = CUPP_LINALG_NB;
  __shared__ cupp_lu_elem prow[NB], jrow[NB];
  __shared__ cupp_lu_elem l11[NB][NB + 1];
  __shared__ CUPP_LINALG_R wval[32];
  __shared__ int widx[32];
  __shared__ int spiv[NB];
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, nwarps = (blockDim.x + 31) / 32;
  const long long h = n - k0;
  const int nb = h < NB ? static_cast<int>(h) : NB;
  const bool mine = tid < h;
  const long long r = k0 + tid;
  for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
    cupp_lu_elem* a = a_all + b * n * n;
    cupp_lu_elem row[NB];
#pragma unroll
    for (int j = 0; j < NB; ++j) row[j] = mine && j < nb ? a[r + (k0 + j) * n] : cupp_lu_zero();
    int first_zero = 0;  // thread 0: the panel's first zero pivot (1-based, whole matrix)
    // (j is a run-time index: row[] is read and written only at unrolled, constant indices, with
    // selects, so that it stays in registers)
#pragma unroll 1
    for (int j = 0; j < nb; ++j) {
      cupp_lu_elem xj = cupp_lu_zero();
#pragma unroll
      for (int jj = 0; jj < NB; ++jj)
        if (jj == j) xj = row[jj];
      // the pivot: the first largest |x| among rows j.. of the panel (inactive threads: -1)
      CUPP_LINALG_R v = mine && tid >= j ? cupp_lu_abs1(xj) : CUPP_LINALG_R(-1);
      int idx = tid;
      cupp_lu_warp_argmax(v, idx);
      if (lane == 0) {
        wval[warp] = v;
        widx[warp] = idx;
      }
      __syncthreads();
      if (warp == 0) {
        v = lane < nwarps ? wval[lane] : CUPP_LINALG_R(-1);
        idx = lane < nwarps ? widx[lane] : 0x7fffffff;
        cupp_lu_warp_argmax(v, idx);
        if (lane == 0) spiv[j] = idx;
      }
      __syncthreads();
      const int p = spiv[j];
      if (tid == p) {
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) prow[jj] = row[jj];
      }
      if (tid == j) {
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) jrow[jj] = row[jj];
      }
      __syncthreads();
      if (tid == j) {
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) row[jj] = prow[jj];
      } else if (tid == p) {
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) row[jj] = jrow[jj];
        xj = jrow[j];
      }
      const cupp_lu_elem d = prow[j];
      const bool zero = cupp_lu_is_zero(d);
      if (tid == 0 && zero && first_zero == 0) first_zero = static_cast<int>(k0 + j + 1);
      if (mine && tid > j && !zero) {
        const cupp_lu_elem l = cupp_lu_div(xj, d);
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) {
          if (jj == j) row[jj] = l;
          if (jj > j) row[jj] = cupp_lu_fms(row[jj], l, prow[jj]);
        }
      }
      // (no barrier here: the next column writes prow and jrow only after its two reduction
      // barriers, which every thread reaches after this elimination)
    }
    // the panel back, L11 (unit lower) to shared memory, the pivots (1-based, whole matrix)
    if (mine) {
#pragma unroll
      for (int j = 0; j < NB; ++j)
        if (j < nb) a[r + (k0 + j) * n] = row[j];
    }
    if (tid < nb) {
#pragma unroll
      for (int j = 0; j < NB; ++j) l11[tid][j] = row[j];
      piv_all[b * n + k0 + tid] = static_cast<int>(k0 + spiv[tid] + 1);
    }
    if (tid == 0 && first_zero != 0 && info_all[b] == 0) info_all[b] = first_zero;
    __syncthreads();
    // the interchanges on the other columns, in order (a thread per column)
    for (long long c = tid; c < n - nb; c += blockDim.x) {
      const long long col = c < k0 ? c : c + nb;
      cupp_lu_elem* x = a + col * n;
      for (int j = 0; j < nb; ++j) {
        const long long q = k0 + spiv[j];
        if (q != k0 + j) {
          const cupp_lu_elem t = x[k0 + j];
          x[k0 + j] = x[q];
          x[q] = t;
        }
      }
    }
    __syncthreads();  // the interchanges of A12's columns (other threads') before its solve
    // U12 = L11^-1 A12: column-oriented forward substitution (q a run-time index, v[] read and
    // written at constant indices only)
    for (long long col = k0 + nb + tid; col < n; col += blockDim.x) {
      cupp_lu_elem* x = a + col * n + k0;
      cupp_lu_elem v[NB];
#pragma unroll
      for (int i = 0; i < NB; ++i) v[i] = i < nb ? x[i] : cupp_lu_zero();
#pragma unroll 1
      for (int q = 0; q + 1 < nb; ++q) {
        cupp_lu_elem xq = cupp_lu_zero();
#pragma unroll
        for (int i = 0; i < NB; ++i)
          if (i == q) xq = v[i];
#pragma unroll
        for (int i = 0; i < NB; ++i)
          if (i > q) v[i] = cupp_lu_fms(v[i], l11[i][q], xq);
      }
#pragma unroll
      for (int i = 0; i < NB; ++i)
        if (i < nb) x[i] = v[i];
    }
    __syncthreads();  // shared state is reused by the next matrix
  }
}
