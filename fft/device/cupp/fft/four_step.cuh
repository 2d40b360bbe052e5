// The fft module's four-step long transform (embedded as cupp/fft/four_step.cuh; src/columns.cpp
// runs it as plan engine 5): complex transforms of N = N1 * N2 points (N1, N2 powers of two from
// 32 to 4096), one per contiguous batch row, in two passes over memory with the norm factor in the
// second pass's stores, where cuFFT's long plan and a scaling pass make four or more:
//   columns pass: the row viewed as N1 rows of N2 (point n = N2 n1 + n2), the N1-point transforms
//     down its N2 columns (columns.cuh's column kernel, W1 adjacent columns a block), each result
//     times w_N^(n2 k1), into the scratch at k1 N2 + n2;
//   rows pass: the scratch's N1 rows, N2-point transforms (the row kernel's loads: W2 whole rows a
//     block), result k2 of row k1 stored at k1 + N1 k2, times the factor. The block's last radix
//     pass reads its tile in the column order, so the W2 rows' results at one k2 are adjacent
//     values: whole 32-byte sectors, as the column kernel writes.
// X[k1 + N1 k2] = sum_n2 w_N2^(n2 k2) w_N^(n2 k1) sum_n1 x[N2 n1 + n2] w_N1^(n1 k1), w_M = exp(-2 pi i / M).
// Inverse transforms conjugate at the columns pass's loads and the rows pass's stores. The middle
// twiddles w_N^m (m = n2 k1 < N) come from two tables, w_N^m = hi[m >> L] * lo[m & (2^L - 1)] with
// lo[j] = w_N^j and hi[j] = w_N^(j 2^L), L = four_step_lo_bits(log2 N): 2^L and N / 2^L entries
// (at most 4096 each), from long double on the host. The plan's twiddle memory holds the
// N1-point table, the N2-point table, lo and hi, in that order (four_step_offsets).
// Host-callable like columns.cuh: the host test (tests/unit/fft) runs both passes thread by thread.
#pragma once

#if defined(__CUDACC_RTC__)
#include <cupp/fft/columns.cuh>
#else
#include "columns.cuh"
#endif

namespace cupp_fft_columns {

CUPP_FFT_HD constexpr int four_step_lo_bits(int log2n) { return (log2n + 1) / 2; }

// Where each table of the four-step transform of n1 x n2 points starts in the plan's twiddle
// memory, and the entries in all.
struct four_step_layout {
  int columns_table, rows_table, lo, hi, total;
};
CUPP_FFT_HD constexpr four_step_layout four_step_offsets(int n1, int n2) {
  return {0, twiddle_count(n1), twiddle_count(n1) + twiddle_count(n2),
          twiddle_count(n1) + twiddle_count(n2) + (1 << four_step_lo_bits(log2_of(n1) + log2_of(n2))),
          twiddle_count(n1) + twiddle_count(n2) + (1 << four_step_lo_bits(log2_of(n1) + log2_of(n2))) +
              (n1 * n2 >> four_step_lo_bits(log2_of(n1) + log2_of(n2)))};
}

// The columns pass: N1-point transforms down N2 columns, W of them a block (N2 for the layout of
// the twiddle memory and the middle twiddles, both constants).
template <class C, int N1, int N2, int W>
struct four_step_columns {
  using K = columns<C, N1, W>;
  static constexpr int width = W;
  static constexpr four_step_layout at = four_step_offsets(N1, N2);
  static constexpr int lo_bits = four_step_lo_bits(log2_of(N1) + log2_of(N2));
  struct args {
    const C* in;         // the batch's first row
    C* scratch;          // as large as the input
    const C* twiddles;   // the plan's twiddle memory (four_step_offsets)
    long long dist;      // elements from one batch row to the next (in and scratch)
    int inverse;
  };
  // The column kernel's arguments for batch row b.
  static CUPP_FFT_HD typename K::args inner_args(const args& a, long long b) {
    return {a.in + b * a.dist, nullptr, N2, N2, 1, N2, 1, a.twiddles + at.columns_table, 1, a.inverse};
  }
  // After the last radix pass: result k1 = t + r T of column n2 = col0 + c, times w_N^(n2 k1),
  // into the scratch at k1 N2 + n2 (no factor, no conjugate: the rows pass takes them).
  static CUPP_FFT_HD void last(const args& a, long long b, long long col0, int tid, const C* v) {
    const int c = K::column_of(tid), t = K::point_of(tid);
    const long long col = col0 + c;
    if (col >= N2) return;
    const C* lo = a.twiddles + at.lo;
    const C* hi = a.twiddles + at.hi;
    C* out = a.scratch + b * a.dist + col;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) {
      const int k1 = t + r * K::T;
      const unsigned m = static_cast<unsigned>(k1) * static_cast<unsigned>(col);
      const C w = mul(CUPP_FFT_LDG(hi + (m >> lo_bits)), CUPP_FFT_LDG(lo + (m & ((1u << lo_bits) - 1u))));
      out[static_cast<long long>(k1) * N2] = mul(v[r], w);
    }
  }
  // The block's end after the middle passes: the last radix pass and the stores (no tile writes).
  static CUPP_FFT_HD void finish(const typename K::args& ka, const args& a, long long b, long long col0, int tid, C* v,
                                 const C* tile) {
    K::pass(ka, K::T, tid, v, tile);
    last(a, b, col0, tid, v);
  }
};

