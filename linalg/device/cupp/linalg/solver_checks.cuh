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
// The source defines CUPP_LINALG_R (float or double) and, for complex dtypes, CUPP_LINALG_COMPLEX
// (each element a (re, im) pair of CUPP_LINALG_R). Grid-stride 1-D kernels; flag is zeroed by the
// caller; every writer stores the same 1.
#pragma once

#ifndef CUPP_LINALG_R
#error "define CUPP_LINALG_R (float or double) before including cupp/linalg/solver_checks.cuh"
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
