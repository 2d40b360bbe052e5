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
//   - rows (associative ops, contiguous lines): tiles of 256 * ITEMS elements staged in shared
//     memory; each thread scans ITEMS neighbours, a Hillis-Steele scan over the thread totals
//     gives each thread its prefix. Long lines take three passes: tile totals (MODE 1), a scan
//     of each line's tile totals (cupp_scan_partials), the tiles again with the previous tiles'
//     total as carry (MODE 2). A line of one tile takes one pass (MODE 0).
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

// Elements per thread in the rows class: 32 bytes of accumulators (2 to 8 elements), so a
// tile's shared memory is about 8 KiB for every dtype.
template <class Acc>
struct scan_items {
  static constexpr int value = sizeof(Acc) >= 16 ? 2 : sizeof(Acc) >= 8 ? 4 : 8;
};

// Shared-memory index with one pad slot per 32 elements (threads read ITEMS neighbours).
__device__ inline int scan_pad(int k) { return k + (k >> 5); }

// Scans the n (1 <= n <= 256 * ITEMS) accumulators of tile `s` in place, each preceded by
// `carry` when has_carry; `total` gets the tile's total (carry included), the same in every
// thread. `buf` holds 2 * 256 accumulators. Ends with a barrier.
template <class F, class Acc, int ITEMS>
__device__ inline void scan_tile(Acc* s, int n, bool has_carry, const Acc& carry, Acc* buf, Acc& total,
                                 bool write_back) {
  const int t = threadIdx.x;
  const int first = t * ITEMS;
  int valid = n - first;
  valid = valid < 0 ? 0 : valid > ITEMS ? ITEMS : valid;
  Acc local[ITEMS];
  if (valid > 0) {
    local[0] = s[scan_pad(first)];
#pragma unroll
    for (int i = 1; i < ITEMS; ++i)
      if (i < valid) F::apply(local[i - 1], s[scan_pad(first + i)], local[i]);
  }
  Acc* a = buf;
  Acc* b = buf + scan_threads;
  if (valid > 0) a[t] = local[valid - 1];
  __syncthreads();
  // Threads 0..last have elements; thread t's value only ever combines with earlier threads'.
  const int last = (n - 1) / ITEMS;
  for (int d = 1; d <= last; d *= 2) {
    if (t <= last) {
      if (t >= d) F::apply(a[t - d], a[t], b[t]);
      else b[t] = a[t];
    }
    __syncthreads();
    Acc* tmp = a;
    a = b;
    b = tmp;
  }
  if (write_back && valid > 0) {
    const bool have = has_carry || t > 0;
    Acc p = carry;
    if (t > 0) {
      if (has_carry) F::apply(carry, a[t - 1], p);
      else p = a[t - 1];
    }
    for (int i = 0; i < valid; ++i) {
      Acc v = local[i];
      if (have) F::apply(p, local[i], v);
      s[scan_pad(first + i)] = v;
    }
  }
  if (has_carry) F::apply(carry, a[last], total);
  else total = a[last];
  __syncthreads();
}

// Rows class over contiguous lines (input elements of unit stride, output accumulators of unit
// stride). MODE 0: lines of one tile, scanned and written. MODE 1: each tile's total to
// partial[row * tiles + tile]. MODE 2: each tile scanned after the inclusive scan of the tile
// totals before it (partial[row * tiles + tile - 1], from cupp_scan_partials), and written.
template <class F, class Acc, class In, int N, int MODE, class Map = scan_map_cast>
__global__ void __launch_bounds__(256) cupp_scan_rows(const char* in, char* out, long long rows, long long len,
                                                      long long tiles, scan_dims<N> kept, Acc* partial) {
  constexpr int ITEMS = scan_items<Acc>::value;
  constexpr int TILE = scan_threads * ITEMS;
  __shared__ alignas(16) unsigned char tile_storage[(TILE + TILE / 32) * sizeof(Acc)];
  __shared__ alignas(16) unsigned char buf_storage[2 * scan_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(tile_storage);
  Acc* buf = reinterpret_cast<Acc*>(buf_storage);
  const long long blocks = rows * tiles;
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    const long long row = blk / tiles, tile = blk - row * tiles;
    long long io, oo;
    scan_offsets(row, kept, io, oo);
    const long long start = tile * TILE;
    const int n = static_cast<int>(len - start < TILE ? len - start : TILE);
    const In* src = reinterpret_cast<const In*>(in + io) + start;
    for (int k = threadIdx.x; k < n; k += scan_threads) s[scan_pad(k)] = Map::template apply<Acc>(src[k]);
    __syncthreads();
    const bool has_carry = MODE == 2 && tile > 0;
    Acc carry{};
    if (has_carry) carry = partial[row * tiles + tile - 1];
    Acc total;
    scan_tile<F, Acc, ITEMS>(s, n, has_carry, carry, buf, total, MODE != 1);
    if (MODE == 1) {
      if (threadIdx.x == 0) partial[row * tiles + tile] = total;
    } else {
      Acc* dst = reinterpret_cast<Acc*>(out + oo) + start;
      for (int k = threadIdx.x; k < n; k += scan_threads) dst[k] = s[scan_pad(k)];
    }
    __syncthreads();
  }
}

// The inclusive scan of each row's `tiles` tile totals, in place (a block per row, in tiles of
// 256 * ITEMS with the previous total as carry).
template <class F, class Acc>
__global__ void __launch_bounds__(256) cupp_scan_partials(Acc* partial, long long rows, long long tiles) {
  constexpr int ITEMS = scan_items<Acc>::value;
  constexpr int TILE = scan_threads * ITEMS;
  __shared__ alignas(16) unsigned char tile_storage[(TILE + TILE / 32) * sizeof(Acc)];
  __shared__ alignas(16) unsigned char buf_storage[2 * scan_threads * sizeof(Acc)];
  Acc* s = reinterpret_cast<Acc*>(tile_storage);
  Acc* buf = reinterpret_cast<Acc*>(buf_storage);
  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
    Acc* p = partial + row * tiles;
    Acc carry{};
    bool has_carry = false;
    for (long long c0 = 0; c0 < tiles; c0 += TILE) {
      const int n = static_cast<int>(tiles - c0 < TILE ? tiles - c0 : TILE);
      for (int k = threadIdx.x; k < n; k += scan_threads) s[scan_pad(k)] = p[c0 + k];
      __syncthreads();
      Acc total;
      scan_tile<F, Acc, ITEMS>(s, n, has_carry, carry, buf, total, true);
      for (int k = threadIdx.x; k < n; k += scan_threads) p[c0 + k] = s[scan_pad(k)];
      carry = total;
      has_carry = true;
      __syncthreads();
    }
  }
}

}  // namespace dev
}  // namespace cupp
