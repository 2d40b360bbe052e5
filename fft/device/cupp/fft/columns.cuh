// The fft module's column FFT (embedded as cupp/fft/columns.cuh; fft/bench/layouts.cu includes
// it too): complex transforms of N = 2^k points (32 to 4096) along a strided axis whose batch is
// adjacent columns (idist 1, as axis 0 of a C-ordered array), in ONE pass over memory. cuFFT reads
// such columns in two passes for long axes (axis 0 of 4096^2 complex64: 1.9x the last-axis time on
// the H200; this kernel tied it there in session 19, and won in complex128 and wherever a norm
// factor is applied). Here a block owns W adjacent columns (W * sizeof(complex) >= 32 bytes: every
// row segment it reads or writes is whole 32-byte sectors), loads all N rows of them, runs a Stockham
// radix-16 FFT (the first pass of radix N / 16^(P-1), then radix 16) in registers with the tile
// exchanged through shared memory (N * W complex values, at most 128 KiB) between passes, and writes
// the result, times `scale` (the norm factor, free here). Inverse transforms conjugate at load and
// store. Twiddles come from a table per pass (entry [r][k] = exp(-2 pi i k r / (16 ns)), so a warp
// reads consecutive entries: one table of exp(-2 pi i k / N) gathered with strides cost the first
// version up to 16 L1 wavefronts a twiddle load), computed on the host in long double and rounded
// to the precision (cuFFT's accuracy). Shared-memory rows are XOR-swizzled so that each pass's accesses are free of
// bank conflicts. With Rows the same passes run over W contiguous transforms a block (the row
// kernel: a norm factor in the stores of a one-pass row FFT, where any cuFFT store callback costs
// 1.28x; it measured 1.71x in session 19, before the per-pass twiddle tables). The pair form
// (pair, cupp_fft_columns_pair) runs a cluster of two blocks per group of columns, each block
// half the rows, so the group can be twice as wide.
//
// The device code is host-callable (plain C++ without __CUDACC__), so a host test runs the same
// passes thread by thread between the barriers (run_column_blocks in tests/unit/fft) against an FFT.
#pragma once

#if !defined(__CUDACC_RTC__)
#include <math.h>
#include <vector_types.h>  // float2, double2 for host code
#endif

#if defined(__CUDACC__)
#define CUPP_FFT_HD __host__ __device__ __forceinline__
#define CUPP_FFT_LDG(p) __ldg(p)
#define CUPP_FFT_UNROLL _Pragma("unroll")
#else
#define CUPP_FFT_UNROLL
#define CUPP_FFT_HD inline
#define CUPP_FFT_LDG(p) (*(p))
#endif

