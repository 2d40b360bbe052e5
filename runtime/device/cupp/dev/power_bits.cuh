// Device math for power, float_power and the bit-level float ops (nextafter, spacing) and
// bitwise_count, with NumPy's results for every dtype. Embedded and handed to NVRTC with the
// prelude; included at the end of math.cuh, whose helpers (is_signed_int, hypot_of, magnitude) it uses.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {

// ---- power of integers (NumPy's loop): exponentiation by squaring, wrapping around as NumPy's
// C arithmetic does (computed modulo 2^64, then truncated). A negative exponent of a signed type
// gives 0 here; power's signed loops call raise_error() for it in their bodies (specs/ufuncs/
// power.yaml), since only a body that names raise_error makes the engine read the error flag.
template <class T>
__device__ inline T power_integer(T base, T exponent) {
  if constexpr (is_signed_int<T>::value) {
    if (exponent < 0) return T(0);
  }
  if (exponent == 0 || base == 1) return T(1);
  unsigned long long b = static_cast<unsigned long long>(base), e = static_cast<unsigned long long>(exponent);
  unsigned long long out = (e & 1) ? b : 1ull;
  for (e >>= 1; e > 0; e >>= 1) {
    b *= b;
    if (e & 1) out *= b;
  }
  return static_cast<T>(out);
}

// ---- power of real floats: float64 with CUDA's pow; float32 through float64 (rounded once, as
// close to the C library's powf as it gets); float16/bfloat16 as float32, then rounded.
__device__ inline double power_real(double x, double y) { return ::pow(x, y); }
__device__ inline float power_real(float x, float y) {
  return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(y)));
}
template <class T>
__device__ inline T power_float(T x, T y) {
  if constexpr (is_half<T>::value) return from_float<T>(power_real(to_float(x), to_float(y)));
  else return power_real(x, y);
}

