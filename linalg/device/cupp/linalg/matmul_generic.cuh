// The linalg module's device code (embedded by cmake/CuppModule.cmake as
// cupp/linalg/matmul_generic.cuh): batched matrix products of bool and integer dtypes with NumPy's
// semantics, for the dtypes cuBLAS has no exact path for. C[z] = A[z] @ B[z] for z < batch, any
// element strides (negative and zero too, so no operand is ever copied for this kernel).
//   integers: the sum of products modulo 2^bits, as NumPy's wrapping accumulation in the dtype
//     (accumulated in CUPP_LINALG_ACC, an unsigned type at least as wide, where wrapping is defined);
//   bool: OR over k of (a AND b), as NumPy's BOOL_matmul;
//   float, double: the tiniest float32 / float64 products (linalg/src/gemm.hpp's gemm_path),
//     accumulated in the type itself (CUPP_LINALG_ACC = CUPP_LINALG_T), k in order.
// The source defines CUPP_LINALG_T (the element type), CUPP_LINALG_ACC and, for bool,
// CUPP_LINALG_BOOL. One block of 256 threads computes a 16x16 tile of C; blocks loop over the
// tiles of every batch (a 1-D grid, as the runtime's launcher makes).
#pragma once

#ifndef CUPP_LINALG_T
#error "define CUPP_LINALG_T (the element type) before including cupp/linalg/matmul_generic.cuh"
#endif

#define CUPP_LINALG_TILE 16

extern "C" __global__ void cupp_linalg_matmul_generic(CUPP_LINALG_T* c, const CUPP_LINALG_T* a,
                                                      const CUPP_LINALG_T* b, long long n, long long m,
                                                      long long k, long long a_rs, long long a_cs, long long b_rs,
                                                      long long b_cs, long long c_rs, long long c_cs,
                                                      long long batch, long long a_bs, long long b_bs,
                                                      long long c_bs) {
  __shared__ CUPP_LINALG_T ta[CUPP_LINALG_TILE][CUPP_LINALG_TILE];
  __shared__ CUPP_LINALG_T tb[CUPP_LINALG_TILE][CUPP_LINALG_TILE + 1];
  const int tx = threadIdx.x % CUPP_LINALG_TILE;  // column within the tile
  const int ty = threadIdx.x / CUPP_LINALG_TILE;  // row within the tile
  const long long tiles_n = (n + CUPP_LINALG_TILE - 1) / CUPP_LINALG_TILE;
  const long long tiles_m = (m + CUPP_LINALG_TILE - 1) / CUPP_LINALG_TILE;
  const long long tiles = tiles_n * tiles_m * batch;
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long z = t / (tiles_n * tiles_m);
    const long long rest = t % (tiles_n * tiles_m);
    const long long row = (rest / tiles_m) * CUPP_LINALG_TILE + ty;
    const long long col = (rest % tiles_m) * CUPP_LINALG_TILE + tx;
    const CUPP_LINALG_T* az = a + z * a_bs;
    const CUPP_LINALG_T* bz = b + z * b_bs;
#ifdef CUPP_LINALG_BOOL
    bool acc = false;
#else
    CUPP_LINALG_ACC acc = 0;
#endif
    for (long long k0 = 0; k0 < k; k0 += CUPP_LINALG_TILE) {
      const long long ka = k0 + tx, kb = k0 + ty;
      ta[ty][tx] = (row < n && ka < k) ? az[row * a_rs + ka * a_cs] : static_cast<CUPP_LINALG_T>(0);
      tb[ty][tx] = (kb < k && col < m) ? bz[kb * b_rs + col * b_cs] : static_cast<CUPP_LINALG_T>(0);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < CUPP_LINALG_TILE; ++i) {
#ifdef CUPP_LINALG_BOOL
        acc = acc || (ta[ty][i] && tb[i][tx]);
#else
        acc += static_cast<CUPP_LINALG_ACC>(ta[ty][i]) * static_cast<CUPP_LINALG_ACC>(tb[i][tx]);
#endif
      }
      __syncthreads();
    }
    if (row < n && col < m) c[z * c_bs + row * c_rs + col * c_cs] = static_cast<CUPP_LINALG_T>(acc);
  }
}
