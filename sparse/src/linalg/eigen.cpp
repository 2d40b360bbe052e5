// eigsh and svds of cupp::sparse::linalg: thick-restart Lanczos (the symmetric Krylov-Schur
// method, equivalent to ARPACK's implicitly restarted Lanczos) with full reorthogonalisation
// on the device (each step subtracts Lanczos' three terms, then one classical Gram-Schmidt pass;
// a cycle's first step, coupled to every kept vector, does two passes), the step's vector work in
// four fused kernels of a fixed grid (lanczos_source: no host work but their launches, sums in a
// fixed order); the projected matrix is at most ncv x ncv and is diagonalised on the host by
// Householder reduction and implicit QR (symmetric_eigen_impl). One host read per restart cycle
// (the cycle's alpha and beta, kept on the device while its steps run).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;
using cd = std::complex<double>;
using matrix = std::vector<std::vector<double>>;

// One Lanczos step's vector work after w = A v_j, in four kernels of a fixed grid (G blocks of
// 256 threads, G from n alone, so the sums' order and the results do not depend on the device):
//   lz_alpha: alpha = v_j^H w;
//   lz_dots:  w -= alpha v_j + beta_j-1 v_j-1 (when `local`), then h = V_0..j^H w, 8 rows of V per
//             pass over w (register accumulators);
//   lz_sub:   w -= V_0..j h, ||w||^2; htot (+)= h; on the last pass ab[j] = alpha + htot[j],
//             ab[ncv + j] = ||w||;
//   lz_scale: v_j+1 = w / ab[ncv + j].
// Sums run in double (complex double for complex types): per thread in a fixed order, then a
// block's warps by shuffles, then the blocks' partials in block order by the last block to finish
// (a counter it resets for the next launch). The first step of a cycle (coupled to every kept
// vector) runs lz_dots and lz_sub twice (classical Gram-Schmidt twice) without the local terms.
constexpr const char* lanczos_source = R"CUPP(
#define LZ_H_ROWS 1024
template <class R> struct cx { R re, im; };
__device__ inline cx<double> operator+(cx<double> a, cx<double> b) { return {a.re + b.re, a.im + b.im}; }
__device__ inline cx<double> operator-(cx<double> a, cx<double> b) { return {a.re - b.re, a.im - b.im}; }
__device__ inline cx<double> operator*(cx<double> a, cx<double> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__device__ inline cx<double> operator*(double a, cx<double> b) { return {a * b.re, a * b.im}; }
__device__ inline cx<double> operator/(cx<double> a, double b) { return {a.re / b, a.im / b}; }
template <class T> struct acc_of { typedef double type; };
template <> struct acc_of<cx<float> > { typedef cx<double> type; };
template <> struct acc_of<cx<double> > { typedef cx<double> type; };
__device__ inline double widen(float v) { return v; }
__device__ inline double widen(double v) { return v; }
__device__ inline cx<double> widen(cx<float> v) { return {v.re, v.im}; }
__device__ inline cx<double> widen(cx<double> v) { return v; }
template <class T> __device__ inline T narrow(double v) { return (T)v; }
template <class T> __device__ inline T narrow(cx<double> v) { return {(decltype(T().re))v.re, (decltype(T().re))v.im}; }
__device__ inline double cmul(double a, double b) { return a * b; }  // conj(a) b
__device__ inline cx<double> cmul(cx<double> a, cx<double> b) {
  return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
}
__device__ inline double sq(double a) { return a * a; }
__device__ inline double sq(cx<double> a) { return a.re * a.re + a.im * a.im; }
__device__ inline double real_part(double a) { return a; }
__device__ inline double real_part(cx<double> a) { return a.re; }
template <class A> __device__ inline A zero_of();
template <> __device__ inline double zero_of<double>() { return 0.0; }
template <> __device__ inline cx<double> zero_of<cx<double> >() { return {0.0, 0.0}; }
__device__ inline double shfl(double v, int o) { return __shfl_down_sync(0xffffffffu, v, o); }
__device__ inline cx<double> shfl(cx<double> v, int o) { return {shfl(v.re, o), shfl(v.im, o)}; }
template <class A> __device__ inline A warp_sum(A v) {
  for (int o = 16; o > 0; o >>= 1) v = v + shfl(v, o);
  return v;
}
__device__ inline double load_cg(const double* p) { return __ldcg(p); }
__device__ inline cx<double> load_cg(const cx<double>* p) {
  const double* d = (const double*)p;
  return {__ldcg(d), __ldcg(d + 1)};
}

// True in every thread of the last block to get here (after its partials are visible).
__device__ inline bool last_block(unsigned* counter) {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned t = atomicAdd(counter, 1u);
    last = t == gridDim.x - 1;
    if (last) *counter = 0;
  }
  __syncthreads();
  return last;
}