namespace cupp_fft_columns {

// The values are float2 / double2 (cuFFT's cufftComplex / cufftDoubleComplex); real_t is their
// part's type. The few complex helpers below are not the prelude's cupp::dev::complex operators
// (runtime/device/cupp/dev/prelude.cuh, which math.cuh includes; NVRTC would find both, as every
// program gets the runtime's embedded headers): those are __device__ only, in a header that defines
// device globals (the error flag), so the host test could not run these passes thread by thread;
// and their products are rounded apart (__fmul_rn, NumPy's unfused x86 arithmetic), where an FFT's
// twiddle products want NVRTC's fused multiply-adds, as cuFFT's have.
template <class C>
using real_t = decltype(C::x);

template <class C>
CUPP_FFT_HD C cx(real_t<C> x, real_t<C> y) {
  C r;
  r.x = x;
  r.y = y;
  return r;
}
template <class C>
CUPP_FFT_HD C add(C a, C b) {
  return cx<C>(a.x + b.x, a.y + b.y);
}
template <class C>
CUPP_FFT_HD C sub(C a, C b) {
  return cx<C>(a.x - b.x, a.y - b.y);
}
template <class C>
CUPP_FFT_HD C mul(C a, C b) {
  return cx<C>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
template <class C>
CUPP_FFT_HD C conj(C a) {
  return cx<C>(a.x, -a.y);
}

// a * exp(-2 pi i m / 16): exact rotations for m % 4 == 0, (x +- y) * sqrt(1/2) for the odd
// multiples of pi/4, a complex product with cos/sin of pi/8 and 3 pi/8 otherwise. m is a constant
// after unrolling, so the switch folds away.
template <class C>
CUPP_FFT_HD C rot16(C a, int m) {
  using R = real_t<C>;
  const R h = R(0.70710678118654752440084436210484904);
  const R c1 = R(0.92387953251128675612818318939678829);  // cos(pi/8)
  const R s1 = R(0.38268343236508977172845998403039887);  // sin(pi/8)
  switch (m & 15) {
    case 0: return a;
    case 1: return mul(a, cx<C>(c1, -s1));
    case 2: return cx<C>((a.x + a.y) * h, (a.y - a.x) * h);
    case 3: return mul(a, cx<C>(s1, -c1));
    case 4: return cx<C>(a.y, -a.x);
    case 5: return mul(a, cx<C>(-s1, -c1));
    case 6: return cx<C>((a.y - a.x) * h, -(a.x + a.y) * h);
    case 7: return mul(a, cx<C>(-c1, -s1));
    case 8: return cx<C>(-a.x, -a.y);
    case 9: return mul(a, cx<C>(-c1, s1));
    case 10: return cx<C>(-(a.x + a.y) * h, (a.x - a.y) * h);
    case 11: return mul(a, cx<C>(-s1, c1));
    case 12: return cx<C>(-a.y, a.x);
    case 13: return mul(a, cx<C>(s1, c1));
    case 14: return cx<C>((a.x - a.y) * h, (a.x + a.y) * h);
    default: return mul(a, cx<C>(c1, s1));
  }
}

// The forward DFT of R (2, 4, 8 or 16) values v[0], v[S], ..., v[(R-1) S], in place, in natural
// order. R = A * B (Cooley-Tukey): A-point DFTs over n1 for each n2 (n = B n1 + n2), twiddles
// w_R^(n2 k1), B-point DFTs over n2, and the digit transpose (position B k1 + k2 holds X[k1 + A k2]).
template <class C, int R, int S = 1>
CUPP_FFT_HD void dft(C* v) {
  if constexpr (R == 2) {
    const C a = v[0], b = v[S];
    v[0] = add(a, b);
    v[S] = sub(a, b);
  } else if constexpr (R == 4) {
    const C t0 = add(v[0], v[2 * S]), t1 = sub(v[0], v[2 * S]);
    const C t2 = add(v[S], v[3 * S]), d = sub(v[S], v[3 * S]);
    const C t3 = cx<C>(d.y, -d.x);  // (v1 - v3) * -i
    v[0] = add(t0, t2);
    v[2 * S] = sub(t0, t2);
    v[S] = add(t1, t3);
    v[3 * S] = sub(t1, t3);
  } else {
    constexpr int A = R == 8 ? 2 : 4, B = 4;
    static_assert(R == A * B, "radix 2, 4, 8 or 16");
CUPP_FFT_UNROLL
    for (int n2 = 0; n2 < B; ++n2) dft<C, A, B * S>(v + n2 * S);
CUPP_FFT_UNROLL
    for (int k1 = 1; k1 < A; ++k1)
CUPP_FFT_UNROLL
      for (int n2 = 1; n2 < B; ++n2) v[(B * k1 + n2) * S] = rot16(v[(B * k1 + n2) * S], n2 * k1 * (16 / R));
CUPP_FFT_UNROLL
    for (int k1 = 0; k1 < A; ++k1) dft<C, B, S>(v + B * k1 * S);
    C t[R];
CUPP_FFT_UNROLL
    for (int k = 0; k < R; ++k) t[k] = v[(B * (k % A) + k / A) * S];
CUPP_FFT_UNROLL
    for (int k = 0; k < R; ++k) v[k * S] = t[k];
  }
}

CUPP_FFT_HD constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }
// The first pass's radix for n = 2^k points (2, 4, 8 or 16; the other passes are radix 16).
CUPP_FFT_HD constexpr int first_radix(int n) { return n >> (4 * ((log2_of(n) - 1) / 4)); }
// Where the twiddles of the radix-16 pass combining sub-transforms of ns points start in the
// table: each such pass has 16 ns entries, [r][k] = exp(-2 pi i k r / (16 ns)) (r < 16, k < ns),
// so that a warp's threads (consecutive k) read consecutive entries; the passes' ns are R0,
// 16 R0, ..., n / 16, so the pass of ns starts at 16 (ns - R0) / 15.
CUPP_FFT_HD constexpr int twiddle_offset(int n, int ns) { return 16 * (ns - first_radix(n)) / 15; }
// The table's length for n points (about 1.07 n).
CUPP_FFT_HD constexpr int twiddle_count(int n) { return twiddle_offset(n, n); }

// One value copied from global to shared memory without passing through registers (cp.async,
// sm_80 on: 8 or 16 bytes, cached in L1 as an ordinary load is), and the wait for all of the
// thread's copies; on the host (the tests' model) a plain copy and nothing.
template <class C>
CUPP_FFT_HD void cupp_fft_async_copy(C* shared, const C* global) {
#if defined(__CUDA_ARCH__)
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(global), "n"(int(sizeof(C))) : "memory");
#else
  *shared = *global;
#endif
}
CUPP_FFT_HD void cupp_fft_async_commit() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
CUPP_FFT_HD void cupp_fft_async_wait() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.wait_group 0;" ::: "memory");
#endif
}

