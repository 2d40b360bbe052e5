// Device math for the op specs: the element functions whose NumPy semantics need more than an
// operator (NaN-propagating maximum, Python-style integer and float floor division and
// remainder, signs, absolute values, rounding), for every dtype. float16 and bfloat16 compute in
// float32 and round once, as NumPy does. Embedded and handed to NVRTC with the prelude.
#pragma once

#include <cupp/dev/prelude.cuh>

namespace cupp {
namespace dev {

template <class T>
struct is_signed_int {
  static constexpr bool value = same<T, signed char>::value || same<T, short>::value || same<T, int>::value ||
                                same<T, long long>::value;
};
template <class T>
struct is_float_like {  // float16, bfloat16, float32, float64
  static constexpr bool value = is_half<T>::value || is_real_float<T>::value;
};

// The type a value computes in (float for the half types), and the way back.
template <class T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<__half> {
  using type = float;
};
template <>
struct compute_type<__nv_bfloat16> {
  using type = float;
};
template <class T>
__device__ inline typename compute_type<T>::type up(T x) {
  return cast<typename compute_type<T>::type>(x);
}
template <class T, class C>
__device__ inline T down(C x) {
  return cast<T>(x);
}

template <class T>
__device__ inline bool nan_of(T x) {
  return isnan(x);
}

// ---- maximum, minimum (NaN propagates), fmax, fmin (NaN is ignored); NumPy's complex order
template <class T>
__device__ inline bool complex_ge(complex<T> a, complex<T> b) {
  return (a.re > b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im >= b.im);
}
template <class T>
__device__ inline bool complex_le(complex<T> a, complex<T> b) {
  return (a.re < b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}
template <class T>
__device__ inline T maximum(T a, T b) {
  if constexpr (is_complex<T>::value) return complex_ge(a, b) || isnan(a) ? a : b;
  else if constexpr (is_float_like<T>::value) return up(a) >= up(b) || isnan(a) ? a : b;
  else return a >= b ? a : b;
}
template <class T>
__device__ inline T minimum(T a, T b) {
  if constexpr (is_complex<T>::value) return complex_le(a, b) || isnan(a) ? a : b;
  else if constexpr (is_float_like<T>::value) return up(a) <= up(b) || isnan(a) ? a : b;
  else return a <= b ? a : b;
}
template <class T>
__device__ inline T fmax(T a, T b) {
  if constexpr (is_complex<T>::value) return complex_ge(a, b) || isnan(b) ? a : b;
  else if constexpr (is_float_like<T>::value) return up(a) >= up(b) || isnan(b) ? a : b;
  else return a >= b ? a : b;
}
template <class T>
__device__ inline T fmin(T a, T b) {
  if constexpr (is_complex<T>::value) return complex_le(a, b) || isnan(b) ? a : b;
  else if constexpr (is_float_like<T>::value) return up(a) <= up(b) || isnan(b) ? a : b;
  else return a <= b ? a : b;
}

// ---- absolute values and signs
template <class T>
__device__ inline T abs_integer(T x) {  // wraps for the minimum, as NumPy does
  if constexpr (is_signed_int<T>::value)
    return static_cast<T>(x < 0 ? 0ull - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x));
  else return x;
}
template <class T>
__device__ inline T fabs_of(T x) {
  return down<T>(::fabs(up(x)));
}
// hypot as glibc gives it (NumPy's npy_hypot). CUDA's ::hypot is within 2 ULP, so a result at
// the top of the range can round up to inf, and others differ in the last bits. float64 is
// glibc's algorithm (2.35 and later, x86-64 without FMA): sqrt(x^2 + y^2) with one correction
// step, scaled at the ends of the range; float32 computes in float64, where the squares are exact.
__device__ inline double hypot_of(double x, double y) {
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(x) || ::isinf(y)) return __longlong_as_double(0x7ff0000000000000ll);  // inf, even with NaN
    return x + y;
  }
  x = ::fabs(x);
  y = ::fabs(y);
  double ax = x < y ? y : x, ay = x < y ? x : y;
  double scale = 1.0;
  if (ax > 0x1p+511) {
    if (ay <= ax * 0x1p-54) return ax + ay;
    scale = 0x1p+600;
    ax *= 0x1p-600;
    ay *= 0x1p-600;
  } else if (ay < 0x1p-459) {
    if (ax >= ay / 0x1p-54) return ax + ay;
    scale = 0x1p-600;
    ax /= 0x1p-600;
    ay /= 0x1p-600;
  } else if (ay <= ax * 0x1p-54) {
    return ax + ay;
  }
  double h = ::sqrt(__dadd_rn(__dmul_rn(ax, ax), __dmul_rn(ay, ay))), t1, t2;
  if (h <= 2.0 * ay) {
    const double delta = h - ay;
    t1 = __dmul_rn(ax, 2.0 * delta - ax);
    t2 = __dmul_rn(delta - 2.0 * (ax - ay), delta);
  } else {
    const double delta = h - ax;
    t1 = __dmul_rn(2.0 * delta, ax - 2.0 * ay);
    t2 = __dadd_rn(__dmul_rn(4.0 * delta - ay, ay), __dmul_rn(delta, delta));
  }
  h -= __dadd_rn(t1, t2) / (2.0 * h);
  return h * scale;
}
__device__ inline float hypot_of(float x, float y) {
  if (::isinf(x) || ::isinf(y)) return __int_as_float(0x7f800000);
  const double a = x, b = y;
  return static_cast<float>(::sqrt(::fma(a, a, b * b)));
}
template <class T>
__device__ inline T complex_abs(complex<T> z) {
  return hypot_of(z.re, z.im);
}
template <class T>
__device__ inline T sign(T x) {
  if constexpr (is_float_like<T>::value) {
    const auto v = up(x);
    using C = decltype(v);
    return down<T>(v > C(0) ? C(1) : v < C(0) ? C(-1) : v == C(0) ? C(0) : v);
  } else if constexpr (is_signed_int<T>::value) {
    return static_cast<T>((x > 0) - (x < 0));
  } else {
    return static_cast<T>(x > 0);
  }
}
// NumPy 2's complex sign: z / |z| (0 for 0; NaN for NaN; for an infinite |z| the unit of the
// infinite part, NaN when both parts are infinite).
template <class T>
__device__ inline complex<T> sign(complex<T> z) {
  const T a = hypot_of(z.re, z.im);
  const T nan = T(0) / T(0);
  if (::isnan(a)) return {nan, nan};
  if (::isinf(a)) {
    if (::isinf(z.re)) {
      if (::isinf(z.im)) return {nan, nan};
      return {z.re > T(0) ? T(1) : T(-1), T(0)};
    }
    return {T(0), z.im > T(0) ? T(1) : T(-1)};
  }
  if (a == T(0)) return {T(0), T(0)};
  return {z.re / a, z.im / a};
}

