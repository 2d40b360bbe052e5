// The linalg module's batched SVD kernel (embedded as cupp/linalg/jacobi_svd.cuh): a one-sided
// (Hestenes) Jacobi SVD of a stack of small matrices, one thread block per matrix, the matrix and
// its right factor held in shared memory. cuSOLVER's gesvdjBatched stops at 32x32; this kernel
// serves the stacks above that whose working set fits a block's shared memory (svd.cpp decides).
//
// Each block factors a working matrix W (M x N, M >= N, column-major) that the host made from
// a[b]: a itself when it is tall, a^H when it is wide (conj_in: conjugate while loading). W and V
// live in shared memory, or, for matrices too large for it (gW non-null), in global memory: W in
// place in the input (gW == in), V in gV (batch x N x N); the columns a warp touches are then
// coalesced reads and writes that stay in L2 for the next round. Sweeps
// of the round-robin (circle) ordering rotate every pair of columns (p, q) with
// |w_p^H w_q| > tol ||w_p|| ||w_q|| until a whole sweep rotates none, accumulating the rotations in
// V (N x N). Then sigma_j = ||w_j||, sorted descending; P = [w_j / sigma_j] (M x pcols, the columns
// of zero sigma and, for full matrices, columns N..M-1 completed to an orthonormal basis by
// twice-projected unit vectors) and Q = V, both column-major in global memory. The host reads
// them as U and Vh (tall: U = P, Vh = Q^H; wide: U = Q, Vh = P^H). A block that has not converged
// after max_sweeps sets info[b] = 1 (the host raises NumPy's "SVD did not converge").
//
// The source defines CUPP_SVD_R (float or double) and, for complex dtypes, CUPP_SVD_COMPLEX.
// One kernel: cupp_linalg_jacobi_svd; a multiple of 32 threads up to 1024 per block (the host: 256
// for the shared form, 512 for the global one), a warp per column pair.
#pragma once

#ifndef CUPP_SVD_R
#error "define CUPP_SVD_R (float or double) before including cupp/linalg/jacobi_svd.cuh"
#endif