// out[c] = sum over the G blocks of part[c * G + b], c < cols, in block order within each lane.
template <class A>
__device__ inline void column_sums(const A* part, int cols, A* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const int G = gridDim.x;
  for (int c = warp; c < cols; c += warps) {
    A s = zero_of<A>();
    for (int b = lane; b < G; b += 32) s = s + load_cg(part + (long long)c * G + b);
    s = warp_sum(s);
    if (lane == 0) out[c] = s;
  }
}

// A block's sum of one value per thread, in thread 0.
template <class A>
__device__ inline A block_sum(A v) {
  __shared__ A red[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  A s = zero_of<A>();
  if (threadIdx.x == 0)
    for (int i = 0; i < (int)(blockDim.x >> 5); ++i) s = s + red[i];
  return s;
}

template <class T>
__global__ void lz_alpha(const T* v, const T* w, long long n, typename acc_of<T>::type* part, unsigned* counter,
                         typename acc_of<T>::type* alpha) {
  typedef typename acc_of<T>::type A;
  const long long stride = (long long)gridDim.x * blockDim.x;
  A acc = zero_of<A>();
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += stride)
    acc = acc + cmul(widen(v[e]), widen(w[e]));
  acc = block_sum(acc);
  if (threadIdx.x == 0) part[blockIdx.x] = acc;
  if (last_block(counter)) column_sums(part, 1, alpha);
}

template <class T>
__global__ void lz_dots(T* w, const T* V, long long n, int rows, int local, const double* ab, long long beta_at,
                        const typename acc_of<T>::type* alpha, typename acc_of<T>::type* part, unsigned* counter,
                        typename acc_of<T>::type* h) {
  typedef typename acc_of<T>::type A;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long t0 = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (local) {
    const A al = *alpha;
    const double be = ab[beta_at];
    const T* vj = V + (long long)(rows - 1) * n;
    const T* vm = vj - n;
    for (long long e = t0; e < n; e += stride)
      w[e] = narrow<T>(widen(w[e]) - al * widen(vj[e]) - be * widen(vm[e]));
  }
  __shared__ A red[8][8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i0 = 0; i0 < rows; i0 += 8) {
    A acc[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[c] = zero_of<A>();
    const int m = rows - i0 < 8 ? rows - i0 : 8;
    const T* base = V + (long long)i0 * n;
    for (long long e = t0; e < n; e += stride) {
      const A we = widen(w[e]);
#pragma unroll
      for (int c = 0; c < 8; ++c)
        if (c < m) acc[c] = acc[c] + cmul(widen(base[(long long)c * n + e]), we);
    }
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[c] = warp_sum(acc[c]);
    if (lane == 0)
#pragma unroll
      for (int c = 0; c < 8; ++c) red[warp][c] = acc[c];
    __syncthreads();
    if (threadIdx.x < m) {
      A s = red[0][threadIdx.x];
      for (int q = 1; q < (int)(blockDim.x >> 5); ++q) s = s + red[q][threadIdx.x];
      part[(long long)(i0 + threadIdx.x) * gridDim.x + blockIdx.x] = s;
    }
    __syncthreads();
  }
  if (last_block(counter)) column_sums(part, rows, h);
}

template <class T>
__global__ void lz_sub(T* w, const T* V, long long n, int rows, const typename acc_of<T>::type* h,
                       typename acc_of<T>::type* htot, int accumulate, int finalize, long long j, long long ncv,
                       const typename acc_of<T>::type* alpha, int use_alpha, double* part, unsigned* counter,
                       double* ab) {
  typedef typename acc_of<T>::type A;
  __shared__ A hs[LZ_H_ROWS];  // h (rows <= LZ_H_ROWS: the host takes the array form past it)
  for (int i = threadIdx.x; i < rows; i += blockDim.x) hs[i] = h[i];
  if (blockIdx.x == 0)
    for (int i = threadIdx.x; i < rows; i += blockDim.x) htot[i] = accumulate ? htot[i] + h[i] : h[i];
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  double nrm = 0;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += stride) {
    A s = widen(w[e]);
#pragma unroll 4
    for (int i = 0; i < rows; ++i) s = s - hs[i] * widen(V[(long long)i * n + e]);
    const T r = narrow<T>(s);
    w[e] = r;
    nrm += sq(widen(r));
  }
  nrm = block_sum(nrm);
  if (threadIdx.x == 0) part[blockIdx.x] = nrm;
  if (last_block(counter)) {
    __shared__ double total;
    column_sums(part, 1, &total);
    __syncthreads();
    if (threadIdx.x == 0 && finalize) {
      const A t = use_alpha ? *alpha + load_cg(htot + j) : load_cg(htot + j);
      ab[j] = real_part(t);
      ab[ncv + j] = sqrt(total);
    }
  }
}