// The rows pass: N2-point transforms of the scratch's N1 rows, W of them a block.
template <class C, int N1, int N2, int W>
struct four_step_rows {
  // The tile's transforms Skew elements further apart, so that the last pass's column-order
  // reads (W transforms, 32 / W points a warp) fall on distinct banks in complex64.
  static constexpr int skew = sizeof(C) == 8 ? 4 : 0;
  using K = columns<C, N2, W, true, skew>;
  using real = real_t<C>;
  static constexpr int width = W;
  struct args {
    const C* scratch;
    C* out;
    const C* twiddles;   // the plan's twiddle memory
    real scale;
    long long dist;
    int inverse;
  };
  // The row kernel's arguments for batch row b.
  static CUPP_FFT_HD typename K::args inner_args(const args& a, long long b) {
    return {a.scratch + b * a.dist, nullptr, N1, 1, N2, 1, N2, a.twiddles + four_step_offsets(N1, N2).rows_table, 1, 0};
  }
  // The last radix pass with thread tid on butterfly tid / W of row tid % W (column order).
  static CUPP_FFT_HD void last_pass(const typename K::args& ka, int tid, C* v, const C* tile) {
    K::pass_at(ka, K::T, tid / W, tid % W, v, tile);
  }
  // Its results k2 = t + r T of row k1 = row0 + c at k1 + N1 k2, scaled (and conjugated back).
  static CUPP_FFT_HD void last(const args& a, long long b, long long row0, int tid, const C* v) {
    const int c = tid % W, t = tid / W;
    const long long row = row0 + c;
    if (row >= N1) return;
    C* out = a.out + b * a.dist + row;
    const real s = a.scale, si = a.inverse ? -a.scale : a.scale;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) out[static_cast<long long>(t + r * K::T) * N1] = cx<C>(v[r].x * s, v[r].y * si);
  }
  static CUPP_FFT_HD void finish(const typename K::args& ka, const args& a, long long b, long long row0, int tid, C* v,
                                 const C* tile) {
    last_pass(ka, tid, v, tile);
    last(a, b, row0, tid, v);
  }
};

