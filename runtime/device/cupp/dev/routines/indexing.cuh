// The indexing routines' move program (runtime/src/routines/indexing/): gather, scatter, putmask,
// stream compaction, advanced-index offsets, unravel_index and ravel_multi_index. The kernels move
// bytes in words of W, so every dtype shares the program of its word size. The including source
// defines CUPP_INDEXING_WORD (1, 2, 4, 8 or 16: the word's bytes).
// Data-dependent errors go through cupp_index_state and the report word (compiler/report_word.hpp).
#pragma once

#include <cupp/dev/end_signal.cuh>
#include <cupp/dev/launch.cuh>

struct __align__(16) cupp_word16 { unsigned long long lo, hi; };
#if CUPP_INDEXING_WORD == 1
using W = unsigned char;
#elif CUPP_INDEXING_WORD == 2
using W = unsigned short;
#elif CUPP_INDEXING_WORD == 4
using W = unsigned int;
#elif CUPP_INDEXING_WORD == 8
using W = unsigned long long;
#else
using W = cupp_word16;
#endif

#define CUPP_DIMS 64
struct cupp_geom {
  int ndim, pad;
  long long shape[CUPP_DIMS], s0[CUPP_DIMS], s1[CUPP_DIMS], s2[CUPP_DIMS];
};
// [0] an index was bad, [1] one bad value, [2] ~(first bad position).
extern "C" __device__ unsigned long long cupp_index_state[3];
// The report word in mapped pinned host memory (compiler/report_word.hpp), set with the state.
extern "C" __device__ unsigned int* cupp_index_flag;

__device__ inline void cupp_report(long long value, long long pos) {
  // Only the first reports write the host word (a write to host memory per bad index would be slow).
  if (cupp_index_state[0] == 0ull && cupp_index_flag) *cupp_index_flag = 1u;
  cupp_index_state[0] = 1ull;
  cupp_index_state[1] = (unsigned long long)value;
  atomicMax(&cupp_index_state[2], ~(unsigned long long)pos);
  __threadfence_system();  // before the block's end signal (a rare path)
}
// Normalises x against n: mode 0 raise (negative counts from the end once; false when out of
// bounds, reported), 1 wrap, 2 clip (negative -> 0), 3 raise without negative indices, 4 trusted
// (already in bounds: nothing to do).
__device__ inline bool cupp_fix(long long& x, long long n, int mode, long long pos) {
  if (mode == 1) {
    x %= n;
    if (x < 0) x += n;
    return true;
  }
  if (mode == 2) {
    x = x < 0 ? 0 : (x >= n ? n - 1 : x);
    return true;
  }
  if (mode != 0 && mode != 3) return true;
  const long long y = (mode == 0 && x < 0) ? x + n : x;
  if (y < 0 || y >= n) {
    cupp_report(x, pos);
    return false;
  }
  x = y;
  return true;
}
// Offsets of element k of the geometry's shape in the three stride sets.
__device__ inline void cupp_offsets(const cupp_geom& g, long long k, long long& o0, long long& o1, long long& o2) {
  if (g.ndim == 1) { o0 = k * g.s0[0]; o1 = k * g.s1[0]; o2 = k * g.s2[0]; return; }
  o0 = o1 = o2 = 0;
  long long rem = k;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const long long n = g.shape[d];
    const long long q = rem / n, c = rem - q * n;
    rem = q;
    o0 += c * g.s0[d]; o1 += c * g.s1[d]; o2 += c * g.s2[d];
  }
}
__device__ inline void cupp_move(char* dst, const char* src, int nw) {
  W* d = reinterpret_cast<W*>(dst);
  const W* s = reinterpret_cast<const W*>(src);
  for (int q = 0; q < nw; ++q) d[q] = s[q];
}

// out (C-contiguous, total elements of g's shape) = src[s0 offset + x * axis_stride], with
// x = the int64 index at s1 offset normalised by mode.
extern "C" __global__ void cupp_gather(char* out, const char* src, const char* idx, cupp_geom g, long long total,
                                       long long axis_len, long long axis_stride, int mode, int nw,
                                       unsigned int* end_counter, unsigned int* end_word) {
  const long long eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, total) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (!cupp_fix(x, axis_len, mode, k)) continue;
    cupp_move(out + k * eb, src + o0 + x * axis_stride, nw);
  }
  cupp_end_block(end_counter, end_word);
}