template <class T>
__global__ void lz_scale(const T* w, T* v, long long n, const double* ab, long long at) {
  const double beta = ab[at];
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += stride)
    v[e] = narrow<T>(widen(w[e]) / beta);
}
)CUPP";

// lz_sub's static shared copy of h holds this many values (lanczos_source's LZ_H_ROWS: 8 KiB for
// real types, 16 KiB for complex ones); a larger ncv takes the array form of the step.
constexpr i64 lz_h_rows = 1024;

const char* lanczos_type_name(const cupp::dtype& t) {
  if (t == float32) return "float";
  if (t == float64) return "double";
  if (t == complex64) return "cx<float>";
  return "cx<double>";
}

std::vector<std::string> lanczos_kernel_names(const cupp::dtype& t) {
  const std::string tn = lanczos_type_name(t);
  return {"lz_alpha<" + tn + ">", "lz_dots<" + tn + ">", "lz_sub<" + tn + ">", "lz_scale<" + tn + ">"};
}

// The four kernels of one dtype, compiled on first use and kept.
struct lanczos_kernels {
  cuda::RawKernel alpha, dots, sub, scale;
};
const lanczos_kernels& lanczos_kernels_for(const cupp::dtype& t) {
  static std::mutex mutex;
  static std::map<int, lanczos_kernels> table;
  const std::lock_guard lock(mutex);
  const int key = static_cast<int>(t.id());
  auto it = table.find(key);
  if (it != table.end()) return it->second;
  cuda::raw_options options;
  options.name_expressions = lanczos_kernel_names(t);
  const cuda::RawModule m(lanczos_source, options);
  const std::vector<std::string> names = lanczos_kernel_names(t);
  return table
      .emplace(key, lanczos_kernels{m.get_function(names[0]), m.get_function(names[1]), m.get_function(names[2]),
                                    m.get_function(names[3])})
      .first->second;
}

template <class... Args>
void lz_launch(const cuda::RawKernel& k, unsigned blocks, std::size_t shared, const Args&... args) {
  cuda::launch_config config;
  config.grid.x = blocks;
  config.block.x = 256;
  config.shared_mem = shared;
  k.launch(config, args...);
}

// The device state of the fused steps: partial sums, the counter, alpha, h and its total.
struct lanczos_device {
  const lanczos_kernels* k = nullptr;
  unsigned blocks = 1;
  std::size_t acc_size = 8;
  ndarray part, npart, counter, alpha, h, htot;
  lanczos_device(const cupp::dtype& t, i64 n, i64 ncv) : k(&lanczos_kernels_for(t)) {
    blocks = static_cast<unsigned>(std::clamp<i64>((n + 1023) / 1024, 1, 512));
    const bool c = detail::is_complex(t);
    acc_size = c ? 16 : 8;
    const cupp::dtype at = c ? complex128 : float64;
    part = cupp::empty({(ncv + 1) * static_cast<i64>(blocks)}, at);
    npart = cupp::empty({static_cast<i64>(blocks)}, float64);
    counter = cupp::zeros({1}, uint32);
    alpha = cupp::zeros({1}, at);
    h = cupp::zeros({ncv + 1}, at);
    htot = cupp::zeros({ncv + 1}, at);
  }
  // v_j+1 and ab[j], ab[ncv + j] from w = A v_j (w is overwritten); `first`: the cycle's first step.
  void step(const ndarray& V, const ndarray& w, i64 n, i64 j, i64 ncv, bool first, const ndarray& ab) {
    const std::size_t row = static_cast<std::size_t>(n) * V.itemsize();
    const char* base = static_cast<const char*>(V.data());
    const void* vj = base + j * row;
    void* vnext = const_cast<char*>(base) + (j + 1) * row;
    const long long ln = n, lj = j, lncv = ncv, beta_at = ncv + j - 1;
    const int rows = static_cast<int>(j + 1);
    if (!first) {
      lz_launch(k->alpha, blocks, 0, vj, w.data(), ln, part.data(), counter.data(), alpha.data());
      lz_launch(k->dots, blocks, 0, w.data(), V.data(), ln, rows, 1, ab.data(), beta_at, alpha.data(), part.data(),
                counter.data(), h.data());
      lz_launch(k->sub, blocks, 0, w.data(), V.data(), ln, rows, h.data(), htot.data(), 0, 1, lj, lncv,
                alpha.data(), 1, npart.data(), counter.data(), ab.data());
    } else {
      for (int pass = 0; pass < 2; ++pass) {
        lz_launch(k->dots, blocks, 0, w.data(), V.data(), ln, rows, 0, ab.data(), beta_at, alpha.data(),
                  part.data(), counter.data(), h.data());
        lz_launch(k->sub, blocks, 0, w.data(), V.data(), ln, rows, h.data(), htot.data(), pass, pass, lj,
                  lncv, alpha.data(), 0, npart.data(), counter.data(), ab.data());
      }
    }
    lz_launch(k->scale, blocks, 0, static_cast<const void*>(w.data()), vnext, ln, ab.data(), lncv + lj);
  }
};

