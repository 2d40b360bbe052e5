// spsolve's banded path (direct.cpp): a matrix whose nonzeros lie within `m <= 8` diagonals of
// the main one is block tridiagonal with M x M blocks (M = m rounded up to a power of two), and
// block parallel cyclic reduction solves it in ceil(log2(N)) steps over all N block rows at once
// (each step eliminates the couplings at distance s = 1, 2, 4, ... with the neighbours' diagonal
// blocks inverted by Gauss-Jordan with partial pivoting). That is O(N log N) small-block work
// spread over the whole GPU, where sparse QR (cusolverSpXcsrlsvqr, CuPy's spsolve) factors a band
// as a chain of dependent columns. Cyclic reduction does not pivot across blocks: it is stable
// for diagonally dominant and SPD-like bands, not for every band, so the solution is accepted only
// when its backward error max|b - A x| / (||A||_inf max|x| + max|b|) is below 1000 eps, and
// spsolve falls back to QR otherwise (a singular or unstable band, an overflow).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/errors.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg::detail {
namespace {

using i64 = std::int64_t;

constexpr const char* banded_source = R"CUPP(
template <class R> struct cx { R re, im; };
template <class R> __device__ inline cx<R> operator+(cx<R> a, cx<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R> __device__ inline cx<R> operator-(cx<R> a, cx<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R> __device__ inline cx<R> operator-(cx<R> a) { return {-a.re, -a.im}; }
template <class R> __device__ inline cx<R> operator*(cx<R> a, cx<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R> __device__ inline cx<R> operator/(cx<R> a, cx<R> b) {
  const R s = fabs(b.re) + fabs(b.im);
  const R br = b.re / s, bi = b.im / s, ar = a.re / s, ai = a.im / s, d = br * br + bi * bi;
  return {(ar * br + ai * bi) / d, (ai * br - ar * bi) / d};
}
__device__ inline double mag(double v) { return fabs(v); }
__device__ inline float mag(float v) { return fabsf(v); }
template <class R> __device__ inline R mag(cx<R> v) { return hypot(v.re, v.im); }
template <class T> __device__ inline T zero() { return T(0); }
template <> __device__ inline cx<float> zero<cx<float>>() { return {0.f, 0.f}; }
template <> __device__ inline cx<double> zero<cx<double>>() { return {0.0, 0.0}; }
template <class T> __device__ inline T one() { return T(1); }
template <> __device__ inline cx<float> one<cx<float>>() { return {1.f, 0.f}; }
template <> __device__ inline cx<double> one<cx<double>>() { return {1.0, 0.0}; }

// Block i's entries of A (sub), B (diagonal), C (super): M*M each, row-major; F: M*K.
// lower/upper: the band's max(row - col) and max(col - row) over stored entries (atomicMax).
template <class I>
__device__ void band_of(const I* indptr, const I* indices, long long n, int* lu) {
  const long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (r >= n) return;
  int lo = -2147483647, up = -2147483647;
  for (I e = indptr[r]; e < indptr[r + 1]; ++e) {
    const long long d = r - (long long)indices[e];
    const int dc = d > 1000000 ? 1000000 : d < -1000000 ? -1000000 : (int)d;
    lo = max(lo, dc);
    up = max(up, -dc);
  }
  atomicMax(lu, lo);
  atomicMax(lu + 1, up);
}
extern "C" __global__ void cupp_band_width_i32(const int* p, const int* c, long long n, int* lu) { band_of(p, c, n, lu); }

// Scatter the CSR rows into the blocks (zeroed first) and b (n x K, C order) into F; the padded
// rows past n get a unit diagonal and a zero right-hand side.
template <class T, int M>
__global__ void band_fill(const int* indptr, const int* indices, const T* data, const T* b, long long n, long long K,
                          long long nb, T* A, T* B, T* C, T* F) {
  const long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (r >= nb * M) return;
  const long long i = r / M;
  const int a = (int)(r % M);
  if (r >= n) {
    B[(i * M + a) * M + a] = one<T>();
    for (long long k = 0; k < K; ++k) F[(i * M + a) * K + k] = zero<T>();
    return;
  }
  for (int e = indptr[r]; e < indptr[r + 1]; ++e) {
    const long long c = indices[e], j = c / M;
    const int bcol = (int)(c % M);
    T* dst = j == i ? B : j < i ? A : C;
    dst[(i * M + a) * M + bcol] = data[e];
  }
  for (long long k = 0; k < K; ++k) F[(i * M + a) * K + k] = b[r * K + k];
}

// inv <- X^-1 (Gauss-Jordan, partial pivoting); a zero pivot leaves infinities (rejected later).
template <class T, int M>
__device__ void invert(const T* X, T (&inv)[M][M]) {
  T w[M][M];
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) {
      w[r][c] = X[r * M + c];
      inv[r][c] = r == c ? one<T>() : zero<T>();
    }
  for (int c = 0; c < M; ++c) {
    int p = c;
    for (int r = c + 1; r < M; ++r)
      if (mag(w[r][c]) > mag(w[p][c])) p = r;
    if (p != c)
      for (int k = 0; k < M; ++k) {
        T t = w[c][k]; w[c][k] = w[p][k]; w[p][k] = t;
        t = inv[c][k]; inv[c][k] = inv[p][k]; inv[p][k] = t;
      }
    const T d = one<T>() / w[c][c];
    for (int k = 0; k < M; ++k) { w[c][k] = w[c][k] * d; inv[c][k] = inv[c][k] * d; }
    for (int r = 0; r < M; ++r) {
      if (r == c) continue;
      const T f = w[r][c];
      for (int k = 0; k < M; ++k) { w[r][k] = w[r][k] - f * w[c][k]; inv[r][k] = inv[r][k] - f * inv[c][k]; }
    }
  }
}

// One step of block parallel cyclic reduction at distance s: row i takes alpha = -A_i B_{i-s}^-1
// times row i-s and gamma = -C_i B_{i+s}^-1 times row i+s.
template <class T, int M>
__global__ void band_pcr(const T* A, const T* B, const T* C, const T* F, long long nb, long long K, long long s,
                         T* A2, T* B2, T* C2, T* F2) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= nb) return;
  const long long o = i * M * M;
  T al[M][M], ga[M][M], inv[M][M];
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) al[r][c] = ga[r][c] = zero<T>();
  const bool lo = i - s >= 0, hi = i + s < nb;
  if (lo) {
    invert<T, M>(B + (i - s) * M * M, inv);
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < M; ++c) {
        T v = zero<T>();
        for (int k = 0; k < M; ++k) v = v + A[o + r * M + k] * inv[k][c];
        al[r][c] = -v;
      }
  }
  if (hi) {
    invert<T, M>(B + (i + s) * M * M, inv);
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < M; ++c) {
        T v = zero<T>();
        for (int k = 0; k < M; ++k) v = v + C[o + r * M + k] * inv[k][c];
        ga[r][c] = -v;
      }
  }
  const long long ol = (i - s) * M * M, oh = (i + s) * M * M;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) {
      T a = zero<T>(), b = B[o + r * M + c], cc = zero<T>();
      for (int k = 0; k < M; ++k) {
        if (lo) { a = a + al[r][k] * A[ol + k * M + c]; b = b + al[r][k] * C[ol + k * M + c]; }
        if (hi) { cc = cc + ga[r][k] * C[oh + k * M + c]; b = b + ga[r][k] * A[oh + k * M + c]; }
      }
      A2[o + r * M + c] = a;
      B2[o + r * M + c] = b;
      C2[o + r * M + c] = cc;
    }
  for (int r = 0; r < M; ++r)
    for (long long k = 0; k < K; ++k) {
      T f = F[(i * M + r) * K + k];
      for (int q = 0; q < M; ++q) {
        if (lo) f = f + al[r][q] * F[((i - s) * M + q) * K + k];
        if (hi) f = f + ga[r][q] * F[((i + s) * M + q) * K + k];
      }
      F2[(i * M + r) * K + k] = f;
    }
}