// The passes of an N-point transform over W columns: what a block of `threads` runs. Skew (Rows
// only): extra elements between the tile's transforms, for a last pass read in the column order
// (the four-step rows pass, four_step.cuh).
template <class C, int N, int W, bool Rows = false, int Skew = 0>
struct columns {
  using real = real_t<C>;
  static_assert(N >= 32 && N <= 8192 && (N & (N - 1)) == 0, "N a power of two, 32 to 8192");
  static constexpr int T = N / 16;        // threads per column: each holds 16 values
  static constexpr int threads = T * W;   // the block
  static constexpr int R0 = first_radix(N);  // the first radix: 2, 4, 8 or 16
  static constexpr int Q0 = 16 / R0;      // first-pass butterflies per thread
  static constexpr int G = 128 / (W * int(sizeof(C))) > 1 ? 128 / (W * int(sizeof(C))) : 1;  // rows per 128 B
  static constexpr int S = log2_of(R0);
  static constexpr int shared_bytes = N * W * int(sizeof(C));
  static_assert(threads <= 1024, "at most 1024 threads");

  // Rows (the row kernel: contiguous transforms, W of them a block): a thread's point index t runs
  // fastest (a warp reads 32 adjacent points), the tile column-major with one pad element every 16
  // points. Columns: the column index c runs fastest (a warp reads whole row segments of W
  // columns), the tile row-major with its rows XOR-swizzled in their low bits by the bits above
  // the first radix. Either way the first pass's stores (points R0 j + r) spread over the banks
  // like the other passes' accesses (aligned runs of consecutive points).
  static constexpr int padded = N + N / 16 + Skew;
  static constexpr int shared_bytes_rows = W * padded * int(sizeof(C));
  static CUPP_FFT_HD int point_of(int tid) { return Rows ? tid % T : tid / W; }
  static CUPP_FFT_HD int column_of(int tid) { return Rows ? tid / T : tid % W; }
  static CUPP_FFT_HD int slot(int row, int c) {
    if (Rows) return c * padded + row + row / 16;
    const int phys = G > 1 ? row ^ ((row >> S) & (G - 1)) : row;
    return phys * W + c;
  }
  static constexpr int tile_bytes = Rows ? shared_bytes_rows : shared_bytes;
  // The blocks an SM __launch_bounds__ asks for (ptxas takes registers up to what it is told: it
  // gave the 256-thread complex64 row kernel 80 registers unbounded but 128 when told 2 blocks, and
  // the complex128 one 144, one block an SM): threads up to 768 (rows) or 1024 (columns) in
  // complex64, 512 in complex128, as many as the shared memory holds (227 KiB an SM).
  static constexpr int thread_budget = int(sizeof(C)) == 8 ? (Rows ? 768 : 1024) : 512;
  static constexpr int by_threads = thread_budget / threads, by_shared = (227 * 1024) / tile_bytes;
  static constexpr int min_blocks = (by_threads < by_shared ? by_threads : by_shared) > 1
                                        ? (by_threads < by_shared ? by_threads : by_shared)
                                        : 1;

