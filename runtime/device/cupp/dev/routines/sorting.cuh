// The sorting routines' kernels (runtime/src/routines/sorting/sorting.cpp), one program for every
// dtype: the order-preserving key transforms of each word width (1, 2, 4, 8 bytes) and of complex
// values, cupp's own radix sort (histogram and stable scatter, 8-bit digits), the row-key helpers
// of sorts along an axis, and the NaN rotation after CUB's float sort. No CUB: it must compile
// without CUB headers. The including source needs nothing before it.
#pragma once

#include <cupp/dev/launch.cuh>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#define CUPP_TILE 4096

// kind: 0 unsigned, 1 signed, 2 IEEE float (em: the exponent mask), 3 bool.
// mode 0 (values): NaN -> its positive twin (after +inf), -0.0 before 0.0; mode 1 (total order
// of NumPy): every NaN -> the largest key, -0.0 == 0.0.
template <class U> __device__ __forceinline__ U cupp_to_key(U u, int kind, int mode, U em) {
  const U sign = (U)((U)1 << (sizeof(U) * 8 - 1));
  if (kind == 1) return (U)(u ^ sign);
  if (kind == 3) return (U)(u != 0);
  if (kind == 2) {
    const U mag = (U)(u & (U)~sign);
    if (mag > em) {
      if (mode == 1) return (U)~(U)0;
      u = mag;
    } else if (mode == 1 && mag == 0) {
      u = 0;
    }
    return (u & sign) ? (U)~u : (U)(u | sign);
  }
  return u;
}
template <class U> __device__ __forceinline__ U cupp_from_key(U k, int kind) {
  const U sign = (U)((U)1 << (sizeof(U) * 8 - 1));
  if (kind == 1) return (U)(k ^ sign);
  if (kind == 2) return (k & sign) ? (U)(k ^ sign) : (U)~k;
  return k;
}

template <class U> __device__ void cupp_key(const U* in, U* out, long long n, int kind, int mode, U em) {
  CUPP_GRID_LOOP(i, n) out[i] = cupp_to_key(in[i], kind, mode, em);
}
template <class U> __device__ void cupp_unkey(const U* in, U* out, long long n, int kind) {
  CUPP_GRID_LOOP(i, n) out[i] = cupp_from_key(in[i], kind);
}
// The key in the low bits of a packed 64-bit word.
template <class U> __device__ void cupp_unkey64(const u64* in, U* out, long long n, int kind) {
  CUPP_GRID_LOOP(i, n) out[i] = cupp_from_key((U)in[i], kind);
}
// (row << keybits) | key, row = i / cols.
template <class U> __device__ void cupp_pack(const U* key, u64* out, long long n, long long cols, int keybits) {
  CUPP_GRID_LOOP(i, n) out[i] = ((u64)(i / cols) << keybits) | (u64)key[i];
}
template <class U> __device__ void cupp_rowkey(const long long* perm, U* out, long long n, long long cols) {
  CUPP_GRID_LOOP(i, n) out[i] = (U)(perm[i] / cols);
}

