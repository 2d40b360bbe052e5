// sin for float16 and bfloat16 (cupp::dev::sin on __half / __nv_bfloat16, prelude.cuh): a float
// sine for arguments that are exact float16 or bfloat16 values, whose result is then rounded once
// to the 16-bit type. NumPy computes float16 sin as half(sinf(float(x))) and ml_dtypes bfloat16
// sin as bf16(sinf(float(x))) with glibc's (nearly correctly rounded) sinf. CUDA's ::sinf costs
// ~24 operations an element on its fast path, two of them float<->int conversions (quarter-rate
// F2I/I2F), and made the 16-bit loops compute-bound; this one is ~18 operations (12 of
// them FP32 FFMA/FMUL/FADD, no conversions):
//
//   q = rint(|x| / pi) (magic-number add), r = |x| - q pi (three-constant Cody-Waite split with
//   FMAs; the first step is exact), sin r = r + r^3 P(r^2) on [-pi/2, pi/2] (odd minimax
//   polynomial of degree 11, Horner with FMAs), sign = sign(x) xor parity(q) (on the bits).
//   Above kHalfSinMax (2^22; bfloat16 only) and for inf it computes sin in double and
//   rounds to float.
//
// It is not a correctly rounded sinf, but after the rounding to 16 bits its results equal NumPy's
// for every one of the 65,536 float16 and 65,536 bfloat16 inputs: tests/unit/test_half_sin.cpp
// checks all of them on the host. The same source compiles as host C++ and every multiply-add is
// an explicit fmaf (no contraction choice left to a compiler), so the host's IEEE fmaf computes
// exactly what the GPU's FFMA does.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUPP_HALF_SIN_HD __device__
#else
#include <cmath>
#include <cstring>
#define CUPP_HALF_SIN_HD
#endif

namespace cupp {
namespace dev {
namespace half_sin_detail {

CUPP_HALF_SIN_HD inline unsigned int bits(float x) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __float_as_uint(x);
#else
  unsigned int u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}
CUPP_HALF_SIN_HD inline float from_bits(unsigned int u) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

}  // namespace half_sin_detail

// Largest |x| that takes the polynomial path: q = |x| / pi stays below 2^22, as the magic-number
// rint needs, and the reduction stays accurate enough (the exhaustive test holds it to that). Only
// bfloat16 goes beyond it (float16 ends at 65504).
constexpr float kHalfSinMax = 0x1p22f;

// sin(x) for x an exact float16 or bfloat16 value, accurate enough that rounding it once to that
// type gives what rounding glibc's sinf(x) does. Not for other floats.
CUPP_HALF_SIN_HD inline float half_sin(float x) {
  using half_sin_detail::bits;
  using half_sin_detail::from_bits;
  const float ax = fabsf(x);
  if (ax > kHalfSinMax) return static_cast<float>(::sin(static_cast<double>(x)));  // inf too
  // (NaN fails the test and stays NaN through the arithmetic below.)
  // pi = p1 + p2 + p3 (float parts); |x| - q p1 is exact (FMA; the result needs < 24 bits).
  constexpr float inv_pi = 0x1.45f306p-2f;
  constexpr float p1 = 0x1.921fb6p+1f, p2 = -0x1.777a5cp-24f, p3 = -0x1.ee59dap-49f;
  constexpr float magic = 0x1.8p+23f;  // 1.5 * 2^23: adding it rounds to an integer (ties to even)
  const float t = fmaf(ax, inv_pi, magic);
  const float q = t - magic;
  float r = fmaf(-q, p1, ax);
  r = fmaf(-q, p2, r);
  r = fmaf(-q, p3, r);
  // sin r = r + r^3 (c3 + c5 s + c7 s^2 + c9 s^3 + c11 s^4), s = r^2, |r| <= pi/2: the relative
  // minimax fit (2.8e-10 before rounding to float), rounded to float, then c5 moved 3 ulps up
  // (0x1.11111p-7 -> 0x1.111116p-7): with the fit's c5 the result of x = +-300 (float16) lands
  // 1 ulp below a float16 rounding midpoint that glibc's sinf hits exactly. Worst error over all
  // float16 and bfloat16 inputs below the threshold: 1.54 float ulps.
  constexpr float c3 = -0x1.555556p-3f, c5 = 0x1.111116p-7f, c7 = -0x1.a0195ap-13f,
                  c9 = 0x1.71a4acp-19f, c11 = -0x1.9f1ef4p-26f;
  const float s = r * r;
  float p = fmaf(c11, s, c9);
  p = fmaf(p, s, c7);
  p = fmaf(p, s, c5);
  p = fmaf(p, s, c3);
  const float r3 = r * s;
  const float y = fmaf(r3, p, r);
  // sin x = sign(x) (-1)^q sin r; q's parity is t's lowest bit.
  return from_bits(bits(y) ^ (bits(x) & 0x80000000u) ^ (bits(t) << 31));
}

}  // namespace dev
}  // namespace cupp