  struct args {
    const C* in;
    C* out;
    long long ncols;              // columns in all (the last block may hold fewer than W)
    long long istride, idist;     // elements: row step, column step (1 for adjacent columns)
    long long ostride, odist;
    const C* twiddles;            // twiddle_count(N) entries: fill_twiddles' table
    real scale;
    int inverse;
  };

  // Pass 0: the thread's 16 values from global memory (rows j + r N/R0 for its Q0 butterflies
  // j = t + i T), R0-point DFTs, into the tile (Stockham with Ns = 1: row R0 j + r).
  static CUPP_FFT_HD void first(const args& a, long long col0, int tid, C* v, C* tile) {
    const int c = column_of(tid), t = point_of(tid);
    const long long col = col0 + c;
    const bool valid = col < a.ncols;
    const C* in = a.in + col * a.idist;
CUPP_FFT_UNROLL
    for (int i = 0; i < Q0; ++i)
CUPP_FFT_UNROLL
      for (int r = 0; r < R0; ++r) {
        const long long row = t + i * T + r * (N / R0);
        C x = valid ? in[row * a.istride] : cx<C>(0, 0);
        v[i * R0 + r] = a.inverse ? conj(x) : x;
      }
    spread(tid, v, tile);
  }
  // Pass 0 after the loads: the R0-point DFTs of v, into the tile.
  static CUPP_FFT_HD void spread(int tid, C* v, C* tile) {
    const int c = column_of(tid), t = point_of(tid);
CUPP_FFT_UNROLL
    for (int i = 0; i < Q0; ++i) dft<C, R0>(v + i * R0);
CUPP_FFT_UNROLL
    for (int i = 0; i < Q0; ++i)
CUPP_FFT_UNROLL
      for (int r = 0; r < R0; ++r) tile[slot((t + i * T) * R0 + r, c)] = v[i * R0 + r];
  }

  // The pipelined row kernel (cupp_fft_rows_pipelined, Rows only): the thread's 16 input values
  // of the group at col0 (the same points first() loads) copied asynchronously into `buffer`
  // (W * N values, transform c's point r at c N + r) while the block computes the group before;
  // take() reads them back after cupp_fft_async_wait. Each thread copies and reads only its own
  // values, so no barrier orders the buffer (cp.async's copies are visible to the thread that
  // waited for them).
  static CUPP_FFT_HD void fetch(const args& a, long long col0, int tid, C* buffer) {
    const int c = column_of(tid), t = point_of(tid);
    if (col0 + c >= a.ncols) return;
    const C* in = a.in + (col0 + c) * a.idist;
CUPP_FFT_UNROLL
    for (int i = 0; i < Q0; ++i)
CUPP_FFT_UNROLL
      for (int r = 0; r < R0; ++r) {
        const int row = t + i * T + r * (N / R0);
        cupp_fft_async_copy(buffer + c * N + row, in + static_cast<long long>(row) * a.istride);
      }
  }
  static CUPP_FFT_HD void take(const args& a, long long col0, int tid, C* v, const C* buffer) {
    const int c = column_of(tid), t = point_of(tid);
    const bool valid = col0 + c < a.ncols;
CUPP_FFT_UNROLL
    for (int i = 0; i < Q0; ++i)
CUPP_FFT_UNROLL
      for (int r = 0; r < R0; ++r) {
        const C x = valid ? buffer[c * N + t + i * T + r * (N / R0)] : cx<C>(0, 0);
        v[i * R0 + r] = a.inverse ? conj(x) : x;
      }
  }
  // Its dynamic shared memory (the tile, then the buffer) and the blocks an SM it asks for.
  static constexpr int pipelined_bytes = tile_bytes + N * W * int(sizeof(C));
  static constexpr int pipelined_by_shared = (227 * 1024) / pipelined_bytes;
  static constexpr int pipelined_min_blocks = (by_threads < pipelined_by_shared ? by_threads : pipelined_by_shared) > 1
                                                  ? (by_threads < pipelined_by_shared ? by_threads : pipelined_by_shared)
                                                  : 1;

