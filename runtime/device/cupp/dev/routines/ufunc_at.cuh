// ufunc.at's atomic program (runtime/src/routines/indexing/ufunc_at.cpp): one per (op, dtype),
// each update one atomic read-modify-write. The including source defines (after
// <cupp/dev/prelude.cuh> for float16, bfloat16 and complex):
//   T, W            the element type; the integers' arithmetic type (unsigned: overflow wraps)
//   CUPP_AT_EXPR    the op of the current value a and the operand b
//   CUPP_AT_HALF / CUPP_AT_COMPLEX   1 for float16/bfloat16 (computed in float) / complex
// and one form of the update:
//   CUPP_AT_COMPLEX_PARTS   atomicAdd on each part (CUPP_AT_SUBTRACT: of the negated operand)
//   CUPP_AT_NATIVE_ADD      atomicAdd (CUPP_AT_SUBTRACT, CUPP_AT_INTEGER; CUPP_AT_INT64: as uint64)
//   CUPP_AT_NATIVE_MINMAX   CUPP_AT_ATOMIC (atomicMin or atomicMax)
//   CUPP_AT_NATIVE_BITWISE  CUPP_AT_ATOMIC (atomicAnd, atomicOr or atomicXor; CUPP_AT_INT64: as uint64)
//   CUPP_AT_CAS_WORD        a compare-and-swap loop on the element's word, CUPP_AT_WORD (4 or 8 bytes)
//   CUPP_AT_CAS_SUBWORD     one on the aligned 32-bit word holding the element, CUPP_AT_SIZE (1 or 2 bytes)
#pragma once

#include <cupp/dev/launch.cuh>

struct cupp_geom {
  int ndim, pad;
  long long shape[64], s0[64], s1[64], s2[64];
};
// The bits of x as a To of the same size.
template <class To, class From>
__device__ inline To cupp_bits(const From x) {
  union pun { From f; To t; };
  pun u{x};
  return u.t;
}

// The op on values (what one update computes).
__device__ inline T cupp_at_op(const T a_, const T b_) {
#if CUPP_AT_HALF
  const float a = cupp::dev::to_float(a_), b = cupp::dev::to_float(b_);
  return cupp::dev::from_float<T>((float)(CUPP_AT_EXPR));
#elif CUPP_AT_COMPLEX
  const T a = a_, b = b_;
  return CUPP_AT_EXPR;
#else
  const T a = a_, b = b_;
  return (T)(CUPP_AT_EXPR);
#endif
}

__device__ inline void cupp_at_apply(T* p, const T b) {
#if defined(CUPP_AT_COMPLEX_PARTS)
  // Each part on its own: x - y is x + (-y) exactly.
#if CUPP_AT_SUBTRACT
  atomicAdd(&p->re, -b.re);
  atomicAdd(&p->im, -b.im);
#else
  atomicAdd(&p->re, b.re);
  atomicAdd(&p->im, b.im);
#endif
#elif defined(CUPP_AT_NATIVE_ADD)
#if !CUPP_AT_SUBTRACT
#define CUPP_AT_RHS b
#elif CUPP_AT_INTEGER
#define CUPP_AT_RHS (T)((W)0 - (W)b)
#else
#define CUPP_AT_RHS (T)(-b)
#endif
#if CUPP_AT_INT64
  atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)CUPP_AT_RHS);
#else
  atomicAdd(p, CUPP_AT_RHS);
#endif
#elif defined(CUPP_AT_NATIVE_MINMAX)
  CUPP_AT_ATOMIC(p, b);
#elif defined(CUPP_AT_NATIVE_BITWISE)
#if CUPP_AT_INT64
  CUPP_AT_ATOMIC(reinterpret_cast<unsigned long long*>(p), (unsigned long long)b);
#else
  CUPP_AT_ATOMIC(p, b);
#endif
#elif defined(CUPP_AT_CAS_WORD)
  // A compare-and-swap loop on the element's own word.
#if CUPP_AT_WORD == 4
  using U = unsigned int;
#else
  using U = unsigned long long;
#endif
  U* w = reinterpret_cast<U*>(p);
  U old = *w, assumed;
  do {
    assumed = old;
    const T r = cupp_at_op(cupp_bits<T>(assumed), b);
    const U next = cupp_bits<U>(r);
    if (next == assumed) break;
    old = atomicCAS(w, assumed, next);
  } while (old != assumed);
#elif defined(CUPP_AT_CAS_SUBWORD)
  // 1- and 2-byte elements: a compare-and-swap loop on the aligned 32-bit word holding the
  // element, changing only its bytes (the word lies inside the allocation: allocations are
  // aligned to at least 4 bytes and padded to whole words).
#if CUPP_AT_SIZE == 1
  using S = unsigned char;
  const unsigned int lanes = 0xFFu;
#else
  using S = unsigned short;
  const unsigned int lanes = 0xFFFFu;
#endif
  const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
  unsigned int* w = reinterpret_cast<unsigned int*>(addr & ~3ull);
  const unsigned int shift = (unsigned int)(addr & 3ull) * 8u;
  const unsigned int mask = lanes << shift;
  unsigned int old = *w, assumed;
  do {
    assumed = old;
    const S bits = (S)((assumed & mask) >> shift);
    const T r = cupp_at_op(cupp_bits<T>(bits), b);
    const S rbits = cupp_bits<S>(r);
    const unsigned int next = (assumed & ~mask) | ((unsigned int)rbits << shift);
    if (next == assumed) break;
    old = atomicCAS(w, assumed, next);
  } while (old != assumed);
#else
#error "ufunc_at.cuh: no form of the update is defined"
#endif
}

// dst element at o0 + off[o1] (bytes) op= the operand (at o2 bytes, or element k % nv).
extern "C" __global__ void cupp_ufunc_at(char* dst, const char* off, const char* vals, cupp_geom g, long long total,
                                         long long nv) {
  CUPP_GRID_LOOP(k, total) {
    long long o0 = 0, o1 = 0, o2 = 0, rem = k;
    for (int d = g.ndim - 1; d >= 0; --d) {
      const long long q = rem / g.shape[d], c = rem - q * g.shape[d];
      rem = q;
      o0 += c * g.s0[d]; o1 += c * g.s1[d]; o2 += c * g.s2[d];
    }
    T* p = reinterpret_cast<T*>(dst + o0 + *reinterpret_cast<const long long*>(off + o1));
    const T b = nv > 0 ? reinterpret_cast<const T*>(vals)[k % nv] : *reinterpret_cast<const T*>(vals + o2);
    cupp_at_apply(p, b);
  }
}