// The axis four-step transform (engine 6): transforms of N = N1 N2 points (N1, N2 from 32 to
// 64) down ncols adjacent columns (axis 0 of a C-ordered array: points istride / ostride apart,
// columns adjacent), in two passes through a scratch that stays in L2. Point p = N2 p1 + p2:
//   pass A, item (slab, group, p2): the N1-point transforms over p1 of W adjacent columns (rows
//     N2 p1 + p2, whole 128-byte row segments in complex64), times w_N^(p2 k1), into the scratch
//     (dense, ncols a row) at row k1 N2 + p2;
//   pass B, item (slab, group, k1): the N2-point transforms over p2 of the scratch's rows
//     k1 N2 + p2 (N2 adjacent rows), result k2 at row k1 + N1 k2 of the output, times the factor.
// The columns are cut into slabs of slab_cols; the items of a slab's pass B can run once all of
// its pass A has. One kernel runs every item: its blocks take tickets in the order A0, A1, B0, A2,
// B1, ..., B(L-1) (axis_phase), a pass B item waits until its slab's pass A has counted all of its
// items done, so a slab's scratch is read back while it is still in L2, and the reads of slab s
// overlap the writes of slab s + 1. No deadlock: a block takes a ticket only after finishing its
// last item, so every item a waiting item needs holds an earlier ticket, taken by a running
// block, and pass A items never wait. Inverse transforms conjugate at pass A's loads and pass
// B's stores. Twiddles: pass A's N1-point table, pass B's N2-point table, then lo and hi
// (four_step_offsets(N1, N2)).
CUPP_FFT_HD constexpr int max_of(int a, int b) { return a > b ? a : b; }

template <class C, int N1, int N2, int W>
struct axis_four_step {
  using KA = columns<C, N1, W>;
  using KB = columns<C, N2, W>;
  using real = real_t<C>;
  static constexpr int threads = max_of(KA::threads, KB::threads);
  static constexpr int tile_bytes = max_of(KA::tile_bytes, KB::tile_bytes);
  struct args {
    const C* in;
    C* scratch;          // N rows of ncols
    C* out;
    long long ncols, istride, ostride;
    const C* twiddles;
    real scale;
    int inverse;
    long long slab_cols;  // a multiple of W
    unsigned long long* counters;  // [0] the next ticket, [1 + s] slab s's pass A items done
  };
  static CUPP_FFT_HD long long slabs(const args& a) { return (a.ncols + a.slab_cols - 1) / a.slab_cols; }
  static CUPP_FFT_HD long long groups(const args& a, long long s) {
    const long long first = s * a.slab_cols, cols = a.ncols - first < a.slab_cols ? a.ncols - first : a.slab_cols;
    return (cols + W - 1) / W;
  }
  // Phase q of the ticket order (0 .. 2 slabs): pass B (true) or A, and its slab.
  static CUPP_FFT_HD void phase(long long q, long long nslabs, bool& b, long long& s) {
    if (q == 0) {
      b = false, s = 0;
    } else if (q == 2 * nslabs - 1) {
      b = true, s = nslabs - 1;
    } else {
      b = q % 2 == 0;
      s = b ? q / 2 - 1 : (q + 1) / 2;
    }
  }
  static CUPP_FFT_HD long long items(const args& a, bool b, long long s) { return groups(a, s) * (b ? N1 : N2); }
  static CUPP_FFT_HD long long total_items(const args& a) { return (N1 + N2) * ((a.ncols + W - 1) / W); }
  // Ticket i: its pass, slab, group (column col0 on) and p2 (pass A) or k1 (pass B).
  struct item {
    bool b;
    long long s, col0;
    int j;
  };
  static CUPP_FFT_HD item decode(const args& a, long long i) {
    const long long nslabs = slabs(a);
    for (long long q = 0; q < 2 * nslabs; ++q) {
      item it{};
      phase(q, nslabs, it.b, it.s);
      const long long n = items(a, it.b, it.s);
      if (i < n) {
        const int per_group = it.b ? N1 : N2;
        it.col0 = it.s * a.slab_cols + (i / per_group) * W;
        it.j = static_cast<int>(i % per_group);
        return it;
      }
      i -= n;
    }
    return {false, -1, 0, 0};
  }
  static CUPP_FFT_HD typename KA::args a_args(const args& a, int p2) {
    return {a.in + p2 * a.istride, nullptr, a.ncols, N2 * a.istride, 1, 0, 1, a.twiddles, 1, a.inverse};
  }
  static CUPP_FFT_HD typename KB::args b_args(const args& a, int k1) {
    const four_step_layout at = four_step_offsets(N1, N2);
    return {a.scratch + static_cast<long long>(k1) * N2 * a.ncols, nullptr, a.ncols, a.ncols, 1, 0, 1,
            a.twiddles + at.rows_table, 1, 0};
  }
  // Pass A's stores: result k1 of column col0 + c times w_N^(p2 k1), at scratch row k1 N2 + p2.
  static CUPP_FFT_HD void a_last(const args& a, long long col0, int p2, int tid, const C* v) {
    const int c = KA::column_of(tid), t = KA::point_of(tid);
    const long long col = col0 + c;
    if (col >= a.ncols) return;
    const four_step_layout at = four_step_offsets(N1, N2);
    constexpr int lo_bits = four_step_lo_bits(log2_of(N1) + log2_of(N2));
    const C* lo = a.twiddles + at.lo;
    const C* hi = a.twiddles + at.hi;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r) {
      const int k1 = t + r * KA::T, m = p2 * k1;
      const C w = mul(CUPP_FFT_LDG(hi + (m >> lo_bits)), CUPP_FFT_LDG(lo + (m & ((1 << lo_bits) - 1))));
      a.scratch[static_cast<long long>(k1 * N2 + p2) * a.ncols + col] = mul(v[r], w);
    }
  }
  // Pass B's stores: result k2 of column col0 + c at output row k1 + N1 k2, scaled (and conjugated back).
  static CUPP_FFT_HD void b_last(const args& a, long long col0, int k1, int tid, const C* v) {
    const int c = KB::column_of(tid), t = KB::point_of(tid);
    const long long col = col0 + c;
    if (col >= a.ncols) return;
    const real s = a.scale, si = a.inverse ? -a.scale : a.scale;
CUPP_FFT_UNROLL
    for (int r = 0; r < 16; ++r)
      a.out[static_cast<long long>(k1 + N1 * (t + r * KB::T)) * a.ostride + col] = cx<C>(v[r].x * s, v[r].y * si);
  }
};