// ---- complex power as NumPy's npy_cpow: b == 0 gives 1; a zero base gives 0 for Re b > 0, else
// NaN; a real integer exponent in (-100, 100) multiplies (products rounded on their own, as on
// x86), dividing 1 by the product for a negative one; anything else is the C library's cpow,
// which glibc computes as cexp(b * clog(a)) (libgcc's complex product, glibc's cexp and clog,
// mirrored below with x86's NaN signs where they decide a zero's sign).
namespace pw {

template <class T>
struct limits;
template <>
struct limits<float> {
  __device__ static float max() { return 3.40282347e+38f; }
  __device__ static float min() { return 1.17549435e-38f; }
  __device__ static float epsilon() { return 1.1920929e-07f; }
  __device__ static float inf() { return __int_as_float(0x7f800000); }
  __device__ static float nan() { return __int_as_float(0x7fc00000); }          // C's NAN
  __device__ static float default_nan() { return __int_as_float(0xffc00000); }  // x86's invalid result
  static constexpr int mant_dig = 24;
  static constexpr int exp_limit = 88;  // (int)((FLT_MAX_EXP - 1) * ln 2)
};
template <>
struct limits<double> {
  __device__ static double max() { return 1.7976931348623157e+308; }
  __device__ static double min() { return 2.2250738585072014e-308; }
  __device__ static double epsilon() { return 2.220446049250313e-16; }
  __device__ static double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
  __device__ static double nan() { return __longlong_as_double(0x7ff8000000000000ll); }
  __device__ static double default_nan() { return __longlong_as_double(static_cast<long long>(0xfff8000000000000ull)); }
  static constexpr int mant_dig = 53;
  static constexpr int exp_limit = 709;
};

// glibc's float functions are correctly rounded (or nearly); the float versions here compute in
// double and round once to come as close. double uses CUDA's functions.
__device__ inline double log_(double x) { return ::log(x); }
__device__ inline float log_(float x) { return static_cast<float>(::log(static_cast<double>(x))); }
__device__ inline double log1p_(double x) { return ::log1p(x); }
__device__ inline float log1p_(float x) { return static_cast<float>(::log1p(static_cast<double>(x))); }
__device__ inline double exp_(double x) { return ::exp(x); }
__device__ inline float exp_(float x) { return static_cast<float>(::exp(static_cast<double>(x))); }
__device__ inline double atan2_(double y, double x) { return ::atan2(y, x); }
__device__ inline float atan2_(float y, float x) {
  return static_cast<float>(::atan2(static_cast<double>(y), static_cast<double>(x)));
}
__device__ inline void sincos_(double x, double* s, double* c) { ::sincos(x, s, c); }
__device__ inline void sincos_(float x, float* s, float* c) {
  double sd, cd;
  ::sincos(static_cast<double>(x), &sd, &cd);
  *s = static_cast<float>(sd);
  *c = static_cast<float>(cd);
}
__device__ inline double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ inline float add_rn(float a, float b) { return __fadd_rn(a, b); }

// x86 SSE arithmetic's NaN rules: a NaN operand is passed on (the first one), an invalid
// operation without one gives the default NaN, whose sign bit is set.
template <class T>
__device__ inline T xmul(T a, T b) {
  if (::isnan(a)) return a;
  if (::isnan(b)) return b;
  const T r = mul_rn(a, b);
  return ::isnan(r) ? limits<T>::default_nan() : r;
}
template <class T>
__device__ inline T xadd(T a, T b) {
  if (::isnan(a)) return a;
  if (::isnan(b)) return b;
  const T r = add_rn(a, b);
  return ::isnan(r) ? limits<T>::default_nan() : r;
}
template <class T>
__device__ inline T xsub(T a, T b) {
  return xadd(a, ::isnan(b) ? b : -b);
}

// libgcc's __muldc3 / __mulsc3: (a + bi)(c + di) with C99 Annex G's recovery of infinities.
template <class T>
__device__ inline complex<T> annex_g_mul(T a, T b, T c, T d) {
  const T ac = xmul(a, c), bd = xmul(b, d), ad = xmul(a, d), bc = xmul(b, c);
  T x = xsub(ac, bd), y = xadd(ad, bc);
  if (::isnan(x) && ::isnan(y)) {
    bool recalc = false;
    if (::isinf(a) || ::isinf(b)) {
      a = ::copysign(::isinf(a) ? T(1) : T(0), a);
      b = ::copysign(::isinf(b) ? T(1) : T(0), b);
      if (::isnan(c)) c = ::copysign(T(0), c);
      if (::isnan(d)) d = ::copysign(T(0), d);
      recalc = true;
    }
    if (::isinf(c) || ::isinf(d)) {
      c = ::copysign(::isinf(c) ? T(1) : T(0), c);
      d = ::copysign(::isinf(d) ? T(1) : T(0), d);
      if (::isnan(a)) a = ::copysign(T(0), a);
      if (::isnan(b)) b = ::copysign(T(0), b);
      recalc = true;
    }
    if (!recalc && (::isinf(ac) || ::isinf(bd) || ::isinf(ad) || ::isinf(bc))) {
      if (::isnan(a)) a = ::copysign(T(0), a);
      if (::isnan(b)) b = ::copysign(T(0), b);
      if (::isnan(c)) c = ::copysign(T(0), c);
      if (::isnan(d)) d = ::copysign(T(0), d);
      recalc = true;
    }
    if (recalc) {
      const T inf = limits<T>::inf();
      x = xmul(inf, xsub(xmul(a, c), xmul(b, d)));
      y = xmul(inf, xadd(xmul(a, d), xmul(b, c)));
    }
  }
  return {x, y};
}

// x^2 + y^2 - 1 for 0.5 <= x < 1 with little cancellation error (glibc's __x2y2m1): exact
// products by FMA, error-free sums.
template <class T>
__device__ inline T x2y2m1(T x, T y) {
  const T xx = mul_rn(x, x), exx = ::fma(x, x, -xx);
  const T yy = mul_rn(y, y), eyy = ::fma(y, y, -yy);
  T s1 = add_rn(xx, T(-1));
  const T bb1 = s1 - xx, e1 = (xx - (s1 - bb1)) + (T(-1) - bb1);
  const T s2 = add_rn(s1, yy);
  const T bb2 = s2 - s1, e2 = (s1 - (s2 - bb2)) + (yy - bb2);
  return s2 + ((e1 + e2) + (exx + eyy));
}

// glibc's clog.
template <class T>
__device__ inline complex<T> clog(complex<T> z) {
  const T re = z.re, im = z.im;
  if (re == T(0) && im == T(0)) {
    const T pi = T(3.141592653589793238462643383279502884);
    return {T(-1) / ::fabs(re), ::copysign(::signbit(re) ? pi : T(0), im)};
  }
  if (::isnan(re) || ::isnan(im))
    return {::isinf(re) || ::isinf(im) ? limits<T>::inf() : limits<T>::nan(), limits<T>::nan()};
  T absx = ::fabs(re), absy = ::fabs(im);
  int scale = 0;
  if (absx < absy) {
    const T t = absx;
    absx = absy;
    absy = t;
  }
  if (absx > limits<T>::max() / 2) {
    scale = -1;
    absx = ::scalbn(absx, scale);
    absy = absy >= limits<T>::min() * 2 ? ::scalbn(absy, scale) : T(0);
  } else if (absx < limits<T>::min() && absy < limits<T>::min()) {
    scale = limits<T>::mant_dig;
    absx = ::scalbn(absx, scale);
    absy = ::scalbn(absy, scale);
  }
  T lr;
  if (absx == T(1) && scale == 0) {
    lr = log1p_(mul_rn(absy, absy)) / 2;
  } else if (absx > T(1) && absx < T(2) && absy < T(1) && scale == 0) {
    T d2m1 = mul_rn(absx - T(1), absx + T(1));
    if (absy >= limits<T>::epsilon()) d2m1 = add_rn(d2m1, mul_rn(absy, absy));
    lr = log1p_(d2m1) / 2;
  } else if (absx < T(1) && absx >= T(0.5) && absy < limits<T>::epsilon() / 2 && scale == 0) {
    lr = log1p_(mul_rn(absx - T(1), absx + T(1))) / 2;
  } else if (absx < T(1) && absx >= T(0.5) && scale == 0 && add_rn(mul_rn(absx, absx), mul_rn(absy, absy)) >= T(0.5)) {
    lr = log1p_(x2y2m1(absx, absy)) / 2;
  } else {
    lr = log_(hypot_of(absx, absy)) - scale * T(0.693147180559945309417232121458176568);
  }
  return {lr, atan2_(im, re)};
}

// glibc's cexp.
template <class T>
__device__ inline complex<T> cexp(complex<T> z) {
  T re = z.re;
  const T im = z.im;
  if (::isfinite(re)) {
    if (!::isfinite(im)) return {limits<T>::nan(), limits<T>::nan()};
    const T t = T(limits<T>::exp_limit);
    T s, c;
    if (::fabs(im) > limits<T>::min()) {
      sincos_(im, &s, &c);
    } else {
      s = im;
      c = T(1);
    }
    if (re > t) {
      const T exp_t = exp_(t);
      re -= t;
      s = mul_rn(s, exp_t);
      c = mul_rn(c, exp_t);
      if (re > t) {
        re -= t;
        s = mul_rn(s, exp_t);
        c = mul_rn(c, exp_t);
      }
    }
    if (re > t) return {mul_rn(limits<T>::max(), c), mul_rn(limits<T>::max(), s)};
    const T e = exp_(re);
    return {mul_rn(e, c), mul_rn(e, s)};
  }
  if (::isinf(re)) {
    if (::isfinite(im)) {
      const T value = ::signbit(re) ? T(0) : limits<T>::inf();
      if (im == T(0)) return {value, im};
      T s, c;
      if (::fabs(im) > limits<T>::min()) {
        sincos_(im, &s, &c);
      } else {
        s = im;
        c = T(1);
      }
      return {::copysign(value, c), ::copysign(value, s)};
    }
    if (!::signbit(re)) return {limits<T>::inf(), limits<T>::nan()};
    return {T(0), ::copysign(T(0), im)};
  }
  if (im == T(0)) return {limits<T>::nan(), im};
  return {limits<T>::nan(), limits<T>::nan()};
}

}  // namespace pw

