// Scan kernels (ufunc.accumulate, cumsum, cumprod, nancumsum, nancumprod, cumulative_sum,
// cumulative_prod): an op's binary loop `F` (Acc, Acc -> Acc) combines elements mapped to the
// accumulator type, which is also the result's dtype (NumPy's accumulate runs its loop in the
// output's dtype: a float16 cumsum rounds every step). The host collapses the array into "kept"
// dimensions (one scan line each) and the scanned axis; input and output have their own byte
// strides. Deterministic: fixed combining orders, no atomics. Embedded and handed to NVRTC; no
// CUB or libcu++.
//   - lines: a thread per line walks the axis in order, exactly NumPy's loop (any op, also the
//     non-associative ones such as subtract.accumulate); coalesced when neighbouring lines are
//     neighbours in memory.
//   - rows (associative ops, contiguous lines): a block scans a chunk of a line in tiles of
//     256 * ITEMS elements held in registers (16-byte loads and stores, warp shuffles). Few long
//     lines are cut into many chunks: one pass reads the chunk totals (cupp_scan_totals), the
//     scan pass starts each chunk from the totals before it; else the scan is one pass.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {

// ---- maps: what an element contributes (itself, or NaN replaced by 0 / 1 for the nan-forms).
struct scan_map_cast {
  template <class Acc, class In>
  __device__ static Acc apply(In x) { return cast<Acc>(x); }
};
template <int V>
struct scan_map_nan_to {
  template <class Acc, class In>
  __device__ static Acc apply(In x) { return isnan(x) ? cast<Acc>(V) : cast<Acc>(x); }
};

// Up to N kept dimensions: extents, then the input's and the output's byte strides (C order).
template <int N>
struct scan_dims {
  long long extent[N];
  long long in_stride[N];
  long long out_stride[N];
};

template <int N>
__device__ inline void scan_offsets(long long i, const scan_dims<N>& d, long long& in_off, long long& out_off) {
  in_off = 0;
  out_off = 0;
#pragma unroll
  for (int k = N - 1; k >= 0; --k) {
    const long long q = i / d.extent[k];
    const long long r = i - q * d.extent[k];
    in_off += r * d.in_stride[k];
    out_off += r * d.out_stride[k];
    i = q;
  }
}

// Lines class: thread o scans line o (len elements, byte steps in_step and out_step).
template <class F, class Acc, class In, int N, class Map = scan_map_cast>
__global__ void cupp_scan_lines(const char* in, char* out, long long lines, long long len, long long in_step,
                                long long out_step, scan_dims<N> kept) {
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= lines || len <= 0) return;
  long long io, oo;
  scan_offsets(o, kept, io, oo);
  const char* p = in + io;
  char* q = out + oo;
  Acc acc = Map::template apply<Acc>(*reinterpret_cast<const In*>(p));
  *reinterpret_cast<Acc*>(q) = acc;
  for (long long j = 1; j < len; ++j) {
    p += in_step;
    q += out_step;
    F::apply(acc, Map::template apply<Acc>(*reinterpret_cast<const In*>(p)), acc);
    *reinterpret_cast<Acc*>(q) = acc;
  }
}

constexpr int scan_threads = 256;

// Elements per thread in the rows class: 32 bytes of accumulators (2 to 32 elements).
template <class Acc>
struct scan_items {
  static constexpr int value = sizeof(Acc) >= 32 ? 1 : 32 / static_cast<int>(sizeof(Acc));
};