// The decoupled rows: x_i = B_i^-1 F_i, rows past n dropped.
template <class T, int M>
__global__ void band_final(const T* B, const T* F, long long nb, long long n, long long K, T* x) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= nb) return;
  T inv[M][M];
  invert<T, M>(B + i * M * M, inv);
  for (int r = 0; r < M; ++r) {
    const long long row = i * M + r;
    if (row >= n) break;
    for (long long k = 0; k < K; ++k) {
      T v = zero<T>();
      for (int q = 0; q < M; ++q) v = v + inv[r][q] * F[(i * M + q) * K + k];
      x[row * K + k] = v;
    }
  }
}

__device__ inline void max_bits(unsigned long long* slot, double v) {
  // non-negative doubles order as their bits; NaN (either sign) wins over every number
  atomicMax(slot, (unsigned long long)__double_as_longlong(v));
}

// The backward error's parts: out = [max|b - A x|, max row sum |A|, max|x|, max|b|].
template <class T>
__global__ void band_check(const int* indptr, const int* indices, const T* data, const T* b, const T* x, long long n,
                           long long K, unsigned long long* out) {
  const long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (r >= n) return;
  double rowsum = 0, res = 0, xm = 0, bm = 0;
  for (int e = indptr[r]; e < indptr[r + 1]; ++e) rowsum += (double)mag(data[e]);
  for (long long k = 0; k < K; ++k) {
    T v = b[r * K + k];
    for (int e = indptr[r]; e < indptr[r + 1]; ++e) v = v - data[e] * x[(long long)indices[e] * K + k];
    double m = (double)mag(v);
    res = m > res || m != m ? m : res;
    m = (double)mag(x[r * K + k]);
    xm = m > xm || m != m ? m : xm;
    m = (double)mag(b[r * K + k]);
    bm = m > bm || m != m ? m : bm;
  }
  max_bits(out, res);
  max_bits(out + 1, rowsum);
  max_bits(out + 2, xm);
  max_bits(out + 3, bm);
}
)CUPP";

const char* type_name(const cupp::dtype& t) {
  if (t == float32) return "float";
  if (t == float64) return "double";
  if (t == complex64) return "cx<float>";
  return "cx<double>";
}