template <class T>
__device__ inline complex<T> power_complex(complex<T> a, complex<T> b) {
  if (b.re == T(0) && b.im == T(0)) return {T(1), T(0)};
  if (a.re == T(0) && a.im == T(0)) {
    if (b.re > T(0)) return {T(0), T(0)};
    return {pw::limits<T>::nan(), pw::limits<T>::nan()};
  }
  if (b.im == T(0) && b.re > T(-100) && b.re < T(100)) {
    long long n = static_cast<long long>(b.re);
    if (static_cast<T>(n) == b.re) {
      if (n == 1) return a;
      if (n == 2) return a * a;
      if (n == 3) return a * (a * a);
      if (n < 0) n = -n;
      complex<T> r(T(1), T(0)), p = a;
      for (long long mask = 1;; mask <<= 1) {
        if (n & mask) r = r * p;
        if (n < (mask << 1)) break;
        p = p * p;
      }
      if (b.re < T(0)) r = complex<T>(T(1), T(0)) / r;
      return r;
    }
  }
  const complex<T> l = pw::clog(a);
  return pw::cexp(pw::annex_g_mul(b.re, b.im, l.re, l.im));
}

// ---- nextafter and spacing. float32/float64: the C library's nextafter; NumPy's spacing:
// the step to the next value away from zero, signed like x (NaN for infinities).
// float16: NumPy's npy_half_nextafter and npy_half_spacing, bit for bit (its spacing is never
// negative, and for a negative power of two it is the smaller step toward zero). bfloat16: the
// same bit-level nextafter (x when x == y) and the float rule for spacing, in bfloat16's own steps.
__device__ inline unsigned short bits_of(__half x) { return __half_as_ushort(x); }
__device__ inline unsigned short bits_of(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
template <class H>
__device__ inline H half_from_bits(unsigned short b) {
  if constexpr (same<H, __half>::value) return __ushort_as_half(b);
  else return __ushort_as_bfloat16(b);
}

template <class H>
__device__ inline H nextafter_half(H x, H y) {
  const unsigned short hx = bits_of(x), hy = bits_of(y);
  const unsigned short nan_bits = same<H, __half>::value ? 0x7e00u : 0x7fc0u;
  if (isnan(x) || isnan(y)) return half_from_bits<H>(nan_bits);
  unsigned short r;
  if (hx == hy || ((hx | hy) & 0x7fffu) == 0) r = hx;
  else if ((hx & 0x7fffu) == 0) r = static_cast<unsigned short>((hy & 0x8000u) + 1);
  else if (!(hx & 0x8000u)) r = static_cast<short>(hx) > static_cast<short>(hy) ? hx - 1 : hx + 1;
  else r = (!(hy & 0x8000u) || (hx & 0x7fffu) > (hy & 0x7fffu)) ? hx - 1 : hx + 1;
  return half_from_bits<H>(r);
}
template <class T>
__device__ inline T nextafter_of(T x, T y) {
  if constexpr (is_half<T>::value) return nextafter_half(x, y);
  else if constexpr (same<T, float>::value) return ::nextafterf(x, y);  // not through double
  else return ::nextafter(x, y);
}

__device__ inline __half spacing_of(__half x) {  // npy_half_spacing
  const unsigned short h = bits_of(x), e = h & 0x7c00u, sig = h & 0x03ffu;
  unsigned short r;
  if (e == 0x7c00u) r = 0x7e00u;
  else if (h == 0x7bffu) r = 0x7c00u;
  else if ((h & 0x8000u) && sig == 0) r = e > 0x2c00u ? e - 0x2c00u : e > 0x0400u ? 1u << ((e >> 10) - 2) : 1u;
  else r = e > 0x2800u ? e - 0x2800u : e > 0x0400u ? 1u << ((e >> 10) - 1) : 1u;
  return __ushort_as_half(r);
}
__device__ inline __nv_bfloat16 spacing_of(__nv_bfloat16 x) {
  const unsigned short h = bits_of(x);
  if ((h & 0x7f80u) == 0x7f80u) return __ushort_as_bfloat16(0x7fc0u);  // inf, nan
  const unsigned short next = (h & 0x7fffu) == 0 ? 1u : h + 1u;
  return __float2bfloat16_rn(__bfloat162float(__ushort_as_bfloat16(next)) - __bfloat162float(x));
}
__device__ inline float spacing_of(float x) {
  if (::isinf(x)) return pw::limits<float>::nan();
  if (::isnan(x)) return x;
  const int b = __float_as_int(x);
  return ((b & 0x7fffffff) == 0 ? __int_as_float(1) : __int_as_float(b + 1)) - x;
}
__device__ inline double spacing_of(double x) {
  if (::isinf(x)) return pw::limits<double>::nan();
  if (::isnan(x)) return x;
  const long long b = __double_as_longlong(x);
  return ((b & 0x7fffffffffffffffll) == 0 ? __longlong_as_double(1) : __longlong_as_double(b + 1)) - x;
}

// ---- bitwise_count: set bits of the magnitude (NumPy 2), as uint8
template <class T>
__device__ inline unsigned char bitwise_count(T x) {
  return static_cast<unsigned char>(__popcll(magnitude(x)));
}

}  // namespace dev
}  // namespace cupp