// cupp's own radix sort, one 8-bit digit (bits [shift, shift + 8) & dmask) per pass. Tiles of
// CUPP_TILE elements per 256-thread block; counts are digit-major: counts[d * nb + block].
template <class U> __device__ void cupp_rs_hist(const U* k, long long n, int shift, unsigned dmask, long long* counts,
                                                long long nb) {
  __shared__ unsigned int h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  const long long base = blockIdx.x * (long long)CUPP_TILE;
  for (int t = threadIdx.x; t < CUPP_TILE; t += 256) {
    const long long i = base + t;
    if (i < n) atomicAdd(&h[(unsigned)(k[i] >> shift) & dmask], 1u);
  }
  __syncthreads();
  counts[threadIdx.x * nb + blockIdx.x] = h[threadIdx.x];
}
// Stable scatter: incl is the inclusive scan of counts. Elements of a tile are placed in order:
// chunk by chunk, warp by warp, lane by lane.
template <class U> __device__ void cupp_rs_scatter(const U* kin, U* kout, const long long* vin, long long* vout,
                                                   long long n, int shift, unsigned dmask, const long long* incl,
                                                   const long long* counts, long long nb) {
  __shared__ long long run[256];
  __shared__ unsigned int wc[8][256];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  run[threadIdx.x] = incl[threadIdx.x * nb + blockIdx.x] - counts[threadIdx.x * nb + blockIdx.x];
  const long long base = blockIdx.x * (long long)CUPP_TILE;
  for (int c = 0; c < CUPP_TILE; c += 256) {
    const long long i = base + c + threadIdx.x;
    const bool valid = i < n;
    const U key = valid ? kin[i] : (U)0;
    const unsigned d = valid ? ((unsigned)(key >> shift) & dmask) : 256u;
    for (int w = 0; w < 8; ++w) wc[w][threadIdx.x] = 0u;
    __syncthreads();
    const unsigned peers = __match_any_sync(0xffffffffu, d);
    const unsigned rank = __popc(peers & ((1u << lane) - 1u));
    if (valid && rank == 0) wc[warp][d] = __popc(peers);
    __syncthreads();
    if (valid) {
      long long pos = run[d] + rank;
      for (unsigned w = 0; w < warp; ++w) pos += wc[w][d];
      kout[pos] = key;
      if (vin) vout[pos] = vin[i];
    }
    __syncthreads();
    unsigned s = 0;
    for (int w = 0; w < 8; ++w) s += wc[w][threadIdx.x];
    run[threadIdx.x] += s;
  }
}

#define CUPP_SORT_WIDTH(W, U)                                                                                      \
  extern "C" __global__ void cupp_key_w##W(const U* in, U* out, long long n, int kind, int mode, U em) {           \
    cupp_key<U>(in, out, n, kind, mode, em);                                                                       \
  }                                                                                                                \
  extern "C" __global__ void cupp_unkey_w##W(const U* in, U* out, long long n, int kind) {                         \
    cupp_unkey<U>(in, out, n, kind);                                                                               \
  }                                                                                                                \
  extern "C" __global__ void cupp_unkey64_w##W(const u64* in, U* out, long long n, int kind) {                     \
    cupp_unkey64<U>(in, out, n, kind);                                                                             \
  }                                                                                                                \
  extern "C" __global__ void cupp_pack_w##W(const U* key, u64* out, long long n, long long cols, int keybits) {    \
    cupp_pack<U>(key, out, n, cols, keybits);                                                                      \
  }                                                                                                                \
  extern "C" __global__ void cupp_rs_hist_w##W(const U* k, long long n, int shift, unsigned dmask,                 \
                                               long long* counts, long long nb) {                                  \
    cupp_rs_hist<U>(k, n, shift, dmask, counts, nb);                                                               \
  }                                                                                                                \
  extern "C" __global__ void cupp_rs_scatter_w##W(const U* kin, U* kout, const long long* vin, long long* vout,    \
                                                  long long n, int shift, unsigned dmask, const long long* incl,   \
                                                  const long long* counts, long long nb) {                         \
    cupp_rs_scatter<U>(kin, kout, vin, vout, n, shift, dmask, incl, counts, nb);                                   \
  }
CUPP_SORT_WIDTH(1, u8)
CUPP_SORT_WIDTH(2, u16)
CUPP_SORT_WIDTH(4, u32)
CUPP_SORT_WIDTH(8, u64)