// CUPP_SPARSE_EIGSH=generic: the step as array operations (the form before the fused kernels,
// kept for comparison); CUPP_SPARSE_EIGSH_TRACE=1 prints each solve's steps and time.
bool fused_steps() {
  const char* e = std::getenv("CUPP_SPARSE_EIGSH");  // read at each call: a test compares both
  return !(e && std::string(e) == "generic");
}
bool trace_steps() {
  static const bool on = [] {
    const char* e = std::getenv("CUPP_SPARSE_EIGSH_TRACE");
    return e && *e && std::string(e) != "0";
  }();
  return on;
}

// Cyclic Jacobi for a symmetric matrix: a becomes diagonal; vectors' columns are the eigenvectors.
void jacobi(matrix& a, matrix& vectors) {
  const std::size_t n = a.size();
  vectors.assign(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) vectors[i][i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) (i == j ? total : off) += a[i][j] * a[i][j];
    if (off <= 1e-32 * (total + off) || off == 0) break;
    for (std::size_t p = 0; p + 1 < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        if (a[p][q] == 0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = vectors[k][p], vkq = vectors[k][q];
          vectors[k][p] = c * vkp - s * vkq;
          vectors[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

// The eigen-decomposition of a small symmetric matrix (each restart cycle's projected one):
// Householder reduction to tridiagonal form, then implicit symmetric QR steps with Wilkinson's
// shift chasing the bulge through the diagonal d and off-diagonal e, with the rotations
// accumulated into the vectors (vectors[r][c]: component r of eigenvector c). About 10 n^3 flops
// (0.1 ms at n = 42), where cyclic Jacobi's sweeps took ~1 ms a cycle on the host.
void symmetric_eigen_impl(const matrix& t, std::vector<double>& w, matrix& vectors) {
  const std::size_t n = t.size();
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a[i * n + j] = 0.5 * (t[i][j] + t[j][i]);
  std::vector<double> q(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) q[i * n + i] = 1;
  std::vector<double> v(n), p(n);
  for (std::size_t k = 0; k + 2 < n; ++k) {
    double s2 = 0;
    for (std::size_t i = k + 2; i < n; ++i) s2 += a[i * n + k] * a[i * n + k];
    if (s2 == 0) continue;  // this column is tridiagonal already
    const double x0 = a[(k + 1) * n + k], nx = std::sqrt(x0 * x0 + s2), beta = x0 > 0 ? -nx : nx;
    const std::size_t m = n - k - 1, o = k + 1;
    v[0] = x0 - beta;
    for (std::size_t i = 1; i < m; ++i) v[i] = a[(o + i) * n + k];
    const double tau = 2 / (v[0] * v[0] + s2);
    double K = 0;
    for (std::size_t i = 0; i < m; ++i) {
      double acc = 0;
      for (std::size_t j = 0; j < m; ++j) acc += a[(o + i) * n + o + j] * v[j];
      p[i] = tau * acc;
      K += v[i] * p[i];
    }
    K *= tau / 2;
    for (std::size_t i = 0; i < m; ++i) p[i] -= K * v[i];  // q = p - K v
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < m; ++j) a[(o + i) * n + o + j] -= v[i] * p[j] + p[i] * v[j];
    a[o * n + k] = a[k * n + o] = beta;
    for (std::size_t i = k + 2; i < n; ++i) a[i * n + k] = a[k * n + i] = 0;
    for (std::size_t r = 0; r < n; ++r) {  // Q <- Q H
      double acc = 0;
      for (std::size_t j = 0; j < m; ++j) acc += q[r * n + o + j] * v[j];
      acc *= tau;
      for (std::size_t j = 0; j < m; ++j) q[r * n + o + j] -= acc * v[j];
    }
  }
  std::vector<double> d(n), e(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) d[i] = a[i * n + i];
  for (std::size_t i = 0; i + 1 < n; ++i) e[i] = a[(i + 1) * n + i];
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::size_t iter = 0; iter < 60 * n + 60; ++iter) {
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (std::fabs(e[i]) <= eps * (std::fabs(d[i]) + std::fabs(d[i + 1])) ||
          std::fabs(e[i]) < std::numeric_limits<double>::min())
        e[i] = 0;
    std::size_t hi = n - 1;
    while (hi > 0 && e[hi - 1] == 0) --hi;
    if (hi == 0) break;
    std::size_t lo = hi - 1;
    while (lo > 0 && e[lo - 1] != 0) --lo;
    const double dd = (d[hi - 1] - d[hi]) / 2, b = e[hi - 1];
    const double mu = d[hi] - b * b / (dd + (dd >= 0 ? 1.0 : -1.0) * std::hypot(dd, b));
    double x = d[lo] - mu, z = e[lo];
    for (std::size_t k = lo; k < hi; ++k) {
      const double r = std::hypot(x, z);
      const double c = r == 0 ? 1.0 : x / r, s = r == 0 ? 0.0 : z / r;
      if (k > lo) e[k - 1] = r;
      const double dk = d[k], dk1 = d[k + 1], ek = e[k];
      d[k] = c * c * dk + 2 * c * s * ek + s * s * dk1;
      d[k + 1] = s * s * dk - 2 * c * s * ek + c * c * dk1;
      e[k] = c * s * (dk1 - dk) + (c * c - s * s) * ek;
      if (k + 1 < hi) {
        z = s * e[k + 1];
        e[k + 1] *= c;
        x = e[k];
      }
      for (std::size_t r2 = 0; r2 < n; ++r2) {
        const double zk = q[r2 * n + k], zk1 = q[r2 * n + k + 1];
        q[r2 * n + k] = c * zk + s * zk1;
        q[r2 * n + k + 1] = -s * zk + c * zk1;
      }
    }
  }
  w = d;
  vectors.assign(n, std::vector<double>(n));
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) vectors[r][c] = q[r * n + c];
}

// Indices of theta ordered from the most to the least wanted.
std::vector<std::size_t> by_preference(const std::vector<double>& theta, const std::string& which, i64 k) {
  std::vector<std::size_t> idx(theta.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto key = [&](std::size_t i) {
    if (which == "LM") return -std::fabs(theta[i]);
    if (which == "SM") return std::fabs(theta[i]);
    if (which == "LA") return -theta[i];
    return theta[i];  // SA
  };
  if (which == "BE") {
    // alternate from the top and the bottom of the spectrum, one more from the top for odd k
    std::vector<std::size_t> asc = idx;
    std::sort(asc.begin(), asc.end(), [&](std::size_t a, std::size_t b) { return theta[a] < theta[b]; });
    std::vector<std::size_t> out;
    std::size_t lo = 0, hi = asc.size();
    bool top = (k % 2) == 1;
    while (lo < hi) {
      if (top) out.push_back(asc[--hi]);
      else out.push_back(asc[lo++]);
      top = !top;
    }
    return out;
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  return idx;
}

ndarray to_type(const std::vector<double>& v, std::vector<i64> shape, cupp::dtype type) {
  return cupp::astype(cupp::asarray(v).reshape(shape), type);
}

// A deterministic start vector (SciPy's ARPACK draws a random one): uniform in [-1, 1).
ndarray start_vector(i64 n, cupp::dtype type, std::uint64_t seed) {
  std::vector<double> v(n);
  std::uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& e : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    e = static_cast<double>(s >> 11) / 9007199254740992.0 * 2 - 1;
  }
  return to_type(v, {n}, type);
}

struct lanczos_result {
  std::vector<double> w;  // ascending
  ndarray v;              // (n, k) or null
};

lanczos_result lanczos(const LinearOperator& A, const eigsh_options& o, const char* name) {
  const shape2 s = A.shape();
  if (s[0] != s[1])
    throw ValueError("expected square matrix (shape=(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + "))");
  const i64 n = s[0], k = o.k;
  if (k <= 0) throw ValueError("k must be greater than 0.");
  const std::string& which = o.which;
  if (which != "LM" && which != "SM" && which != "LA" && which != "SA" && which != "BE")
    throw ValueError("which must be one of LM SM LA SA BE");
  const cupp::dtype type = detail::solver_type(A.dtype(), float32);
  const bool cplx = detail::is_complex(type);
  const double eps = detail::eps_of(type);
  const double tol = o.tol > 0 ? o.tol : eps;
  if (k >= n) {
    // SciPy falls back to a dense eigh: so does cupp, on the host (small n)
    if (n > 4096) throw ValueError(std::string(name) + ": k >= N needs a dense solve; N is too large");
    const ndarray dense = A.matmat(cupp::eye(n, std::nullopt, 0, type));
    std::vector<cd> vals = cupp::astype(dense, complex128).to_vector<cd>();
    matrix a(n, std::vector<double>(n)), vec;
    for (i64 i = 0; i < n; ++i)
      for (i64 j = 0; j < n; ++j) a[i][j] = vals[i * n + j].real();
    jacobi(a, vec);
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return a[x][x] < a[y][y]; });
    lanczos_result r;
    std::vector<double> flat;
    for (i64 i = 0; i < n; ++i)
      for (std::size_t j : idx) flat.push_back(vec[i][j]);
    for (std::size_t j : idx) r.w.push_back(a[j][j]);
    if (o.return_eigenvectors) r.v = to_type(flat, {n, n}, type);
    return r;
  }
  const i64 ncv = o.ncv.value_or(std::min(n, std::max<i64>(2 * k + 1, 20)));
  if (ncv > n || ncv <= k) throw ValueError("ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  const i64 maxiter = o.maxiter.value_or(n * 10);
  if (maxiter <= 0) throw ValueError("maxiter must be positive, maxiter=" + std::to_string(maxiter));

  ndarray V = cupp::zeros({ncv + 1, n}, type);
  ndarray v0 = o.v0.is_null() ? start_vector(n, type, 1) : cupp::astype(o.v0.reshape({n}), type);
  if (!o.v0.is_null() && o.v0.size() != n) throw ValueError("v0 must have length N");
  V(0).assign(v0 * (1.0 / std::sqrt(detail::nrm2sq(v0).item<double>())));
  matrix T(ncv, std::vector<double>(ncv, 0.0));
  double beta_last = 0;
  i64 j0 = 0;
  std::vector<double> theta;
  matrix S;
  std::vector<std::size_t> order;
  std::uint64_t reseed = 2;
  bool done = false, verifying = false;
  int verifications = 0;
  std::vector<double> locked;
  const ndarray ab = cupp::zeros({2 * ncv}, float64);  // the cycle's alpha_j (at j) and beta_j (at ncv + j)
  // the fused step kernels (lanczos_device) unless CUPP_SPARSE_EIGSH=generic or a basis too large
  // for lz_sub's shared copy of h (LZ_H_ROWS in lanczos_source)
  const bool fused = fused_steps() && ncv <= lz_h_rows;
  std::optional<lanczos_device> dev;
  if (fused) dev.emplace(type, n, ncv);
  i64 steps = 0, cycles = 0;
  const auto t_start = std::chrono::steady_clock::now();
  for (i64 cycle = 0; cycle < maxiter && !done; ++cycle) {
    ++cycles;
    // The cycle's Lanczos steps run without a host read: alpha_j and beta_j stay in `ab` on the
    // device (alpha at j, beta at ncv + j) and v_j+1 = w / beta_j is formed there; the host reads
    // them once at the end of the cycle. A beta at rounding level (an invariant subspace) found
    // then leaves the basis past it meaningless: the steps after it run again from a fresh
    // vector orthogonal to the basis, as the step-by-step loop did.
    i64 jstart = j0;
    while (jstart < ncv) {
      for (i64 j = jstart; j < ncv; ++j) {
        ++steps;
        if (fused) {
          // the step overwrites w: a product that is not a contiguous vector, or lies in the basis
          // (an operator that returns its argument), is copied first
          ndarray w = detail::as_type(A.matvec(V(j)), type);
          const char* wp = static_cast<const char*>(w.data());
          const char* vp = static_cast<const char*>(V.data());
          if (w.ndim() != 1 || !w.is_c_contiguous() || (wp >= vp && wp < vp + V.nbytes()))
            w = cupp::ascontiguousarray(w.reshape({n})).copy();
          dev->step(V, w, n, j, ncv, j == j0, ab);
          continue;
        }
        ndarray w = detail::as_type(A.matvec(V(j)), type);
        const ndarray Vj = V(cupp::slice(0, j + 1));
        auto project = [&](const ndarray& x) {
          return cplx ? cupp::conjugate(cupp::matmul(Vj, cupp::conjugate(x))) : cupp::matmul(Vj, x);
        };
        ndarray h, alpha;
        if (j > j0) {
          // Lanczos' three terms first, alpha from its own dot product (w -= alpha v_j + beta v_j-1),
          // then one classical Gram-Schmidt pass over the basis: the pass removes only rounding-level
          // components, so one is enough (a CPU model keeps orthogonality at eps, where one pass over
          // the raw A v_j loses a factor ~3 per step), at half the gemv traffic of two passes.
          alpha = detail::dotc(V(j), w);
          w = detail::solver_kernel("lanczos_local", cplx, "T w0, T v, T u, raw T alpha, raw float64 ab, int64 k", "T w",
                                    "w = w0 - alpha[0] * v - T(ab[k]) * u;")
                  .call({w, V(j), V(j - 1), alpha, ab, ncv + j - 1})[0];
          h = project(w);
          w = w - cupp::matmul(h, Vj);
        } else {
          // the first step of a cycle couples to every kept vector: Gram-Schmidt twice
          h = project(w);
          w = w - cupp::matmul(h, Vj);
          const ndarray h2 = project(w);
          w = w - cupp::matmul(h2, Vj);
          h = h + h2;
          alpha = cupp::zeros({}, type);
        }
        // alpha_j = its dot product + the pass's correction; beta_j = ||w||; v_j+1 = w / beta_j
        detail::solver_kernel("lanczos_ab", cplx, "raw A alpha, raw A h, raw R nw, int64 j, int64 ncv", "raw float64 ab",
                              "ab[j] = (double)REAL(alpha[0]) + (double)REAL(h[j]); ab[ncv + j] = sqrt((double)nw[0]);")
            .call({alpha, h, detail::nrm2sq(w), j, ncv, ab}, 1);
        detail::solver_kernel("lanczos_next", false, "T w, raw float64 ab, int64 k", "T v", "v = w / T(ab[k]);")
            .call({w, ab, ncv + j, V(j + 1)});
      }
      const std::vector<double> abh = ab.to_vector<double>();
      i64 restart_at = ncv;
      for (i64 j = jstart; j < ncv; ++j) {
        T[j][j] = abh[j];
        double beta = abh[ncv + j];
        double anorm = 0;
        for (i64 i = 0; i <= j; ++i) anorm = std::max(anorm, std::fabs(T[i][i]));
        if (beta <= eps * std::max(anorm, 1.0) * 10) {
          // an invariant subspace: continue from a fresh vector orthogonal to the basis
          beta = 0;
          ab(ncv + j).fill(0);
          if (j + 1 < n) {
            const ndarray Vj = V(cupp::slice(0, j + 1));
            auto project = [&](const ndarray& x) {
              return cplx ? cupp::conjugate(cupp::matmul(Vj, cupp::conjugate(x))) : cupp::matmul(Vj, x);
            };
            ndarray r = start_vector(n, type, reseed++);
            for (int pass = 0; pass < 2; ++pass) r = r - cupp::matmul(project(r), Vj);
            V(j + 1).assign(r * (1.0 / std::sqrt(detail::nrm2sq(r).item<double>())));
          } else {
            V(j + 1).fill(0);
          }
          restart_at = j + 1;
        }
        if (j + 1 < ncv) T[j][j + 1] = T[j + 1][j] = beta;
        beta_last = beta;
        if (restart_at < ncv) break;
      }
      jstart = restart_at;
    }
    symmetric_eigen_impl(T, theta, S);
    order = by_preference(theta, which, k);
    i64 nconv = 0;
    for (i64 i = 0; i < k; ++i) {
      const std::size_t c = order[i];
      const double res = std::fabs(beta_last * S[ncv - 1][c]);
      if (res <= tol * std::max(std::pow(eps, 2.0 / 3.0), std::fabs(theta[c]))) ++nconv;
    }
    if (nconv >= k) {
      // A Krylov space holds one vector of each eigenspace: a second copy of a multiple eigenvalue
      // enters only through rounding. So a converged set is checked by one more cycle that keeps
      // the k converged Ritz vectors and continues from a fresh random vector orthogonal to them:
      // accepted when no more wanted value appears, else checked again (at most 8 times).
      std::vector<double> now(k);
      for (i64 i = 0; i < k; ++i) now[i] = theta[order[i]];
      bool same = verifying;
      for (i64 i = 0; same && i < k; ++i)
        same = std::fabs(now[i] - locked[i]) <= 1e-10 * std::max(1.0, std::fabs(locked[i]));
      if (same || verifications >= 8 || cycle + 1 == maxiter) {
        done = true;
        break;
      }
      ++verifications;
      verifying = true;
      locked = now;
      std::vector<double> Y(k * ncv);
      for (i64 i = 0; i < k; ++i)
        for (i64 r = 0; r < ncv; ++r) Y[i * ncv + r] = S[r][order[i]];
      const ndarray kept = cupp::matmul(to_type(Y, {k, ncv}, type), V(cupp::slice(0, ncv)));
      V(cupp::slice(0, k)).assign(kept);
      const ndarray Vk = V(cupp::slice(0, k));
      ndarray r = start_vector(n, type, reseed++);
      for (int pass = 0; pass < 2; ++pass) {
        const ndarray c = cplx ? cupp::conjugate(cupp::matmul(Vk, cupp::conjugate(r))) : cupp::matmul(Vk, r);
        r = r - cupp::matmul(c, Vk);
      }
      V(k).assign(r * (1.0 / std::sqrt(detail::nrm2sq(r).item<double>())));
      for (auto& row : T) std::fill(row.begin(), row.end(), 0.0);
      for (i64 i = 0; i < k; ++i) T[i][i] = theta[order[i]];  // the couplings come from the next projections
      j0 = k;
      continue;
    }
    verifying = false;
    if (cycle + 1 == maxiter) break;
    // thick restart: keep the p most wanted Ritz vectors and the residual direction
    const i64 p = std::min(ncv - 1, k + std::max<i64>((ncv - k) / 2, nconv));
    std::vector<double> Y(p * ncv);
    for (i64 i = 0; i < p; ++i)
      for (i64 r = 0; r < ncv; ++r) Y[i * ncv + r] = S[r][order[i]];
    const ndarray kept = cupp::matmul(to_type(Y, {p, ncv}, type), V(cupp::slice(0, ncv)));
    const ndarray resid = V(ncv).copy();
    V(cupp::slice(0, p)).assign(kept);
    V(p).assign(resid);
    for (auto& row : T) std::fill(row.begin(), row.end(), 0.0);
    for (i64 i = 0; i < p; ++i) {
      T[i][i] = theta[order[i]];
      T[i][p] = T[p][i] = beta_last * S[ncv - 1][order[i]];
    }
    j0 = p;
  }
  if (trace_steps()) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();
    std::printf("SPARSE_LINALG_EIGSH n=%lld k=%lld ncv=%lld which=%s %s steps=%lld cycles=%lld verifications=%d "
                "ms=%.3f us_per_step=%.2f converged=%d\n",
                static_cast<long long>(n), static_cast<long long>(k), static_cast<long long>(ncv), which.c_str(),
                fused ? "fused" : "generic", static_cast<long long>(steps), static_cast<long long>(cycles),
                verifications, ms, steps ? 1000 * ms / steps : 0.0, done ? 1 : 0);
    std::fflush(stdout);
  }
  if (!done) {
    throw LinAlgError("ARPACK error -1: No convergence (" + std::to_string(maxiter) +
                      " iterations, fewer than " + std::to_string(k) + "/" + std::to_string(k) +
                      " eigenvectors converged)");
  }
  std::vector<std::size_t> chosen(order.begin(), order.begin() + k);
  std::sort(chosen.begin(), chosen.end(), [&](std::size_t a, std::size_t b) { return theta[a] < theta[b]; });
  lanczos_result r;
  for (std::size_t c : chosen) r.w.push_back(theta[c]);
  if (o.return_eigenvectors) {
    std::vector<double> Y(k * ncv);
    for (i64 i = 0; i < k; ++i)
      for (i64 row = 0; row < ncv; ++row) Y[i * ncv + row] = S[row][chosen[i]];
    r.v = cupp::ascontiguousarray(cupp::matmul(to_type(Y, {k, ncv}, type), V(cupp::slice(0, ncv))).T());
  }
  return r;
}

}  // namespace