// Loads the K elements at p into v: 16-byte loads when `aligned` (p 16-byte aligned) and the K
// elements span whole 16-byte words, else element by element.
template <class T, int K>
__device__ inline void scan_load(const T* p, T (&v)[K], bool aligned) {
  static_assert(alignof(T) <= 16, "scan elements are at most 16-byte aligned");
  if constexpr (sizeof(T) * K % 16 == 0) {
    if (aligned) {
      const uint4* q = reinterpret_cast<const uint4*>(p);
      uint4* w = reinterpret_cast<uint4*>(v);
#pragma unroll
      for (int j = 0; j < static_cast<int>(sizeof(T) * K / 16); ++j) w[j] = q[j];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < K; ++i) v[i] = p[i];
}

// Loads the first `valid` (0..K) of the K elements at p; the rest of v becomes T{}.
template <class T, int K>
__device__ inline void scan_load_part(const T* p, T (&v)[K], int valid, bool aligned) {
  if (valid == K) {
    scan_load(p, v, aligned);
    return;
  }
#pragma unroll
  for (int i = 0; i < K; ++i) v[i] = i < valid ? p[i] : T{};
}

template <class T, int K>
__device__ inline void scan_store_part(T* p, const T (&v)[K], int valid, bool aligned) {
  if constexpr (sizeof(T) * K % 16 == 0) {
    if (aligned && valid == K) {
      uint4* q = reinterpret_cast<uint4*>(p);
      const uint4* w = reinterpret_cast<const uint4*>(v);
#pragma unroll
      for (int j = 0; j < static_cast<int>(sizeof(T) * K / 16); ++j) q[j] = w[j];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < K; ++i)
    if (i < valid) p[i] = v[i];
}

// __shfl_up_sync / __shfl_down_sync of any trivially copyable value, one 32-bit word at a time
// (1- and 2-byte values travel in one word).
template <bool UP, class T>
__device__ inline T scan_shfl(const T& v, unsigned delta) {
  constexpr int W = (static_cast<int>(sizeof(T)) + 3) / 4;
  unsigned w[W];
  if constexpr (sizeof(T) < 4) w[0] = 0;
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = UP ? __shfl_up_sync(0xffffffffu, w[i], delta) : __shfl_down_sync(0xffffffffu, w[i], delta);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

// `acc = acc (+) v`, where an absent accumulator (have == false) becomes v.
template <class F, class Acc>
__device__ inline void scan_fold(Acc& acc, bool& have, const Acc& v) {
  if (have) F::apply(acc, v, acc);
  else acc = v;
  have = true;
}

// Combines the block's per-thread values in thread order (a value is present in a prefix of the
// threads, `have`); every thread gets the result. Fixed shape: identical run to run. Uses
// `slots` (8 Acc) and `slot_have` (8 bools) and ends with a barrier.
template <class F, class Acc>
__device__ inline bool scan_block_fold(Acc& acc, bool have, Acc* slots, bool* slot_have) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const Acc other = scan_shfl<false>(acc, d);
    const bool other_have = __shfl_down_sync(0xffffffffu, have ? 1 : 0, d) != 0;
    if ((lane & (2 * d - 1)) == 0 && other_have) scan_fold<F>(acc, have, other);
  }
  if (lane == 0) {
    slots[warp] = acc;
    slot_have[warp] = have;
  }
  __syncthreads();
  have = false;
#pragma unroll
  for (int w = 0; w < scan_threads / 32; ++w)
    if (slot_have[w]) scan_fold<F>(acc, have, slots[w]);
  __syncthreads();
  return have;
}

// Rows class over contiguous lines (input elements and output accumulators of unit stride). A
// line is cut into `chunks` chunks of chunk_len elements (a multiple of the 256 * ITEMS tile);
// a block scans one chunk, tile after tile, each tile starting from the running carry. A chunk
// after the first starts from the combination of the earlier chunks' totals (partial[line *
// chunks + 0 .. c-1], from cupp_scan_totals), which the block combines itself. Within a tile,
// thread t scans its ITEMS neighbours in order, warps scan the thread totals with shuffles, and
// each warp adds the totals of the warps before it: a fixed combining order, so float results
// are identical run to run. The next tile's elements are loaded before this tile is scanned.
template <class F, class Acc, class In, int N, class Map = scan_map_cast>
__global__ void __launch_bounds__(256) cupp_scan_rows(const char* in, char* out, long long rows, long long len,
                                                      long long chunks, long long chunk_len, scan_dims<N> kept,
                                                      const Acc* partial) {
  constexpr int ITEMS = scan_items<Acc>::value;
  constexpr int TILE = scan_threads * ITEMS;
  constexpr int WARPS = scan_threads / 32;
  __shared__ alignas(16) unsigned char totals_storage[2 * WARPS * sizeof(Acc)];
  __shared__ alignas(16) unsigned char slots_storage[WARPS * sizeof(Acc)];
  __shared__ bool slot_have[WARPS];
  Acc* warp_totals = reinterpret_cast<Acc*>(totals_storage);
  Acc* slots = reinterpret_cast<Acc*>(slots_storage);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long blocks = rows * chunks;
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    const long long row = blk / chunks, c = blk - row * chunks;
    long long io, oo;
    scan_offsets(row, kept, io, oo);
    const In* src = reinterpret_cast<const In*>(in + io);
    Acc* dst = reinterpret_cast<Acc*>(out + oo);
    const bool in_aligned = (reinterpret_cast<unsigned long long>(src) & 15u) == 0;
    const bool out_aligned = (reinterpret_cast<unsigned long long>(dst) & 15u) == 0;
    const long long begin = c * chunk_len;
    const long long end = len - begin < chunk_len ? len : begin + chunk_len;
    Acc carry{};
    bool has_carry = false;
    if (c > 0) {
      // Thread t folds a contiguous slice of the earlier chunks' totals, then the block folds
      // the slices in order.
      const Acc* p = partial + row * chunks;
      const long long per = (c + scan_threads - 1) / scan_threads;
      const long long lo = threadIdx.x * per;
      const long long hi = lo + per < c ? lo + per : c;
      for (long long j = lo; j < hi; ++j) scan_fold<F>(carry, has_carry, p[j]);
      has_carry = scan_block_fold<F>(carry, has_carry, slots, slot_have);
    }
    In cur[ITEMS];
    {
      const long long first = begin + threadIdx.x * ITEMS;
      const long long left = end - first;
      scan_load_part(src + first, cur, left <= 0 ? 0 : left >= ITEMS ? ITEMS : static_cast<int>(left), in_aligned);
    }
    int parity = 0;
    for (long long t0 = begin; t0 < end; t0 += TILE) {
      const long long first = t0 + threadIdx.x * ITEMS;
      const long long left = end - first;
      const int valid = left <= 0 ? 0 : left >= ITEMS ? ITEMS : static_cast<int>(left);
      In next[ITEMS];
      const bool more = t0 + TILE < end;
      if (more) {
        const long long nleft = left - TILE;
        scan_load_part(src + first + TILE, next, nleft <= 0 ? 0 : nleft >= ITEMS ? ITEMS : static_cast<int>(nleft),
                       in_aligned);
      }
      alignas(16) Acc local[ITEMS];
      local[0] = Map::template apply<Acc>(cur[0]);
#pragma unroll
      for (int i = 1; i < ITEMS; ++i) F::apply(local[i - 1], Map::template apply<Acc>(cur[i]), local[i]);
      // Inclusive scan of the thread totals across the warp. A thread past the end of the line
      // only feeds threads after it, which are past the end too.
      Acc incl = local[ITEMS - 1];
#pragma unroll
      for (unsigned d = 1; d < 32; d *= 2) {
        const Acc y = scan_shfl<true>(incl, d);
        if (lane >= static_cast<int>(d)) F::apply(y, incl, incl);
      }
      const Acc before = scan_shfl<true>(incl, 1);
      Acc* wt = warp_totals + parity * WARPS;
      if (lane == 31) wt[warp] = incl;
      __syncthreads();
      Acc prefix = carry;
      bool have = has_carry;
      for (int w = 0; w < warp; ++w) scan_fold<F>(prefix, have, wt[w]);
      if (lane > 0) scan_fold<F>(prefix, have, before);
      if (have) {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) F::apply(prefix, local[i], local[i]);
      }
      scan_store_part(dst + first, local, valid, out_aligned);
      if (more) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) scan_fold<F>(carry, has_carry, wt[w]);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) cur[i] = next[i];
      }
      parity ^= 1;
    }
    __syncthreads();  // the next chunk reuses the shared slots
  }
}

