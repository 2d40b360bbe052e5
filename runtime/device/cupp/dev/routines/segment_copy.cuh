// The segment copy's kernel (runtime/src/routines/manipulation/segment_copy.hpp): one launch
// copies a table of byte segments, a block per tile of CUPP_SEG_TILE words. The including source
// defines CUPP_SEG_CAP (segments a table holds), CUPP_SEG_THREADS (threads a block),
// CUPP_SEG_UNROLL (words a thread) and CUPP_SEG_TILE (words a tile, a long long literal).
#pragma once

struct cupp_seg {
  const unsigned char* src;
  unsigned char* dst;
  long long rows, row_bytes, src_pitch, dst_pitch;
  long long shift;
};
struct cupp_seg_table {
  long long count;
  long long first_tile[CUPP_SEG_CAP + 1];
  cupp_seg seg[CUPP_SEG_CAP];
};

// q = j / d, r = j % d for 0 <= j, 0 < d; 32-bit division when j fits in 32 bits.
__device__ __forceinline__ void cupp_seg_divmod(long long j, long long d, long long& q, long long& r) {
  if (j < d) {
    q = 0;
    r = j;
  } else if (((unsigned long long)j >> 32) == 0ull) {
    const unsigned uq = (unsigned)j / (unsigned)d;
    q = uq;
    r = j - (long long)uq * d;
  } else {
    q = j / d;
    r = j - q * d;
  }
}

// Words j, j + T, ..., j + (U - 1) T of segment s (T threads, U words a thread), in words of W:
// all loads, then all stores.
template <class W>
__device__ __forceinline__ void cupp_seg_tile(const cupp_seg& s, long long j) {
  const long long per_row = s.row_bytes >> s.shift;
  const long long words = s.rows * per_row;
  if (j >= words) return;
  W v[CUPP_SEG_UNROLL];
  if (s.rows == 1) {
    const W* from = (const W*)s.src + j;
    W* to = (W*)s.dst + j;
    const long long left = words - j;  // words of the segment from j on (> 0)
    if (left > (CUPP_SEG_UNROLL - 1) * CUPP_SEG_THREADS) {
#pragma unroll
      for (int k = 0; k < CUPP_SEG_UNROLL; ++k) v[k] = from[k * CUPP_SEG_THREADS];
#pragma unroll
      for (int k = 0; k < CUPP_SEG_UNROLL; ++k) to[k * CUPP_SEG_THREADS] = v[k];
    } else {  // the segment's last tile
      for (int k = 0; k * CUPP_SEG_THREADS < left; ++k) to[k * CUPP_SEG_THREADS] = from[k * CUPP_SEG_THREADS];
    }
    return;
  }
  long long r0, c0;  // row and word within the row of word j
  cupp_seg_divmod(j, per_row, r0, c0);
  long long step_r = 0, step_c = CUPP_SEG_THREADS;  // T words as rows and words (step_c < per_row)
  if (per_row <= CUPP_SEG_THREADS) {
    step_r = (unsigned)CUPP_SEG_THREADS / (unsigned)per_row;
    step_c = CUPP_SEG_THREADS - step_r * per_row;
  }
  long long r = r0, c = c0;
#pragma unroll
  for (int k = 0; k < CUPP_SEG_UNROLL; ++k) {
    if (j + (long long)k * CUPP_SEG_THREADS < words) v[k] = *((const W*)(s.src + r * s.src_pitch) + c);
    c += step_c;
    r += step_r;
    if (c >= per_row) {
      c -= per_row;
      ++r;
    }
  }
  r = r0;
  c = c0;
#pragma unroll
  for (int k = 0; k < CUPP_SEG_UNROLL; ++k) {
    if (j + (long long)k * CUPP_SEG_THREADS < words) *((W*)(s.dst + r * s.dst_pitch) + c) = v[k];
    c += step_c;
    r += step_r;
    if (c >= per_row) {
      c -= per_row;
      ++r;
    }
  }
}

// At least 4 blocks a multiprocessor (at most 64 registers a thread): 1024 threads with 4 words
// each in flight.
extern "C" __global__ void __launch_bounds__(CUPP_SEG_THREADS, 4)
cupp_copy_segments(const __grid_constant__ cupp_seg_table t) {
  const long long tiles = t.first_tile[t.count];
  long long s = 0;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    while (tile >= t.first_tile[s + 1]) ++s;
    const cupp_seg& g = t.seg[s];
    const long long j = (tile - t.first_tile[s]) * CUPP_SEG_TILE + threadIdx.x;
    switch (g.shift) {
      case 4: cupp_seg_tile<uint4>(g, j); break;
      case 3: cupp_seg_tile<unsigned long long>(g, j); break;
      case 2: cupp_seg_tile<unsigned int>(g, j); break;
      case 1: cupp_seg_tile<unsigned short>(g, j); break;
      default: cupp_seg_tile<unsigned char>(g, j); break;
    }
  }
}