namespace detail {
const char* lanczos_program_source() { return lanczos_source; }
std::vector<std::string> lanczos_kernels(const cupp::dtype& t) { return lanczos_kernel_names(t); }
void symmetric_eigen(const std::vector<std::vector<double>>& a, std::vector<double>& w,
                     std::vector<std::vector<double>>& vectors) {
  symmetric_eigen_impl(a, w, vectors);
}
}  // namespace detail

eigsh_result eigsh(const LinearOperator& A, const eigsh_options& o) {
  lanczos_result r = lanczos(A, o, "eigsh");
  const cupp::dtype rt = detail::real_of(detail::solver_type(A.dtype(), float32));
  return {to_type(r.w, {static_cast<i64>(r.w.size())}, rt), r.v};
}

svds_result svds(const LinearOperator& A, const svds_options& o) {
  const shape2 s = A.shape();
  const i64 m = s[0], n = s[1];
  if (o.k <= 0 || o.k >= std::min(m, n))
    throw ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.");
  if (o.which != "LM" && o.which != "SM") throw ValueError("`which` must be either 'LM' or 'SM'.");
  if (!A.has_rmatvec()) throw TypeError("svds: A must provide rmatvec");
  const bool tall = m >= n;
  const LinearOperator G = tall ? A.adjoint().dot(A) : A.dot(A.adjoint());
  eigsh_options eo{.k = o.k, .which = o.which == "LM" ? "LA" : "SA", .v0 = o.v0, .ncv = o.ncv,
                   .maxiter = o.maxiter, .tol = o.tol > 0 ? o.tol * o.tol : 0.0,
                   .return_eigenvectors = true};
  if (o.which == "LM") eo.which = "LM";
  else eo.which = "SM";
  lanczos_result r = lanczos(G, eo, "svds");
  const cupp::dtype type = detail::solver_type(A.dtype(), float32), rt = detail::real_of(type);
  std::vector<double> sv;
  for (double w : r.w) sv.push_back(std::sqrt(std::max(w, 0.0)));
  // ascending singular values: eigenvalues of the Gram matrix are already ascending
  svds_result out;
  out.s = to_type(sv, {static_cast<i64>(sv.size())}, rt);
  if (o.return_singular_vectors) {
    const ndarray vecs = r.v;  // (small side, k)
    const ndarray other = tall ? A.matmat(vecs) : A.adjoint().matmat(vecs);
    const ndarray scaled = other / out.s;  // columns scaled by 1 / s
    const ndarray u = tall ? scaled : vecs;
    const ndarray v = tall ? vecs : scaled;
    out.u = cupp::ascontiguousarray(u);
    out.vh = cupp::ascontiguousarray(detail::is_complex(type) ? cupp::conjugate(v.T()) : v.T());
  }
  return out;
}

}  // namespace cupp::sparse::linalg