// The total of every chunk but the last of each line (see cupp_scan_rows): partial[line * chunks
// + c] for c < chunks - 1. Such a chunk is whole tiles, so every thread has elements; thread t
// folds its ITEMS elements of each tile, four tiles in flight, and the block folds the thread
// totals in a fixed tree. The tiles are read last to first (the ops here are commutative): the
// chunks' first tiles are then what the L2 cache holds when cupp_scan_rows starts reading them.
template <class F, class Acc, class In, int N, class Map = scan_map_cast>
__global__ void __launch_bounds__(256) cupp_scan_totals(const char* in, long long rows, long long chunks,
                                                        long long chunk_len, scan_dims<N> kept, Acc* partial) {
  constexpr int ITEMS = scan_items<Acc>::value;
  constexpr int TILE = scan_threads * ITEMS;
  constexpr int WARPS = scan_threads / 32;
  __shared__ alignas(16) unsigned char slots_storage[WARPS * sizeof(Acc)];
  __shared__ bool slot_have[WARPS];
  Acc* slots = reinterpret_cast<Acc*>(slots_storage);
  const long long full = chunks - 1;
  const long long blocks = rows * full;
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    const long long row = blk / full, c = blk - row * full;
    long long io, oo;
    scan_offsets(row, kept, io, oo);
    const In* src = reinterpret_cast<const In*>(in + io) + c * chunk_len + threadIdx.x * ITEMS;
    const bool aligned = (reinterpret_cast<unsigned long long>(src) & 15u) == 0;
    const long long tiles = chunk_len / TILE;  // >= 1
    Acc acc;
    {
      In v[ITEMS];
      scan_load(src + (tiles - 1) * TILE, v, aligned);
      acc = Map::template apply<Acc>(v[0]);
#pragma unroll
      for (int i = 1; i < ITEMS; ++i) F::apply(acc, Map::template apply<Acc>(v[i]), acc);
    }
    long long k = 1;
    for (; k + 4 <= tiles; k += 4) {
      In v[4][ITEMS];
#pragma unroll
      for (int u = 0; u < 4; ++u) scan_load(src + (tiles - 1 - k - u) * TILE, v[u], aligned);
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) F::apply(acc, Map::template apply<Acc>(v[u][i]), acc);
    }
    for (; k < tiles; ++k) {
      In v[ITEMS];
      scan_load(src + (tiles - 1 - k) * TILE, v, aligned);
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) F::apply(acc, Map::template apply<Acc>(v[i]), acc);
    }
    const bool have = true;
    scan_block_fold<F>(acc, have, slots, slot_have);
    if (threadIdx.x == 0) partial[row * chunks + c] = acc;
  }
}

}  // namespace dev
}  // namespace cupp