  // A radix-16 pass combining sub-transforms of ns points: the thread's butterfly j = t reads rows
  // j + r T, twiddles them by w^(k r) (k = j mod ns, w = exp(-2 pi i / (16 ns)); entry [r][k] of
  // the pass's table, consecutive over a warp's k) and runs the DFT.
  static CUPP_FFT_HD void pass(const args& a, int ns, int tid, C* v, const C* tile) {
    pass_at(a, ns, point_of(tid), column_of(tid), v, tile);
  }
  // The same for the butterfly t of column c, whichever thread runs it.
  static CUPP_FFT_HD void pass_at(const args& a, int ns, int t, int c, C* v, const C* tile) {
    const C* w = a.twiddles + twiddle_offset(N, ns) + t % ns;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) v[r] = tile[slot(t + r * T, c)];
CUPP_FFT_UNROLL
    for (int r = 1; r < 16; ++r) v[r] = mul(v[r], CUPP_FFT_LDG(w + r * ns));
    dft<C, 16>(v);
  }

  // After a pass that is not the last: row (j / ns) 16 ns + k + r ns of the tile.
  static CUPP_FFT_HD void store(int ns, int tid, const C* v, C* tile) {
    const int c = column_of(tid), t = point_of(tid);
    const int base = (t / ns) * ns * 16 + t % ns;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) tile[slot(base + r * ns, c)] = v[r];
  }

  // After the last pass (ns = N / 16): rows j + r T of the output, scaled (and conjugated back).
  static CUPP_FFT_HD void last(const args& a, long long col0, int tid, const C* v) {
    const int c = column_of(tid), t = point_of(tid);
    const long long col = col0 + c;
    if (col >= a.ncols) return;
    C* out = a.out + col * a.odist;
    const real s = a.scale, si = a.inverse ? -a.scale : a.scale;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) out[(long long)(t + r * T) * a.ostride] = cx<C>(v[r].x * s, v[r].y * si);
  }
};

// The pair form (cupp_fft_columns_pair): a cluster of two blocks per W adjacent columns, so that
// W can be twice what one block's tile holds (complex64 4096 points: W = 8, 64-byte row segments).
// Block q loads rows q, q + 2, ... (args.in shifted by q rows, istride doubled) and runs the
// N/2-point transform of them with the passes above; pair_keep leaves E (q = 0) or w^k O (q = 1)
// in its tile (w = exp(-2 pi i / N), k < N/2, from the table after the N/2-point twiddles), and
// after a cluster barrier pair_combine writes X[k] = E[k] + w^k O[k] (q = 0) or X[k + N/2] =
// E[k] - w^k O[k] (q = 1), reading the other block's tile through distributed shared memory.
template <class C, int N, int W>
struct pair {
  using K = columns<C, N / 2, W>;
  using real = real_t<C>;
  static constexpr int threads = K::threads;
  static constexpr int tile_bytes = K::tile_bytes;
  // The table: the N/2-point transform's, then w^k for k < N/2.
  static CUPP_FFT_HD constexpr int twiddle_entries() { return twiddle_count(N / 2) + N / 2; }

  static CUPP_FFT_HD void keep(int q, int tid, const C* v, C* tile, const C* twiddles) {
    const int c = K::column_of(tid), t = K::point_of(tid);
    const C* w = twiddles + twiddle_count(N / 2);
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) {
      const int k = t + r * K::T;
      tile[K::slot(k, c)] = q ? mul(v[r], CUPP_FFT_LDG(w + k)) : v[r];
    }
  }

  // out, ostride, ncols, scale and inverse from `a` (the whole transform's output).
  static CUPP_FFT_HD void combine(const typename K::args& a, int q, long long col0, int tid, const C* mine,
                                  const C* other) {
    const int c = K::column_of(tid), t = K::point_of(tid);
    const long long col = col0 + c;
    if (col >= a.ncols) return;
    C* out = a.out + col * a.odist;
    const real s = a.scale, si = a.inverse ? -a.scale : a.scale;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) {
      const int k = t + r * K::T;
      const C m = mine[K::slot(k, c)], o = other[K::slot(k, c)];
      const C x = q ? sub(o, m) : add(m, o);  // (q = 1 holds w^k O: E is the other's)
      out[(static_cast<long long>(q) * (N / 2) + k) * a.ostride] = cx<C>(x.x * s, x.y * si);
    }
  }
};

