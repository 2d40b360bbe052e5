// The statistics routines' kernels (runtime/src/routines/statistics/statistics.cpp): cov's matrix
// product, one program per dtype. The including source defines, after <cupp/dev/prelude.cuh>:
//   T                    the element's device type
//   CUPP_COV_CATEGORY    0 half (float16/bfloat16: sums in float), 1 real (float32/float64),
//                        2 complex (complex64/complex128)
#pragma once

#if CUPP_COV_CATEGORY == 0
using A = float;
#else
using A = T;
#endif
__device__ inline A cupp_load(T x) {
#if CUPP_COV_CATEGORY == 0
  return cupp::dev::to_float(x);
#else
  return x;
#endif
}
__device__ inline T cupp_store(A x) {
#if CUPP_COV_CATEGORY == 0
  return cupp::dev::from_float<T>(x);
#else
  return x;
#endif
}
__device__ inline A cupp_conj(A x) {
#if CUPP_COV_CATEGORY == 2
  return A(x.re, -x.im);
#else
  return x;
#endif
}

#define CUPP_BLOCK 256
// c (C-contiguous n x m) [i, j] = sum over k < kdim of a[i, k] * conj(b[j, k]), element strides.
// One block per result element (grid-stride over them); each thread sums a strided share of k,
// then a fixed tree adds the shares: the same order on every run.
extern "C" __global__ void cupp_cov_dot(T* c, const T* a, const T* b, long long n, long long m, long long kdim,
                                        long long sa0, long long sa1, long long sb0, long long sb1) {
  __shared__ A part[CUPP_BLOCK];
  for (long long e = blockIdx.x; e < n * m; e += gridDim.x) {
    const long long i = e / m, j = e - i * m;
    A acc = A(0);
    for (long long k = threadIdx.x; k < kdim; k += CUPP_BLOCK)
      acc = acc + cupp_load(a[i * sa0 + k * sa1]) * cupp_conj(cupp_load(b[j * sb0 + k * sb1]));
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = CUPP_BLOCK / 2; s > 0; s >>= 1) {
      if ((int)threadIdx.x < s) part[threadIdx.x] = part[threadIdx.x] + part[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) c[e] = cupp_store(part[0]);
    __syncthreads();
  }
}