// ---- Python-style division of integers (NumPy's values: 0 for a zero divisor; the minimum
// divided by -1 wraps to the minimum, its remainder is 0)
template <class T>
__device__ inline T floor_divide_integer(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int<T>::value) {
    if (b == T(-1)) return static_cast<T>(0ull - static_cast<unsigned long long>(a));
    T q = static_cast<T>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return static_cast<T>(a / b);
  }
}
template <class T>
__device__ inline T remainder_integer(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int<T>::value) {
    if (b == T(-1)) return T(0);
    T r = static_cast<T>(a % b);
    if (r != 0 && ((b < 0) != (r < 0))) r = static_cast<T>(r + b);
    return r;
  } else {
    return static_cast<T>(a % b);
  }
}
template <class T>
__device__ inline T fmod_integer(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int<T>::value) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

// ---- NumPy's float divmod (npy_divmod): floor quotient and remainder with the divisor's sign
template <class C>
__device__ inline C divmod_float(C a, C b, C& mod) {
  mod = ::fmod(a, b);
  if (b == C(0)) return a / b;
  C div = (a - mod) / b;
  if (mod != C(0)) {
    if ((b < C(0)) != (mod < C(0))) {
      mod += b;
      div -= C(1);
    }
  } else {
    mod = ::copysign(C(0), b);
  }
  C floordiv;
  if (div != C(0)) {
    floordiv = ::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);
  } else {
    floordiv = ::copysign(C(0), a / b);
  }
  return floordiv;
}
template <class T>
__device__ inline T floor_divide_float(T a, T b) {
  using C = typename compute_type<T>::type;
  C mod;
  const C x = up(a), y = up(b);
  if (y == C(0)) return down<T>(x / y);
  return down<T>(divmod_float(x, y, mod));
}
template <class T>
__device__ inline T remainder_float(T a, T b) {
  using C = typename compute_type<T>::type;
  const C x = up(a), y = up(b);
  if (y == C(0)) return down<T>(::fmod(x, y));
  C mod;
  divmod_float(x, y, mod);
  return down<T>(mod);
}