extern "C" __global__ void cupp_rowkey_w4(const long long* perm, u32* out, long long n, long long cols) {
  cupp_rowkey<u32>(perm, out, n, cols);
}
extern "C" __global__ void cupp_rowkey_w8(const long long* perm, u64* out, long long n, long long cols) {
  cupp_rowkey<u64>(perm, out, n, cols);
}
extern "C" __global__ void cupp_iota(long long* out, long long n) { CUPP_GRID_LOOP(i, n) out[i] = i; }
extern "C" __global__ void cupp_iota32(int* out, long long n) { CUPP_GRID_LOOP(i, n) out[i] = (int)i; }
extern "C" __global__ void cupp_widen(const int* in, long long* out, long long n) { CUPP_GRID_LOOP(i, n) out[i] = in[i]; }
// Flat positions in rows of `cols` -> positions within the row.
extern "C" __global__ void cupp_mod(long long* perm, long long n, long long cols) {
  CUPP_GRID_LOOP(i, n) perm[i] %= cols;
}
// After CUB's float sort (accel/cub_sort.hpp): the negative NaNs it put first go to the end.
// cupp_nan_lead counts them (one thread, a binary search: they are a prefix); when there are any,
// cupp_nan_save copies the sorted values to scratch and cupp_nan_rotate writes them back rotated.
template <class U> __device__ bool cupp_is_nan_bits(U u, U em) {
  return (U)(u & (U)~(U)((U)1 << (sizeof(U) * 8 - 1))) > em;
}
template <class U> __device__ void cupp_nan_lead(const U* v, long long n, U em, long long* lead) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  if (!cupp_is_nan_bits(v[0], em)) { *lead = 0; return; }
  long long lo = 1, hi = n;  // the first value that is not NaN lies in [lo, hi]
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (cupp_is_nan_bits(v[mid], em)) lo = mid + 1; else hi = mid;
  }
  *lead = lo;
}
template <class U> __device__ void cupp_nan_save(const U* v, U* scratch, long long n, const long long* lead) {
  if (*lead == 0) return;
  CUPP_GRID_LOOP(i, n) scratch[i] = v[i];
}
template <class U> __device__ void cupp_nan_rotate(U* v, const U* scratch, long long n, const long long* lead) {
  const long long k = *lead;
  if (k == 0) return;
  CUPP_GRID_LOOP(i, n) v[i] = scratch[i + k < n ? i + k : i + k - n];
}
extern "C" __global__ void cupp_nan_lead_w4(const u32* v, long long n, u32 em, long long* lead) { cupp_nan_lead(v, n, em, lead); }
extern "C" __global__ void cupp_nan_lead_w8(const u64* v, long long n, u64 em, long long* lead) { cupp_nan_lead(v, n, em, lead); }
extern "C" __global__ void cupp_nan_save_w4(const u32* v, u32* s, long long n, const long long* lead) { cupp_nan_save(v, s, n, lead); }
extern "C" __global__ void cupp_nan_save_w8(const u64* v, u64* s, long long n, const long long* lead) { cupp_nan_save(v, s, n, lead); }
extern "C" __global__ void cupp_nan_rotate_w4(u32* v, const u32* s, long long n, const long long* lead) { cupp_nan_rotate(v, s, n, lead); }
extern "C" __global__ void cupp_nan_rotate_w8(u64* v, const u64* s, long long n, const long long* lead) { cupp_nan_rotate(v, s, n, lead); }

// Complex keys in NumPy's order: class (0: R+Rj, 1: R+nanj, 2: nan+Rj, 3: nan+nanj), then the
// real key (the imaginary one for class 2), then the imaginary key (classes 0 only).
// complex64: one 64-bit word (real key << 32 | imaginary key); complex128: two words.
extern "C" __global__ void cupp_key_c64(const u32* in, u64* ps, u8* cls, long long n) {
  const u32 em = 0x7F800000u;
  CUPP_GRID_LOOP(i, n) {
    const u32 re = in[2 * i], im = in[2 * i + 1];
    const bool rn = (re & 0x7FFFFFFFu) > em, inan = (im & 0x7FFFFFFFu) > em;
    const u32 kr = cupp_to_key<u32>(re, 2, 1, em), ki = cupp_to_key<u32>(im, 2, 1, em);
    cls[i] = (u8)((rn ? 2 : 0) + (inan ? 1 : 0));
    ps[i] = rn ? (u64)ki << 32 : (((u64)kr << 32) | (inan ? 0u : ki));
  }
}
extern "C" __global__ void cupp_key_c128(const u64* in, u64* prim, u64* sec, u8* cls, long long n) {
  const u64 em = 0x7FF0000000000000ull;
  CUPP_GRID_LOOP(i, n) {
    const u64 re = in[2 * i], im = in[2 * i + 1];
    const bool rn = (re & 0x7FFFFFFFFFFFFFFFull) > em, inan = (im & 0x7FFFFFFFFFFFFFFFull) > em;
    const u64 kr = cupp_to_key<u64>(re, 2, 1, em), ki = cupp_to_key<u64>(im, 2, 1, em);
    cls[i] = (u8)((rn ? 2 : 0) + (inan ? 1 : 0));
    prim[i] = rn ? ki : kr;
    sec[i] = (rn || inan) ? 0ull : ki;
  }
}