#if !defined(__CUDACC_RTC__)
// The plan's twiddle memory for n1 x n2 points (four_step_offsets(n1, n2).total entries): both
// passes' tables (fill_twiddles) and the middle twiddles' lo and hi, from long double.
template <class C>
inline void fill_four_step_twiddles(C* table, int n1, int n2) {
  const four_step_layout at = four_step_offsets(n1, n2);
  fill_twiddles(table + at.columns_table, n1);
  fill_twiddles(table + at.rows_table, n2);
  const int lo_bits = four_step_lo_bits(log2_of(n1) + log2_of(n2));
  const long double pi = 3.141592653589793238462643383279502884L, n = static_cast<long double>(n1) * n2;
  auto w = [&](long double m) {
    const long double angle = -2.0L * pi * m / n;
    return cx<C>(static_cast<real_t<C>>(cosl(angle)), static_cast<real_t<C>>(sinl(angle)));
  };
  for (int j = 0; j < (1 << lo_bits); ++j) table[at.lo + j] = w(j);
  for (int j = 0; j < at.total - at.hi; ++j) table[at.hi + j] = w(static_cast<long double>(j) * (1 << lo_bits));
}
#endif

#if defined(__CUDACC__)
// One block of either pass (F: four_step_columns or four_step_rows): group blockIdx.x of F::width
// columns (rows) of batch row blockIdx.y.
template <class F, class C>
__device__ __forceinline__ void cupp_fft_four_step_block(const typename F::args& a, C* tile) {
  using K = typename F::K;
  const long long b = blockIdx.y, g0 = static_cast<long long>(blockIdx.x) * F::width;
  const typename K::args ka = F::inner_args(a, b);
  const int tid = threadIdx.x;
  C v[16];
  K::first(ka, g0, tid, v, tile);
  cupp_fft_middle_passes<K>(ka, tid, v, tile);
  F::finish(ka, a, b, g0, tid, v, tile);
}

// The columns pass: blocks (N2 / W, batch), columns<C, N1, W>::tile_bytes of dynamic shared memory.
template <class C, int N1, int N2, int W>
__global__ void __launch_bounds__(columns<C, N1, W>::threads, columns<C, N1, W>::min_blocks)
    cupp_fft_four_step_columns(const C* in, C* scratch, const C* twiddles, long long dist, int inverse) {
  extern __shared__ __align__(16) unsigned char cupp_fft_four_step_columns_shared[];
  cupp_fft_four_step_block<four_step_columns<C, N1, N2, W>>({in, scratch, twiddles, dist, inverse},
                                                            reinterpret_cast<C*>(cupp_fft_four_step_columns_shared));
}