#if !defined(__CUDACC_RTC__)
// The twiddle table of an n-point transform (twiddle_count(n) entries; twiddle_offset says how it
// is laid out), from long double cos/sin rounded to the precision (host code; the engine and the
// layout study upload it).
template <class C>
inline void fill_twiddles(C* table, int n) {
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int ns = first_radix(n); ns < n; ns *= 16)
    for (int r = 0; r < 16; ++r)
      for (int k = 0; k < ns; ++k) {
        const long double angle =
            -2.0L * pi * static_cast<long double>(k * r) / static_cast<long double>(16 * ns);
        table[twiddle_offset(n, ns) + r * ns + k] = cx<C>(static_cast<real_t<C>>(cosl(angle)),
                                                        static_cast<real_t<C>>(sinl(angle)));
      }
}

// The pair form's table (pair<C, n, W>::twiddle_entries()): the n/2-point table, then
// exp(-2 pi i k / n) for k < n/2.
template <class C>
inline void fill_pair_twiddles(C* table, int n) {
  fill_twiddles(table, n / 2);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int k = 0; k < n / 2; ++k) {
    const long double angle = -2.0L * pi * static_cast<long double>(k) / static_cast<long double>(n);
    table[twiddle_count(n / 2) + k] = cx<C>(static_cast<real_t<C>>(cosl(angle)),
                                            static_cast<real_t<C>>(sinl(angle)));
  }
}
#endif

#if defined(__CUDACC__)
// After pass 0 has filled the tile: the barrier and the radix-16 passes through the tile but the
// last (the four-step rows pass runs that one in its own thread order).
template <class K, class C>
__device__ __forceinline__ void cupp_fft_middle_passes(const typename K::args& a, int tid, C* v, C* tile) {
  __syncthreads();
  for (int ns = K::R0; ns < K::T; ns *= 16) {
    K::pass(a, ns, tid, v, tile);
    __syncthreads();
    K::store(ns, tid, v, tile);
    __syncthreads();
  }
}
// The same and the last pass into v (K::last or the pair's keep stores it). The host tests run
// the same sequence thread by thread (run_column_blocks).
template <class K, class C>
__device__ __forceinline__ void cupp_fft_passes(const typename K::args& a, int tid, C* v, C* tile) {
  cupp_fft_middle_passes<K>(a, tid, v, tile);
  K::pass(a, K::T, tid, v, tile);
}

// One block per W adjacent columns (blockIdx.x: columns W * blockIdx.x on; with Rows, W rows),
// `threads` threads, tile_bytes of dynamic shared memory.
template <class C, int N, int W, bool Rows = false>
__global__ void __launch_bounds__(columns<C, N, W, Rows>::threads, columns<C, N, W, Rows>::min_blocks)
    cupp_fft_columns(const C* in, C* out, long long ncols, long long istride, long long idist, long long ostride,
                     long long odist, const C* twiddles, real_t<C> scale, int inverse) {
  using K = columns<C, N, W, Rows>;
  extern __shared__ __align__(16) unsigned char cupp_fft_columns_shared[];
  C* tile = reinterpret_cast<C*>(cupp_fft_columns_shared);
  const typename K::args a{in, out, ncols, istride, idist, ostride, odist, twiddles, scale, inverse};
  const long long col0 = static_cast<long long>(blockIdx.x) * W;
  const int tid = threadIdx.x;
  C v[16];
  K::first(a, col0, tid, v, tile);
  cupp_fft_passes<K>(a, tid, v, tile);
  K::last(a, col0, tid, v);
}