// The module of one (dtype, M), compiled on first use and kept.
const cuda::RawModule& module_for(const cupp::dtype& t, int M) {
  static std::mutex mutex;
  static std::map<std::string, cuda::RawModule> modules;
  const std::lock_guard lock(mutex);
  const std::string tn = type_name(t), key = tn + "," + std::to_string(M);
  auto it = modules.find(key);
  if (it != modules.end()) return it->second;
  cuda::raw_options options;
  options.name_expressions = banded_kernels(t, M);
  return modules.emplace(key, cuda::RawModule(banded_source, options)).first->second;
}

const cuda::RawKernel& width_kernel() {
  static const cuda::RawKernel k(banded_source, "cupp_band_width_i32");
  return k;
}

unsigned blocks_for(i64 count, unsigned threads) { return static_cast<unsigned>((count + threads - 1) / threads); }

// kernel<<<blocks, threads>>>(args...) on the current stream.
template <class... Args>
void launch(const cuda::RawKernel& k, unsigned blocks, unsigned threads, const Args&... args) {
  cuda::launch_config config;
  config.grid.x = blocks;
  config.block.x = threads;
  k.launch(config, args...);
}

}  // namespace

const char* banded_program_source() { return banded_source; }

std::vector<std::string> banded_kernels(const cupp::dtype& t, int M) {
  const std::string tn = type_name(t), key = tn + "," + std::to_string(M);
  return {"band_fill<" + key + ">", "band_pcr<" + key + ">", "band_final<" + key + ">", "band_check<" + tn + ">"};
}

bool banded_solve(const csr& a, const ndarray& indptr, const ndarray& indices, const ndarray& b, const ndarray& x) {
  const i64 n = a.shape()[0];
  const cupp::dtype t = a.dtype();
  if (n < 2 || (t != float32 && t != float64 && t != complex64 && t != complex128)) return false;
  if (n > std::numeric_limits<int>::max() / 4) return false;
  cupp::detail::device_scope scope(x.device());
  const unsigned threads = 256;
  // the band: one pass over the rows, one read
  const ndarray lu = cupp::full({2}, -2147483647, int32);
  launch(width_kernel(), blocks_for(n, threads), threads, indptr.data(), indices.data(), static_cast<long long>(n),
                 lu.data());
  const std::vector<std::int32_t> w = lu.to_vector<std::int32_t>();
  const int m = std::max({w[0], w[1], 1});
  if (m > 8) return false;
  const int M = m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8;
  const i64 K = b.ndim() == 1 ? 1 : b.shape(1);
  const i64 nb = (n + M - 1) / M;
  const cuda::RawModule& mod = module_for(t, M);
  const std::string key = std::string(type_name(t)) + "," + std::to_string(M);
  ndarray A = cupp::zeros({nb * M * M}, t), B = cupp::zeros({nb * M * M}, t), C = cupp::zeros({nb * M * M}, t),
          F = cupp::empty({nb * M * K}, t);
  ndarray A2 = cupp::empty({nb * M * M}, t), B2 = cupp::empty({nb * M * M}, t), C2 = cupp::empty({nb * M * M}, t),
          F2 = cupp::empty({nb * M * K}, t);
  const long long ln = n, lK = K, lnb = nb;
  launch(mod.get_function("band_fill<" + key + ">"), blocks_for(nb * M, threads), threads, indptr.data(), indices.data(),
                                            a.data().data(), b.data(), ln, lK, lnb, A.data(), B.data(), C.data(),
                                            F.data());
  const cuda::RawKernel step = mod.get_function("band_pcr<" + key + ">");
  const unsigned row_threads = M >= 8 ? 64 : 128;
  for (long long s = 1; s < nb; s *= 2) {
    launch(step, blocks_for(nb, row_threads), row_threads, A.data(), B.data(), C.data(), F.data(), lnb, lK, s, A2.data(),
         B2.data(), C2.data(), F2.data());
    std::swap(A, A2);
    std::swap(B, B2);
    std::swap(C, C2);
    std::swap(F, F2);
  }
  launch(mod.get_function("band_final<" + key + ">"), blocks_for(nb, row_threads), row_threads, B.data(), F.data(), lnb,
                                             ln, lK, x.data());
  // the backward error, one read
  const ndarray parts = cupp::zeros({4}, uint64);
  launch(mod.get_function("band_check<" + std::string(type_name(t)) + ">"), blocks_for(n, threads), threads, indptr.data(),
                                                                    indices.data(), a.data().data(), b.data(),
                                                                    x.data(), ln, lK, parts.data());
  const std::vector<std::uint64_t> bits = parts.to_vector<std::uint64_t>();
  double v[4];
  for (int i = 0; i < 4; ++i) std::memcpy(&v[i], &bits[i], sizeof(double));
  const double denom = v[1] * v[2] + v[3];
  if (!std::isfinite(v[0]) || !std::isfinite(denom)) return false;
  return v[0] <= 1000 * eps_of(t) * denom;
}

}  // namespace cupp::sparse::linalg::detail