// The rows pass: blocks (N1 / W, batch), four_step_rows<C, N1, N2, W>::K::tile_bytes of dynamic
// shared memory.
template <class C, int N1, int N2, int W>
__global__ void __launch_bounds__(four_step_rows<C, N1, N2, W>::K::threads, four_step_rows<C, N1, N2, W>::K::min_blocks)
    cupp_fft_four_step_rows(const C* scratch, C* out, const C* twiddles, real_t<C> scale, long long dist, int inverse) {
  extern __shared__ __align__(16) unsigned char cupp_fft_four_step_rows_shared[];
  cupp_fft_four_step_block<four_step_rows<C, N1, N2, W>>({scratch, out, twiddles, scale, dist, inverse},
                                                         reinterpret_cast<C*>(cupp_fft_four_step_rows_shared));
}

// One item's passes of K by the block's first K::threads threads (all reach the barriers).
template <class K, class C>
__device__ __forceinline__ void cupp_fft_item_passes(const typename K::args& ka, long long col0, int tid, C* v,
                                                     C* tile) {
  const bool on = tid < K::threads;
  if (on) K::first(ka, col0, tid, v, tile);
  __syncthreads();
  for (int ns = K::R0; ns < K::T; ns *= 16) {
    if (on) K::pass(ka, ns, tid, v, tile);
    __syncthreads();
    if (on) K::store(ns, tid, v, tile);
    __syncthreads();
  }
  if (on) K::pass(ka, K::T, tid, v, tile);
}

// The axis four-step transform, launched cooperatively (its blocks co-resident, as the waits need):
// a grid of the blocks that fit at once (each loops over tickets),
// axis_four_step<C, N1, N2, W>::threads threads and tile_bytes of dynamic shared memory; counters
// zeroed before the launch (1 + slabs of them).
template <class C, int N1, int N2, int W>
__global__ void __launch_bounds__(axis_four_step<C, N1, N2, W>::threads)
    cupp_fft_axis_four_step(const C* in, C* scratch, C* out, long long ncols, long long istride, long long ostride,
                            const C* twiddles, real_t<C> scale, int inverse, long long slab_cols,
                            unsigned long long* counters) {
  using F = axis_four_step<C, N1, N2, W>;
  extern __shared__ __align__(16) unsigned char cupp_fft_axis_four_step_shared[];
  C* tile = reinterpret_cast<C*>(cupp_fft_axis_four_step_shared);
  __shared__ unsigned long long ticket;
  const typename F::args a{in, scratch, out, ncols, istride, ostride, twiddles, scale, inverse, slab_cols, counters};
  const long long total = F::total_items(a);
  const int tid = threadIdx.x;
  C v[16];
  for (;;) {
    if (tid == 0) ticket = atomicAdd(counters, 1ull);
    __syncthreads();
    const long long i = static_cast<long long>(ticket);
    __syncthreads();  // every thread has read the ticket before thread 0 takes the next
    if (i >= total) break;
    const typename F::item it = F::decode(a, i);
    if (it.b) {
      if (tid == 0) {
        const unsigned long long need = static_cast<unsigned long long>(F::items(a, false, it.s));
        unsigned long long done = 0;
        for (;;) {
          asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(done) : "l"(counters + 1 + it.s) : "memory");
          if (done >= need) break;
          __nanosleep(100);
        }
      }
      __syncthreads();
      cupp_fft_item_passes<typename F::KB>(F::b_args(a, it.j), it.col0, tid, v, tile);
      if (tid < F::KB::threads) F::b_last(a, it.col0, it.j, tid, v);
    } else {
      cupp_fft_item_passes<typename F::KA>(F::a_args(a, it.j), it.col0, tid, v, tile);
      if (tid < F::KA::threads) F::a_last(a, it.col0, it.j, tid, v);
      __threadfence();  // this thread's scratch stores before the count
      __syncthreads();
      if (tid == 0) atomicAdd(counters + 1 + it.s, 1ull);
    }
    __syncthreads();  // the tile's last reads before the next item's first stores
  }
}
#endif

}  // namespace cupp_fft_columns