namespace cupp_svd {

typedef CUPP_SVD_R real;

#ifdef CUPP_SVD_COMPLEX
struct __align__(2 * sizeof(real)) elem {
  real re, im;
};
__device__ inline elem make(real re, real im) {
  elem e;
  e.re = re;
  e.im = im;
  return e;
}
__device__ inline real abs2(elem a) { return a.re * a.re + a.im * a.im; }
__device__ inline elem conj(elem a) { return make(a.re, -a.im); }
// conj(a) * b
__device__ inline elem cmul(elem a, elem b) { return make(a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re); }
__device__ inline elem mul(elem a, elem b) { return make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
__device__ inline elem add(elem a, elem b) { return make(a.re + b.re, a.im + b.im); }
__device__ inline elem sub(elem a, elem b) { return make(a.re - b.re, a.im - b.im); }
__device__ inline elem scale(elem a, real s) { return make(a.re * s, a.im * s); }
__device__ inline elem zero() { return make(0, 0); }
__device__ inline elem one() { return make(1, 0); }
#else
typedef real elem;
__device__ inline real abs2(real a) { return a * a; }
__device__ inline real conj(real a) { return a; }
__device__ inline real cmul(real a, real b) { return a * b; }
__device__ inline real mul(real a, real b) { return a * b; }
__device__ inline real add(real a, real b) { return a + b; }
__device__ inline real sub(real a, real b) { return a - b; }
__device__ inline real scale(real a, real s) { return a * s; }
__device__ inline real zero() { return 0; }
__device__ inline real one() { return 1; }
#endif

__device__ inline real warp_sum(real v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

#ifdef CUPP_SVD_COMPLEX
__device__ inline elem warp_sum(elem v) {
  v.re = warp_sum(v.re);
  v.im = warp_sum(v.im);
  return v;
}
#endif

// The smallest normal number: a column of smaller norm counts as zero (completed, not divided).
__device__ inline real tiny() { return sizeof(real) == 4 ? real(1.1754943508222875e-38) : real(2.2250738585072014e-308); }

// A block-wide sum of one value per thread (every thread gets the total); red holds 32 reals.
__device__ inline real block_sum(real v, real* red) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  real t = 0;
  for (int w = 0; w < warps; ++w) t += red[w];
  return t;
}

// The rotation of columns x (p) and y (q) of a column-major array with `rows` rows:
// x' = c x - s e^{-i phi} y, y' = s e^{i phi} x + c y (e^{i phi} = g / |g|, real: +-1 folded into s).
__device__ inline void rotate(elem* x, elem* y, int rows, real c, real s, elem ph, int lane) {
  for (int i = lane; i < rows; i += 32) {
    const elem a = x[i], b = y[i];
#ifdef CUPP_SVD_COMPLEX
    x[i] = sub(scale(a, c), scale(cmul(ph, b), s));  // conj(ph) * b
    y[i] = add(scale(mul(ph, a), s), scale(b, c));
#else
    x[i] = c * a - s * ph * b;
    y[i] = s * ph * a + c * b;
#endif
  }
}

}  // namespace cupp_svd

extern "C" __global__ void cupp_linalg_jacobi_svd(const cupp_svd::elem* in, cupp_svd::real* S, cupp_svd::elem* P,
                                                  cupp_svd::elem* Q, int* info, long long batch, int M, int N,
                                                  int pcols, int want_uv, int conj_in, cupp_svd::real tol,
                                                  int max_sweeps, cupp_svd::elem* gW, cupp_svd::elem* gV) {
  using namespace cupp_svd;
  extern __shared__ __align__(16) unsigned char smem[];
  const bool global = gW != nullptr;
  elem* W = reinterpret_cast<elem*>(smem);                                   // M x N (shared form)
  elem* V = W + (global ? 0 : static_cast<long long>(M) * N);                // N x N (want_uv, shared form)
  elem* r = V + (global || !want_uv ? 0 : static_cast<long long>(N) * N);    // M: a completion column
  real* sig = reinterpret_cast<real*>(r + M);                   // N
  real* rn = sig + N;                                           // M: squared row norms of P's columns so far
  real* red = rn + M;                                           // 32
  int* flags = reinterpret_cast<int*>(red + 32);                // [0]: rotated this sweep, [1]: pivot row
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const int Np = N + (N & 1);  // the circle ordering's player count (a dummy column when N is odd)
  for (long long b = blockIdx.x; b < batch; b += gridDim.x) {
    const elem* a = in + b * M * N;
    if (global) {
      W = gW + b * M * N;
      V = want_uv ? gV + b * static_cast<long long>(N) * N : nullptr;
    }
    if (!global || conj_in)  // (the global form works in place: only a conjugation to do)
      for (long long e = threadIdx.x; e < static_cast<long long>(M) * N; e += blockDim.x) W[e] = conj_in ? conj(a[e]) : a[e];
    if (want_uv)
      for (int e = threadIdx.x; e < N * N; e += blockDim.x) V[e] = (e % N == e / N) ? one() : zero();
    bool converged = false;
    for (int sweep = 0; sweep < max_sweeps && !converged; ++sweep) {
      __syncthreads();
      if (threadIdx.x == 0) flags[0] = 0;
      __syncthreads();
      for (int round = 0; round < Np - 1; ++round) {
        for (int k = warp; k < Np / 2; k += warps) {
          int p, q;
          if (k == 0) {
            p = round;
            q = Np - 1;
          } else {
            p = (round + k) % (Np - 1);
            q = (round - k + Np - 1) % (Np - 1);
          }
          if (p >= N || q >= N) continue;  // the dummy column
          if (p > q) {
            const int t = p;
            p = q;
            q = t;
          }
          elem* x = W + static_cast<long long>(p) * M;
          elem* y = W + static_cast<long long>(q) * M;
          real al = 0, be = 0;
          elem g = zero();
          for (int i = lane; i < M; i += 32) {
            const elem u = x[i], v = y[i];
            al += abs2(u);
            be += abs2(v);
            g = add(g, cmul(u, v));
          }
          al = warp_sum(al);
          be = warp_sum(be);
          g = warp_sum(g);
          const real ag = sqrt(abs2(g));
          if (!(ag > tol * sqrt(al) * sqrt(be))) continue;  // orthogonal enough (or NaN: raised by the host)
          const real zeta = (be - al) / (2 * ag);
          const real t = (zeta >= 0 ? real(1) : real(-1)) / (fabs(zeta) + sqrt(1 + zeta * zeta));
          const real c = 1 / sqrt(1 + t * t), s = c * t;
          const elem ph = scale(g, 1 / ag);
          rotate(x, y, M, c, s, ph, lane);
          if (want_uv) rotate(V + static_cast<long long>(p) * N, V + static_cast<long long>(q) * N, N, c, s, ph, lane);
          if (lane == 0) flags[0] = 1;
        }
        __syncthreads();
      }
      converged = flags[0] == 0;  // every thread reads the flag after the round's barrier
    }
    __syncthreads();
    // sigma_j = ||w_j||, a warp per column
    for (int j = warp; j < N; j += warps) {
      real ss = 0;
      for (int i = lane; i < M; i += 32) ss += abs2(W[static_cast<long long>(j) * M + i]);
      ss = warp_sum(ss);
      if (lane == 0) sig[j] = sqrt(ss);
    }
    __syncthreads();
    if (threadIdx.x == 0 && info) info[b] = converged ? 0 : 1;
    // descending order: column j goes to position rank(j) (ties by index)
    for (int j = threadIdx.x; j < N; j += blockDim.x) {
      const real sj = sig[j];
      int rank = 0;
      for (int i = 0; i < N; ++i) rank += (sig[i] > sj || (sig[i] == sj && i < j)) ? 1 : 0;
      S[b * N + rank] = sj;
      if (want_uv) flags[2 + j] = rank;
    }
    if (!want_uv) continue;
    __syncthreads();
    elem* Pb = P + b * static_cast<long long>(M) * pcols;
    elem* Qb = Q + b * static_cast<long long>(N) * N;
    int valid = 0;  // columns with a normal sigma (the leading ones of P after sorting)
    for (int j = 0; j < N; ++j) valid += sig[j] >= tiny() ? 1 : 0;
    for (int j = warp; j < N; j += warps) {
      const int rank = flags[2 + j];
      const real sj = sig[j];
      const real inv = sj >= tiny() ? 1 / sj : 0;
      for (int i = lane; i < M; i += 32) Pb[static_cast<long long>(rank) * M + i] = scale(W[static_cast<long long>(j) * M + i], inv);
      for (int i = lane; i < N; i += 32) Qb[static_cast<long long>(rank) * N + i] = V[static_cast<long long>(j) * N + i];
    }
    if (valid >= pcols) {
      __syncthreads();
      continue;
    }
    // Completion of P's columns valid..pcols-1: for each, the unit vector e_k whose row of P has the
    // least weight so far, projected off P's columns twice (classical Gram-Schmidt, twice), normalised.
    __threadfence_block();
    __syncthreads();
    for (int i = threadIdx.x; i < M; i += blockDim.x) {
      real w = 0;
      for (int c = 0; c < valid; ++c) w += abs2(Pb[static_cast<long long>(c) * M + i]);
      rn[i] = w;
    }
    __syncthreads();
    for (int col = valid; col < pcols; ++col) {
      if (threadIdx.x == 0) {
        int best = 0;
        for (int i = 1; i < M; ++i)
          if (rn[i] < rn[best]) best = i;
        flags[1] = best;
      }
      __syncthreads();
      const int kk = flags[1];
      // r = e_k - P P^H e_k (P^H e_k = conj of row k of P)
      for (int i = threadIdx.x; i < M; i += blockDim.x) {
        elem v = i == kk ? one() : zero();
        for (int c = 0; c < col; ++c)
          v = sub(v, mul(Pb[static_cast<long long>(c) * M + i], conj(Pb[static_cast<long long>(c) * M + kk])));
        r[i] = v;
      }
      __syncthreads();
      // the second projection: r -= P (P^H r), the coefficients a warp each, into W's space
      elem* coef = W;
      for (int c = warp; c < col; c += warps) {
        elem d = zero();
        for (int i = lane; i < M; i += 32) d = add(d, cmul(Pb[static_cast<long long>(c) * M + i], r[i]));
        d = warp_sum(d);
        if (lane == 0) coef[c] = d;
      }
      __syncthreads();
      real nn = 0;
      for (int i = threadIdx.x; i < M; i += blockDim.x) {
        elem v = r[i];
        for (int c = 0; c < col; ++c) v = sub(v, mul(Pb[static_cast<long long>(c) * M + i], coef[c]));
        r[i] = v;
        nn += abs2(v);
      }
      nn = block_sum(nn, red);
      const real inv = 1 / sqrt(nn);
      for (int i = threadIdx.x; i < M; i += blockDim.x) {
        const elem v = scale(r[i], inv);
        Pb[static_cast<long long>(col) * M + i] = v;
        rn[i] += abs2(v);
      }
      __threadfence_block();
      __syncthreads();
    }
  }
}