// ---- element predicates and rounding
template <class T>
__device__ inline bool isinf_of(T x) {
  if constexpr (is_complex<T>::value) return ::isinf(x.re) || ::isinf(x.im);
  else if constexpr (is_float_like<T>::value) return ::isinf(up(x));
  else return false;
}
template <class T>
__device__ inline bool isfinite_of(T x) {
  if constexpr (is_complex<T>::value) return ::isfinite(x.re) && ::isfinite(x.im);
  else if constexpr (is_float_like<T>::value) return ::isfinite(up(x));
  else return true;
}

// ---- reciprocal: integers as NumPy's C code computes them, (T)(1.0 / x); complex by NumPy's
// scaled algorithm (products not fused, as on x86)
template <class T>
__device__ inline T reciprocal(T x) {
  if constexpr (is_complex<T>::value) {
    using R = decltype(x.re);
    if (::fabs(x.im) <= ::fabs(x.re)) {
      const R r = x.im / x.re, d = x.re + mul_rn(x.im, r);
      return {R(1) / d, -r / d};
    }
    const R r = x.re / x.im, d = mul_rn(x.re, r) + x.im;
    return {r / d, R(-1) / d};
  } else if constexpr (is_float_like<T>::value) {
    using C = typename compute_type<T>::type;
    return down<T>(C(1) / up(x));
  } else if constexpr (same<T, unsigned long long>::value) {
    // NumPy's C conversion to uint64 (x86 without AVX-512) maps 1.0/0 = inf to 0, where its
    // astype gives 2^63; no other integer has an out-of-range reciprocal.
    return x == 0 ? T(0) : cast<T>(1.0 / static_cast<double>(x));
  } else {
    return cast<T>(1.0 / static_cast<double>(x));
  }
}

// ---- logaddexp, logaddexp2 (NumPy's npy_logaddexp: exact for equal inputs, NaN for NaN)
template <class C>
__device__ inline C logaddexp(C x, C y) {
  if (x == y) return x + C(0.693147180559945309417232121458176568);  // handles infinities
  const C d = x - y;
  if (d > C(0)) return x + ::log1p(::exp(-d));
  if (d <= C(0)) return y + ::log1p(::exp(d));
  return d;  // NaN
}
template <class C>
__device__ inline C logaddexp2(C x, C y) {
  const C log2e = C(1.442695040888963407359924681001892137);
  if (x == y) return x + C(1);
  const C d = x - y;
  if (d > C(0)) return x + log2e * ::log1p(::exp2(-d));
  if (d <= C(0)) return y + log2e * ::log1p(::exp2(d));
  return d;
}

// ---- gcd and lcm of integers, on magnitudes (results wrap as NumPy's do)
template <class T>
__device__ inline unsigned long long magnitude(T x) {
  if constexpr (is_signed_int<T>::value)
    return x < 0 ? 0ull - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x);
  else return static_cast<unsigned long long>(x);
}
template <class T>
__device__ inline T gcd(T a, T b) {
  unsigned long long x = magnitude(a), y = magnitude(b);
  while (x != 0) {
    const unsigned long long c = x;
    x = y % x;
    y = c;
  }
  return static_cast<T>(y);
}
template <class T>
__device__ inline T lcm(T a, T b) {
  const unsigned long long g = magnitude(gcd(a, b));
  if (g == 0) return T(0);
  return static_cast<T>(magnitude(a) / g * magnitude(b));
}

}  // namespace dev
}  // namespace cupp

#include <cupp/dev/transcendental.cuh>
#include <cupp/dev/power_bits.cuh>