// The pipelined row kernel (CUPP_FFT_ROW_KERNEL=2, plan_key::engine 4; the row kernel's passes):
// a grid of at most as many blocks as fit on the device at once, each looping over groups of W
// rows (blockIdx.x, + gridDim.x, ...) with the next group's loads in flight (cp.async into a
// buffer after the tile) while it transforms the current one, so that the loads of one group
// overlap the passes of the one before instead of every block waiting for its own loads.
// pipelined_bytes of dynamic shared memory; the same arguments as cupp_fft_columns. MinBlocks (0:
// pipelined_min_blocks, as many as threads and shared memory allow: 3 for complex64, where ptxas
// then spills 112 bytes at 4096 points and none when told 2, at 128 registers) is for the study.
template <class C, int N, int W, int MinBlocks = 0>
__global__ void __launch_bounds__(columns<C, N, W, true>::threads,
                                  MinBlocks > 0 ? MinBlocks : columns<C, N, W, true>::pipelined_min_blocks)
    cupp_fft_rows_pipelined(const C* in, C* out, long long ncols, long long istride, long long idist, long long ostride,
                            long long odist, const C* twiddles, real_t<C> scale, int inverse) {
  using K = columns<C, N, W, true>;
  extern __shared__ __align__(16) unsigned char cupp_fft_rows_shared[];
  C* tile = reinterpret_cast<C*>(cupp_fft_rows_shared);
  C* buffer = tile + K::tile_bytes / int(sizeof(C));
  const typename K::args a{in, out, ncols, istride, idist, ostride, odist, twiddles, scale, inverse};
  const long long groups = (ncols + W - 1) / W;
  const int tid = threadIdx.x;
  long long g = blockIdx.x;
  if (g < groups) K::fetch(a, g * W, tid, buffer);
  cupp_fft_async_commit();
  for (; g < groups; g += gridDim.x) {
    C v[16];
    cupp_fft_async_wait();
    K::take(a, g * W, tid, v, buffer);
    if (g + gridDim.x < groups) K::fetch(a, (g + gridDim.x) * W, tid, buffer);
    cupp_fft_async_commit();
    K::spread(tid, v, tile);
    cupp_fft_passes<K>(a, tid, v, tile);
    K::last(a, g * W, tid, v);
    __syncthreads();  // every read of the tile done before the next group's spread writes it
  }
}

// The cluster barrier (every thread of both blocks; release/acquire orders the tiles' stores).
__device__ __forceinline__ void cupp_fft_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// The pair form (pair<C, N, W> above): blocks 2 g and 2 g + 1 (a cluster) own columns W g on; the
// same arguments as cupp_fft_columns, the twiddles pair::twiddle_entries() long.
template <class C, int N, int W>
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(pair<C, N, W>::threads)
    cupp_fft_columns_pair(const C* in, C* out, long long ncols, long long istride, long long idist, long long ostride,
                          long long odist, const C* twiddles, real_t<C> scale, int inverse) {
  using P = pair<C, N, W>;
  using K = typename P::K;
  extern __shared__ __align__(16) unsigned char cupp_fft_pair_shared[];
  C* tile = reinterpret_cast<C*>(cupp_fft_pair_shared);
  unsigned q = 0;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(q));
  const typename K::args half{in + q * istride, out, ncols, 2 * istride, idist, ostride, odist, twiddles, scale, inverse};
  const long long col0 = static_cast<long long>(blockIdx.x / 2) * W;
  const int tid = threadIdx.x;
  C v[16];
  K::first(half, col0, tid, v, tile);
  cupp_fft_passes<K>(half, tid, v, tile);
  __syncthreads();  // every read of the tile done before it holds this half's result
  P::keep(static_cast<int>(q), tid, v, tile, twiddles);
  cupp_fft_cluster_sync();
  unsigned long long other = 0;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(other) : "l"(tile), "r"(q ^ 1u));
  P::combine(half, static_cast<int>(q), col0, tid, tile, reinterpret_cast<const C*>(other));
  cupp_fft_cluster_sync();  // the other block may still read this tile
}
#endif

}  // namespace cupp_fft_columns