// Streaming (evict-first) store of one word.
template <class T>
__device__ inline void cupp_store_streaming(T* p, const T& v) {
  if constexpr (sizeof(T) == 16) __stcs(reinterpret_cast<uint4*>(p), *reinterpret_cast<const uint4*>(&v));
  else __stcs(p, v);
}

// The common take: a 1-d contiguous int64 index, elements of one word, out contiguous. A block
// of 128 threads takes 512 elements, thread t those at t, t + 128, t + 256 and t + 384, so each
// warp's 32 gathers feed one coalesced store; the indices skip L1 and the results stream past
// L2 (evict first). On the H200 this layout beat four consecutive elements a thread with 16-byte
// index loads and stores by 3 %, and 256-thread blocks by 1.5 %; indices loaded without L1
// allocation beat evict-first loads (ld.global.cs) by 0.7 % (docs/performance.md).
extern "C" __global__ void __launch_bounds__(128) cupp_gather_flat(W* out, const char* src, const long long* idx,
                                                                   long long total, long long axis_len,
                                                                   long long axis_stride, int mode,
                                                                   unsigned int* end_counter, unsigned int* end_word) {
  for (long long base = blockIdx.x * 512LL + threadIdx.x; base < total; base += gridDim.x * 512LL) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const long long k = base + j * 128;
      if (k >= total) break;
      long long x;
      asm("ld.global.L1::no_allocate.b64 %0, [%1];" : "=l"(x) : "l"(idx + k));
      if (cupp_fix(x, axis_len, mode, k))
        cupp_store_streaming(out + k, *reinterpret_cast<const W*>(src + x * axis_stride));
    }
  }
  cupp_end_block(end_counter, end_word);
}

// Scatter, step 1 (mode raise only): report bad indices and the first bad position.
extern "C" __global__ void cupp_scatter_check(const char* idx, cupp_geom g, long long total, long long axis_len,
                                              int mode, unsigned int* end_counter, unsigned int* end_word) {
  CUPP_GRID_LOOP(k, total) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    cupp_fix(x, axis_len, mode, k);
  }
  cupp_end_block(end_counter, end_word);
}
__device__ inline long long cupp_limit(long long total) {
  const unsigned long long s = cupp_index_state[2];
  return s ? (long long)~s : total;
}
// Step 2: for positions before the first bad one, the last position writing each destination
// element (dst is C-contiguous; win has one slot per destination element, zeroed).
extern "C" __global__ void cupp_scatter_win(unsigned long long* win, const char* idx, cupp_geom g, long long total,
                                            long long axis_len, long long axis_stride, int mode, int nw) {
  const long long limit = cupp_limit(total), eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, limit) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (mode == 0) { if (x < 0) x += axis_len; } else cupp_fix(x, axis_len, mode, k);
    atomicMax(&win[(o0 + x * axis_stride) / eb], (unsigned long long)k + 1ull);
  }
}
// Step 3: the winners write. vals at s2 offsets, or (nv > 0) element k % nv of a contiguous
// vals. win null: every position writes (indices known distinct).
extern "C" __global__ void cupp_scatter_write(char* dst, const char* vals, const unsigned long long* win,
                                              const char* idx, cupp_geom g, long long total, long long axis_len,
                                              long long axis_stride, int mode, int nw, long long nv,
                                              unsigned int* end_counter, unsigned int* end_word) {
  const long long limit = cupp_limit(total), eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, limit) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (mode == 0) { if (x < 0) x += axis_len; } else cupp_fix(x, axis_len, mode, k);
    const long long d = o0 + x * axis_stride;
    if (win && win[d / eb] != (unsigned long long)k + 1ull) continue;
    cupp_move(dst + d, nv > 0 ? vals + (k % nv) * eb : vals + o2, nw);
  }
  cupp_end_block(end_counter, end_word);
}

// putmask over n contiguous elements: dst[k] = vals[k % nv] where mask[k].
extern "C" __global__ void cupp_putmask(char* dst, const unsigned char* mask, const char* vals, long long n,
                                        long long nv, int nw) {
  const long long eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, n) if (mask[k]) cupp_move(dst + k * eb, vals + (k % nv) * eb, nw);
}

// Stream compaction over a contiguous mask of n bytes (nonzero = true), in tiles of CUPP_CTILE
// bytes per 256-thread block: each thread takes 16 consecutive bytes per round (one 16-byte load
// when the mask is 16-byte aligned), 2 rounds. Pass 1 counts per block, pass 2 scans the block
// counts (one block), pass 3 ranks each round's true elements in the block, gathers their flat
// positions in shared memory in order, and writes them out with coalesced stores: the positions,
// their coordinates (nonzero, argwhere) or the elements of a contiguous source (a[mask]).
#define CUPP_CTILE 8192
#define CUPP_CROUND 4096
// Bit j set when byte j of the 16 at m + i is nonzero (bytes at or past n read as zero).
__device__ inline unsigned cupp_mask16(const unsigned char* m, long long i, long long n, int aligned) {
  if (aligned && i + 15 < n) {
    const uint4 v = *reinterpret_cast<const uint4*>(m + i);
    const unsigned w[4] = {v.x, v.y, v.z, v.w};
    unsigned r = 0;
    for (int k = 0; k < 4; ++k) {
      // 0x80 in each byte that is nonzero.
      const unsigned nz = (((w[k] & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w[k]) & 0x80808080u;
      r |= (((nz >> 7) & 1u) | ((nz >> 14) & 2u) | ((nz >> 21) & 4u) | ((nz >> 28) & 8u)) << (4 * k);
    }
    return r;
  }
  unsigned r = 0;
  for (int j = 0; j < 16; ++j)
    if (i + j < n && m[i + j]) r |= 1u << j;
  return r;
}
extern "C" __global__ void cupp_mask_count(const unsigned char* m, long long n, int aligned,
                                           unsigned long long* counts) {
  __shared__ unsigned warp_sum[8];
  const long long base = (long long)blockIdx.x * CUPP_CTILE;
  unsigned c = 0;
  for (int r = 0; r < CUPP_CTILE / CUPP_CROUND; ++r)
    c += __popc(cupp_mask16(m, base + r * CUPP_CROUND + (long long)threadIdx.x * 16, n, aligned));
  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31u) == 0) warp_sum[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned t = 0;
    for (int w = 0; w < 8; ++w) t += warp_sum[w];
    counts[blockIdx.x] = t;
  }
}
// Exclusive scan of counts[0..nb) in place and the total in counts[nb]; one block of 1024 threads.
extern "C" __global__ void cupp_scan_counts(unsigned long long* counts, long long nb) {
  __shared__ unsigned long long part[1024];
  const long long per = (nb + 1023) / 1024;
  const long long lo = (long long)threadIdx.x * per, hi = lo + per < nb ? lo + per : nb;
  unsigned long long s = 0;
  for (long long i = lo; i < hi; ++i) s += counts[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int o = 1; o < 1024; o <<= 1) {
    const unsigned long long v = (int)threadIdx.x >= o ? part[threadIdx.x - o] : 0ull;
    __syncthreads();
    part[threadIdx.x] += v;
    __syncthreads();
  }
  unsigned long long run = threadIdx.x ? part[threadIdx.x - 1] : 0ull;
  for (long long i = lo; i < hi; ++i) {
    const unsigned long long c = counts[i];
    counts[i] = run;
    run += c;
  }
  if (threadIdx.x == 1023) counts[nb] = part[1023];
}
// kind 0: out (int64) gets coordinates: out[d * row_stride + rank * col_stride] for each of
// g's dims (g.ndim 1: the flat position); kind 1: out (elements) gets src's element.
extern "C" __global__ void __launch_bounds__(256) cupp_mask_write(const unsigned char* m, long long n, int aligned,
                                           const unsigned long long* offsets, int kind, char* out, const char* src,
                                           int nw, cupp_geom g, long long row_stride, long long col_stride) {
  __shared__ unsigned warp_sum[8];
  __shared__ long long found[CUPP_CROUND];
  const long long base = (long long)blockIdx.x * CUPP_CTILE;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const long long eb = (long long)nw * sizeof(W);
  unsigned long long running = offsets[blockIdx.x];
  for (int r = 0; r < CUPP_CTILE / CUPP_CROUND; ++r) {
    const long long i = base + r * CUPP_CROUND + (long long)threadIdx.x * 16;
    unsigned bits = cupp_mask16(m, i, n, aligned);
    const unsigned c = __popc(bits);
    unsigned incl = c;
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= (unsigned)o) incl += y;
    }
    if (lane == 31u) warp_sum[warp] = incl;
    __syncthreads();
    unsigned before = 0, all = 0;
    for (unsigned w = 0; w < 8; ++w) {
      const unsigned x = warp_sum[w];
      if (w < warp) before += x;
      all += x;
    }
    unsigned rank = before + incl - c;
    while (bits) {
      found[rank++] = i + (__ffs(bits) - 1);
      bits &= bits - 1;
    }
    __syncthreads();
    for (unsigned k = threadIdx.x; k < all; k += 256) {
      const long long f = found[k];
      const long long pos = (long long)(running + k);
      if (kind == 1) {
        cupp_move(out + pos * eb, src + f * eb, nw);
      } else if (g.ndim == 1) {
        reinterpret_cast<long long*>(out)[pos * col_stride] = f;
      } else {
        long long rem = f;
        for (int d = g.ndim - 1; d >= 0; --d) {
          const long long q = rem / g.shape[d];
          reinterpret_cast<long long*>(out)[d * row_stride + pos * col_stride] = rem - q * g.shape[d];
          rem = q;
        }
      }
    }
    running += all;
    __syncthreads();  // warp_sum and found are reused by the next round
  }
}
// Advanced indexing, step 1: off[k] = init + x * axis_stride (+ off[k] when accumulate) for the
// int64 index x at s1 offsets of element k of g's shape (the broadcast index shape), checked by
// mode (4: trusted, no check).
extern "C" __global__ void cupp_index_offsets(long long* off, const char* idx, cupp_geom g, long long total,
                                              long long axis_len, long long axis_stride, int mode, long long init,
                                              int accumulate, unsigned int* end_counter, unsigned int* end_word) {
  CUPP_GRID_LOOP(k, total) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (!cupp_fix(x, axis_len, mode, k)) x = 0;
    off[k] = (accumulate ? off[k] : init) + x * axis_stride;
  }
  cupp_end_block(end_counter, end_word);
}

// unravel_index: idx (n contiguous int64) -> out (ndim rows of n); order 0 C, 1 F.
extern "C" __global__ void cupp_unravel(const long long* idx, long long n, long long size, cupp_geom g, int order,
                                        long long* out, unsigned int* end_counter, unsigned int* end_word) {
  CUPP_GRID_LOOP(k, n) {
    long long x = idx[k];
    if (x < 0 || x >= size) { cupp_report(x, k); continue; }
    for (int j = 0; j < g.ndim; ++j) {
      const int d = order == 0 ? g.ndim - 1 - j : j;
      const long long q = x / g.shape[d];
      out[d * n + k] = x - q * g.shape[d];
      x = q;
    }
  }
  cupp_end_block(end_counter, end_word);
}
// ravel_multi_index: coords (ndim rows of n int64) -> out; s0 the multipliers, s1 the modes.
extern "C" __global__ void cupp_ravel_multi(const long long* coords, long long n, cupp_geom g, long long* out,
                                            unsigned int* end_counter, unsigned int* end_word) {
  CUPP_GRID_LOOP(k, n) {
    long long r = 0;
    bool ok = true;
    for (int d = 0; d < g.ndim; ++d) {
      long long c = coords[d * n + k];
      if (!cupp_fix(c, g.shape[d], (int)g.s1[d], k)) { ok = false; break; }
      r += c * g.s0[d];
    }
    if (ok) out[k] = r;
  }
  cupp_end_block(end_counter, end_word);
}
