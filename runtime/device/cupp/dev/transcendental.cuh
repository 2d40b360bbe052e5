// Device math for the exponential, logarithmic, trigonometric and hyperbolic op specs (exp, log,
// sqrt, cos, tan, arcsin ... arctanh), real and complex, with NumPy's (the C library's) special
// values. Embedded and handed to NVRTC with the prelude; included from math.cuh.
//
// Real loops call CUDA's functions directly from the specs. Complex loops follow what NumPy calls:
// glibc's cexp, clog, csqrt, ccos, ccosh, csinh, ctan, ctanh, casin, casinh, cacos, cacosh, catan
// and catanh (the same algorithms, C99 Annex G special values and signs), and NumPy's own
// formulas for exp2, expm1, log2, log10 and log1p (funcs.inc.src). complex64 runs the float
// algorithm in float, as glibc's float functions do; their real building blocks (exp, sin, log,
// ...) are computed in double and rounded once, as close as glibc's float functions are to the
// correctly rounded result. Only templates: nothing is compiled unless an op uses it.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {
namespace tr {  // the helpers stay in here; the functions the specs call are listed at the end

// glibc's M_EPSILON, M_MIN, M_MAX, M_MANT_DIG and the thresholds its complex functions derive
// from M_MAX_EXP: t = (int)((MAX_EXP - 1) ln 2) for exp and t / 2 for tanh.
template <class T>
struct flt;
template <>
struct flt<float> {
  static constexpr float eps = 0x1p-23f, min = 0x1p-126f, max = 0x1.fffffep127f;
  static constexpr int mant_dig = 24, exp_t = 88, tanh_t = 44;
  static constexpr float pi = 3.14159265358979323846f, pi_2 = 1.57079632679489661923f,
                         pi_4 = 0.78539816339744830962f, ln2 = 0.69314718055994530942f;
  __device__ static float inf() { return __int_as_float(0x7f800000); }
  __device__ static float nan() { return __int_as_float(0x7fc00000); }
};
template <>
struct flt<double> {
  static constexpr double eps = 0x1p-52, min = 0x1p-1022, max = 0x1.fffffffffffffp1023;
  static constexpr int mant_dig = 53, exp_t = 709, tanh_t = 354;
  static constexpr double pi = 3.14159265358979323846, pi_2 = 1.57079632679489661923,
                          pi_4 = 0.78539816339744830962, ln2 = 0.69314718055994530942;
  __device__ static double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
  __device__ static double nan() { return __longlong_as_double(0x7ff8000000000000ll); }
};

// The real functions the complex algorithms use: double as CUDA computes it, float computed in
// double and rounded once.
namespace lm {
__device__ inline double exp(double x) { return ::exp(x); }
__device__ inline float exp(float x) { return static_cast<float>(::exp(static_cast<double>(x))); }
__device__ inline double expm1(double x) { return ::expm1(x); }
__device__ inline float expm1(float x) { return static_cast<float>(::expm1(static_cast<double>(x))); }
__device__ inline double log(double x) { return ::log(x); }
__device__ inline float log(float x) { return static_cast<float>(::log(static_cast<double>(x))); }
__device__ inline double log1p(double x) { return ::log1p(x); }
__device__ inline float log1p(float x) { return static_cast<float>(::log1p(static_cast<double>(x))); }
__device__ inline double sin(double x) { return ::sin(x); }
__device__ inline float sin(float x) { return static_cast<float>(::sin(static_cast<double>(x))); }
__device__ inline double cos(double x) { return ::cos(x); }
__device__ inline float cos(float x) { return static_cast<float>(::cos(static_cast<double>(x))); }
__device__ inline double sinh(double x) { return ::sinh(x); }
__device__ inline float sinh(float x) { return static_cast<float>(::sinh(static_cast<double>(x))); }
__device__ inline double cosh(double x) { return ::cosh(x); }
__device__ inline float cosh(float x) { return static_cast<float>(::cosh(static_cast<double>(x))); }
__device__ inline double atan2(double y, double x) { return ::atan2(y, x); }
__device__ inline float atan2(float y, float x) {
  return static_cast<float>(::atan2(static_cast<double>(y), static_cast<double>(x)));
}
__device__ inline double sqrt(double x) { return ::sqrt(x); }
__device__ inline float sqrt(float x) { return ::sqrtf(x); }  // correctly rounded
// sin and cos of y; for |y| <= the smallest normal, (y, 1) as glibc's complex functions take.
template <class T>
__device__ inline void sincos(T y, T& s, T& c) {
  if (!(::fabs(y) > flt<T>::min)) {
    s = y;
    c = T(1);
    return;
  }
  double sd, cd;
  ::sincos(static_cast<double>(y), &sd, &cd);
  s = static_cast<T>(sd);
  c = static_cast<T>(cd);
}
}  // namespace lm

// x^2 + y^2 - 1 without cancellation, for 1 > x >= y and x^2 + y^2 >= 0.5 (glibc's __x2y2m1):
// float in double; double from the exact products (fma), summed as glibc sums them (terms kept
// sorted by magnitude, each pair split into sum and error), so the last bit agrees.
__device__ inline float x2y2m1(float x, float y) {
  const double dx = x, dy = y;
  return static_cast<float>(__dmul_rn(dx - 1, dx + 1) + __dmul_rn(dy, dy));
}
__device__ inline void sort_by_magnitude(double* v, int from) {
  for (int i = from + 1; i < 5; ++i) {
    const double t = v[i];
    int j = i;
    for (; j > from && ::fabs(v[j - 1]) > ::fabs(t); --j) v[j] = v[j - 1];
    v[j] = t;
  }
}
__device__ inline double x2y2m1(double x, double y) {
  double v[5];
  v[1] = __dmul_rn(x, x);
  v[0] = ::fma(x, x, -v[1]);
  v[3] = __dmul_rn(y, y);
  v[2] = ::fma(y, y, -v[3]);
  v[4] = -1.0;
  sort_by_magnitude(v, 0);
  for (int i = 0; i <= 3; ++i) {
    const double hi = v[i + 1] + v[i];
    v[i] = (v[i + 1] - hi) + v[i];
    v[i + 1] = hi;
    sort_by_magnitude(v, i + 1);
  }
  return v[4] + v[3] + v[2] + v[1] + v[0];
}

// ---- cexp
template <class T>
__device__ inline complex<T> cexp(complex<T> z) {
  using L = flt<T>;
  T x = z.re;
  const T y = z.im;
  if (::isfinite(x)) {
    if (!::isfinite(y)) return {L::nan(), L::nan()};
    const T t = T(L::exp_t);
    T s, c;
    lm::sincos(y, s, c);
    if (x > t) {
      const T exp_t = lm::exp(t);
      x -= t;
      s *= exp_t;
      c *= exp_t;
      if (x > t) {
        x -= t;
        s *= exp_t;
        c *= exp_t;
      }
    }
    if (x > t) return {L::max * c, L::max * s};
    const T e = lm::exp(x);
    return {e * c, e * s};
  }
  if (::isinf(x)) {
    if (::isfinite(y)) {
      const T v = ::signbit(x) ? T(0) : L::inf();
      if (y == T(0)) return {v, y};
      T s, c;
      lm::sincos(y, s, c);
      return {::copysign(v, c), ::copysign(v, s)};
    }
    if (!::signbit(x)) return {L::inf(), y - y};
    return {T(0), ::copysign(T(0), y)};
  }
  return {L::nan(), y == T(0) ? y : L::nan()};
}

// ---- ccosh, csinh, ccos
template <class T>
__device__ inline complex<T> ccosh(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (::isfinite(x)) {
    if (!::isfinite(y)) return {y - y, x == T(0) ? T(0) : L::nan()};
    const T t = T(L::exp_t);
    T s, c;
    lm::sincos(y, s, c);
    if (::fabs(x) > t) {
      const T exp_t = lm::exp(t);
      T rx = ::fabs(x);
      if (::signbit(x)) s = -s;
      rx -= t;
      s *= exp_t / T(2);
      c *= exp_t / T(2);
      if (rx > t) {
        rx -= t;
        s *= exp_t;
        c *= exp_t;
      }
      if (rx > t) return {L::max * c, L::max * s};
      const T e = lm::exp(rx);
      return {e * c, e * s};
    }
    return {lm::cosh(x) * c, lm::sinh(x) * s};
  }
  if (::isinf(x)) {
    if (::isfinite(y) && y != T(0)) {
      T s, c;
      lm::sincos(y, s, c);
      return {::copysign(L::inf(), c), ::copysign(L::inf(), s) * ::copysign(T(1), x)};
    }
    if (y == T(0)) return {L::inf(), y * ::copysign(T(1), x)};
    return {L::inf(), y - y};
  }
  return {L::nan(), y == T(0) ? y : L::nan()};
}
template <class T>
__device__ inline complex<T> csinh(complex<T> z) {
  using L = flt<T>;
  const bool negate = ::signbit(z.re);
  T rx = ::fabs(z.re);
  const T y = z.im;
  if (::isfinite(rx)) {
    if (!::isfinite(y)) {
      if (rx == T(0)) return {negate ? T(-0.0) : T(0), y - y};
      return {L::nan(), L::nan()};
    }
    const T t = T(L::exp_t);
    T s, c;
    lm::sincos(y, s, c);
    if (negate) c = -c;
    if (rx > t) {
      const T exp_t = lm::exp(t);
      rx -= t;
      s *= exp_t / T(2);
      c *= exp_t / T(2);
      if (rx > t) {
        rx -= t;
        s *= exp_t;
        c *= exp_t;
      }
      if (rx > t) return {L::max * c, L::max * s};
      const T e = lm::exp(rx);
      return {e * c, e * s};
    }
    return {lm::sinh(rx) * c, lm::cosh(rx) * s};
  }
  if (::isinf(rx)) {
    if (::isfinite(y) && y != T(0)) {
      T s, c;
      lm::sincos(y, s, c);
      const T re = ::copysign(L::inf(), c);
      return {negate ? -re : re, ::copysign(L::inf(), s)};
    }
    if (y == T(0)) return {negate ? -L::inf() : L::inf(), y};
    return {L::inf(), y - y};
  }
  return {L::nan(), y == T(0) ? y : L::nan()};
}
template <class T>
__device__ inline complex<T> ccos(complex<T> z) {
  return ccosh(complex<T>(-z.im, z.re));
}

// ---- ctanh, ctan
template <class T>
__device__ inline complex<T> ctanh(complex<T> z) {
  using L = flt<T>;
  T x = z.re;
  const T y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(x)) {
      T im;
      if (::isfinite(y) && ::fabs(y) > T(1)) {
        T s, c;
        lm::sincos(y, s, c);
        im = ::copysign(T(0), s * c);
      } else {
        im = ::copysign(T(0), y);
      }
      return {::copysign(T(1), x), im};
    }
    if (y == T(0)) return z;
    return {x == T(0) ? x : L::nan(), L::nan()};
  }
  const T t = T(L::tanh_t);
  T s, c;
  lm::sincos(y, s, c);
  if (::fabs(x) > t) {
    // Real part +-1; imaginary part 4 sin(y) cos(y) / exp(2|x|), in steps to avoid overflow.
    const T exp_2t = lm::exp(T(2) * t);
    T im = T(4) * s * c;
    x = ::fabs(x) - t;
    im /= exp_2t;
    if (x > t) im /= exp_2t;
    else im /= lm::exp(T(2) * x);
    return {::copysign(T(1), z.re), im};
  }
  T sh, ch;
  if (::fabs(x) > L::min) {
    sh = lm::sinh(x);
    ch = lm::cosh(x);
  } else {
    sh = x;
    ch = T(1);
  }
  const T den = ::fabs(sh) > ::fabs(c) * L::eps ? mul_rn(sh, sh) + mul_rn(c, c) : mul_rn(c, c);
  return {mul_rn(sh, ch) / den, mul_rn(s, c) / den};
}
template <class T>
__device__ inline complex<T> ctan(complex<T> z) {
  using L = flt<T>;
  const T x = z.re;
  T y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(y)) {
      T re;
      if (::isfinite(x) && ::fabs(x) > T(1)) {
        T s, c;
        lm::sincos(x, s, c);
        re = ::copysign(T(0), s * c);
      } else {
        re = ::copysign(T(0), x);
      }
      return {re, ::copysign(T(1), y)};
    }
    if (x == T(0)) return z;
    return {L::nan(), y == T(0) ? y : L::nan()};
  }
  const T t = T(L::tanh_t);
  T s, c;
  lm::sincos(x, s, c);
  if (::fabs(y) > t) {
    const T exp_2t = lm::exp(T(2) * t);
    T re = T(4) * s * c;
    y = ::fabs(y) - t;
    re /= exp_2t;
    if (y > t) re /= exp_2t;
    else re /= lm::exp(T(2) * y);
    return {re, ::copysign(T(1), z.im)};
  }
  T sh, ch;
  if (::fabs(y) > L::min) {
    sh = lm::sinh(y);
    ch = lm::cosh(y);
  } else {
    sh = y;
    ch = T(1);
  }
  const T den = ::fabs(sh) > ::fabs(c) * L::eps ? mul_rn(c, c) + mul_rn(sh, sh) : mul_rn(c, c);
  return {mul_rn(s, c) / den, mul_rn(sh, ch) / den};
}

// ---- clog (the real part without cancellation near |z| = 1, scaled at the ends of the range)
// log|x + i y| for finite or infinite x, y, not both zero, as glibc's clog computes it, left
// unevaluated so that a caller with several regions evaluates one log and one log1p: the value
// is log1p(arg) / 2 when half_log1p, else log(arg) + add.
template <class T>
struct log_arg {
  T arg, add;
  bool half_log1p;
};
template <class T>
__device__ inline T eval_log(log_arg<T> a) {
  return a.half_log1p ? lm::log1p(a.arg) / T(2) : lm::log(a.arg) + a.add;
}
template <class T>
__device__ inline log_arg<T> log_abs_arg(T x, T y) {
  using L = flt<T>;
  T ax = ::fabs(x), ay = ::fabs(y);
  int scale = 0;
  if (ax < ay) {
    const T tmp = ax;
    ax = ay;
    ay = tmp;
  }
  if (ax > L::max / T(2)) {
    scale = -1;
    ax = ::scalbn(ax, scale);
    ay = ay >= L::min * T(2) ? ::scalbn(ay, scale) : T(0);
  } else if (ax < L::min && ay < L::min) {
    scale = L::mant_dig;
    ax = ::scalbn(ax, scale);
    ay = ::scalbn(ay, scale);
  }
  if (scale == 0) {
    if (ax == T(1)) return {mul_rn(ay, ay), T(0), true};
    if (ax > T(1) && ax < T(2) && ay < T(1)) {
      T d2m1 = mul_rn(ax - T(1), ax + T(1));
      if (ay >= L::eps) d2m1 += mul_rn(ay, ay);
      return {d2m1, T(0), true};
    }
    if (ax < T(1) && ax >= T(0.5) && ay < L::eps / T(2)) return {mul_rn(ax - T(1), ax + T(1)), T(0), true};
    if (ax < T(1) && ax >= T(0.5) && mul_rn(ax, ax) + mul_rn(ay, ay) >= T(0.5)) return {x2y2m1(ax, ay), T(0), true};
  }
  return {hypot_of(ax, ay), -mul_rn(T(scale), L::ln2), false};
}
template <class T>
__device__ inline complex<T> clog(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (x == T(0) && y == T(0)) {
    const T im = ::copysign(::signbit(x) ? L::pi : T(0), y);
    return {T(-1) / ::fabs(x), im};
  }
  if (::isnan(x) || ::isnan(y)) return {::isinf(x) || ::isinf(y) ? L::inf() : L::nan(), L::nan()};
  return {eval_log(log_abs_arg(x, y)), lm::atan2(y, x)};
}

// ---- csqrt (the smaller part from 2 Re Im = Im z, avoiding cancellation)
template <class T>
__device__ inline complex<T> csqrt(complex<T> z) {
  using L = flt<T>;
  T x = z.re, y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(y)) return {L::inf(), y};
    if (::isinf(x)) {
      if (x < T(0)) return {::isnan(y) ? L::nan() : T(0), ::copysign(L::inf(), y)};
      return {x, ::isnan(y) ? L::nan() : ::copysign(T(0), y)};
    }
    return {L::nan(), L::nan()};
  }
  if (y == T(0)) {
    if (x < T(0)) return {T(0), ::copysign(lm::sqrt(-x), y)};
    return {::fabs(lm::sqrt(x)), ::copysign(T(0), y)};
  }
  if (x == T(0)) {
    const T r = ::fabs(y) >= T(2) * L::min ? lm::sqrt(T(0.5) * ::fabs(y)) : T(0.5) * lm::sqrt(T(2) * ::fabs(y));
    return {r, ::copysign(r, y)};
  }
  int scale = 0;
  if (::fabs(x) > L::max / T(4)) {
    scale = 1;
    x = ::scalbn(x, -2);
    y = ::scalbn(y, -2);
  } else if (::fabs(y) > L::max / T(4)) {
    scale = 1;
    x = ::fabs(x) >= T(4) * L::min ? ::scalbn(x, -2) : T(0);
    y = ::scalbn(y, -2);
  } else if (::fabs(x) < T(2) * L::min && ::fabs(y) < T(2) * L::min) {
    scale = -((L::mant_dig + 1) / 2);
    x = ::scalbn(x, -2 * scale);
    y = ::scalbn(y, -2 * scale);
  }
  const T d = hypot_of(x, y);
  T r, s;
  if (x > T(0)) {
    r = lm::sqrt(T(0.5) * (d + x));
    if (scale == 1 && ::fabs(y) < T(1)) {
      s = y / r;
      r = ::scalbn(r, scale);
      scale = 0;
    } else {
      s = T(0.5) * (y / r);
    }
  } else {
    s = lm::sqrt(T(0.5) * (d - x));
    if (scale == 1 && ::fabs(y) < T(1)) {
      r = ::fabs(y / s);
      s = ::scalbn(s, scale);
      scale = 0;
    } else {
      r = ::fabs(T(0.5) * (y / s));
    }
  }
  if (scale) {
    r = ::scalbn(r, scale);
    s = ::scalbn(s, scale);
  }
  return {r, ::copysign(s, y)};
}

// ---- casinh and its relatives (Hull et al.'s regions, as glibc's __kernel_casinh): for finite
// nonzero z, asinh(z); with adj, the imaginary part is taken from pi/2 (for cacos and cacosh).
// Each region only prepares the arguments of one log (or log1p) and one atan2, evaluated once at
// the end: these are large in double, and every loop of an op is compiled in every layout class.
template <class T>
__device__ __noinline__ complex<T> kernel_casinh(complex<T> z, bool adj) {
  using L = flt<T>;
  const T rx = ::fabs(z.re), ix = ::fabs(z.im);
  const T sy = ::copysign(T(1), z.im);  // the sign of z.im, for adj
  log_arg<T> la{T(0), T(0), true};
  T p, q;  // the imaginary part is atan2(p, q)
  bool large = false;
  if (rx >= T(1) / L::eps || ix >= T(1) / L::eps) {
    // x + sqrt(1 + x^2) is 2x to working precision: log(2x) without squaring.
    large = true;
    const T a = adj ? ::copysign(ix, z.im) : rx, b = adj ? rx : ix;
    la = log_abs_arg(a, b);
    p = b;
    q = a;
  } else if ((rx >= T(0.5) && ix < L::eps / T(8)) || (rx < T(0.5) && ix < L::eps)) {
    // |Im z| tiny: hypot(1, |Re z|) gives both parts
    const T s = hypot_of(T(1), rx);
    if (rx >= T(0.5)) la = {rx + s, T(0), false};
    else la = {mul_rn(T(2) * rx, rx + s), T(0), true};
    p = adj ? s : ix;
    q = adj ? z.im : s;
  } else if (rx < L::eps / T(8) && ix >= T(1.5)) {
    const T s = lm::sqrt(mul_rn(ix + T(1), ix - T(1)));
    la = {ix + s, T(0), false};
    p = adj ? rx : s;
    q = adj ? ::copysign(s, z.im) : rx;
  } else if (ix > T(1) && ix < T(1.5) && rx < T(0.5)) {
    const T ix2m1 = mul_rn(ix + T(1), ix - T(1));
    T a, b;  // atan2(a, b) without adj
    if (rx < L::eps * L::eps) {
      const T s = lm::sqrt(ix2m1);
      la.arg = T(2) * (ix2m1 + mul_rn(ix, s));
      a = s;
      b = rx;
    } else {
      const T rx2 = mul_rn(rx, rx);
      const T f = mul_rn(rx2, T(2) + rx2 + T(2) * mul_rn(ix, ix));
      const T d = lm::sqrt(mul_rn(ix2m1, ix2m1) + f);
      const T dp = d + ix2m1;
      const T dm = f / dp;
      const T r1 = lm::sqrt((dm + rx2) / T(2));
      const T r2 = mul_rn(rx, ix) / r1;
      la.arg = rx2 + dp + T(2) * (mul_rn(rx, r1) + mul_rn(ix, r2));
      a = ix + r2;
      b = rx + r1;
    }
    p = adj ? b : a;
    q = adj ? sy * a : b;
  } else if (ix == T(1) && rx < T(0.5)) {
    T a, b;
    if (rx < L::eps / T(8)) {
      const T sr = lm::sqrt(rx);
      la.arg = T(2) * (rx + sr);
      a = T(1);
      b = sr;
    } else {
      const T d = mul_rn(rx, lm::sqrt(T(4) + mul_rn(rx, rx)));
      const T s1 = lm::sqrt((d + mul_rn(rx, rx)) / T(2));
      const T s2 = lm::sqrt((d - mul_rn(rx, rx)) / T(2));
      la.arg = mul_rn(rx, rx) + d + T(2) * (mul_rn(rx, s1) + s2);
      a = T(1) + s2;
      b = rx + s1;
    }
    p = adj ? b : a;
    q = adj ? sy * a : b;
  } else if (ix < T(1) && rx < T(0.5)) {  // here ix >= eps
    const T onemix2 = mul_rn(T(1) + ix, T(1) - ix);
    T a, b;
    if (rx < L::eps * L::eps) {
      const T s = lm::sqrt(onemix2);
      la.arg = T(2) * rx / s;
      a = ix;
      b = s;
    } else {
      const T rx2 = mul_rn(rx, rx);
      const T f = mul_rn(rx2, T(2) + rx2 + T(2) * mul_rn(ix, ix));
      const T d = lm::sqrt(mul_rn(onemix2, onemix2) + f);
      const T dp = d + onemix2;
      const T dm = f / dp;
      const T r1 = lm::sqrt((dp + rx2) / T(2));
      const T r2 = mul_rn(rx, ix) / r1;
      la.arg = rx2 + dm + T(2) * (mul_rn(rx, r1) + mul_rn(ix, r2));
      a = ix + r2;
      b = rx + r1;
    }
    p = adj ? b : a;
    q = adj ? sy * a : b;
  } else {
    complex<T> y(mul_rn(rx - ix, rx + ix) + T(1), mul_rn(T(2) * rx, ix));
    y = csqrt(y);
    y.re += rx;
    y.im += ix;
    const T a = adj ? ::copysign(y.im, z.im) : y.re, b = adj ? y.re : y.im;
    la = log_abs_arg(a, b);
    p = b;
    q = a;
  }
  T re = eval_log(la);
  if (large) re += L::ln2;
  const T im = lm::atan2(p, q);
  return {::copysign(re, z.re), ::copysign(im, adj ? T(1) : z.im)};
}
// casinh where a part is infinite or NaN, or both are zero (C99 Annex G, glibc's signs).
template <class T>
__device__ inline complex<T> casinh_special(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (::isinf(y)) {
    if (::isnan(x)) return {::copysign(L::inf(), x), L::nan()};
    return {::copysign(L::inf(), x), ::copysign(::isfinite(x) ? L::pi_2 : L::pi_4, y)};
  }
  if (!::isfinite(x)) {  // y finite or NaN
    if ((::isinf(x) && ::isfinite(y)) || (::isnan(x) && y == T(0))) return {x, ::copysign(T(0), y)};
    return {x, L::nan()};
  }
  if (::isnan(y)) return {L::nan(), L::nan()};
  return z;  // both zero
}
template <class T>
__device__ inline bool finite_nonzero(complex<T> z) {
  return ::isfinite(z.re) && ::isfinite(z.im) && (z.re != T(0) || z.im != T(0));
}
template <class T>
__device__ inline complex<T> casinh(complex<T> z) {
  return finite_nonzero(z) ? kernel_casinh(z, false) : casinh_special(z);
}
// casin(z) = -i casinh(i z); with Special, only for z that casinh_special covers.
template <class T, bool Special = false>
__device__ inline complex<T> casin(complex<T> z) {
  using L = flt<T>;
  if (::isnan(z.re) || ::isnan(z.im)) {
    if (z.re == T(0)) return z;
    if (::isinf(z.re) || ::isinf(z.im)) return {L::nan(), ::copysign(L::inf(), z.im)};
    return {L::nan(), L::nan()};
  }
  const complex<T> iz(-z.im, z.re);
  complex<T> w;
  if constexpr (Special) w = casinh_special(iz);
  else w = casinh(iz);
  return {w.im, -w.re};
}
template <class T>
__device__ inline complex<T> cacos(complex<T> z) {
  using L = flt<T>;
  if (!finite_nonzero(z)) {
    const complex<T> w = casin<T, true>(z);
    T re = L::pi_2 - w.re;
    if (re == T(0)) re = T(0);
    return {re, -w.im};
  }
  const complex<T> w = kernel_casinh(complex<T>(-z.im, z.re), true);
  return {w.im, w.re};
}
template <class T>
__device__ inline complex<T> cacosh(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(y)) {
      if (::isnan(x)) return {L::inf(), L::nan()};
      const T a = ::isinf(x) ? (x < T(0) ? L::pi - L::pi_4 : L::pi_4) : L::pi_2;
      return {L::inf(), ::copysign(a, y)};
    }
    if (::isinf(x)) return {L::inf(), ::isfinite(y) ? ::copysign(::signbit(x) ? L::pi : T(0), y) : L::nan()};
    return {L::nan(), x == T(0) ? L::pi_2 : L::nan()};
  }
  if (x == T(0) && y == T(0)) return {T(0), ::copysign(L::pi_2, y)};
  const complex<T> w = kernel_casinh(complex<T>(-y, x), true);
  if (::signbit(y)) return {w.re, -w.im};
  return {-w.re, w.im};
}

// ---- catanh, catan
// The denominator 1 - x^2 - y^2 of the imaginary part (real part for catan), |x| >= |y| sorted.
template <class T>
__device__ inline T one_minus_x2y2(T a, T b) {
  using L = flt<T>;
  T ax = ::fabs(a), ay = ::fabs(b);
  if (ax < ay) {
    const T tmp = ax;
    ax = ay;
    ay = tmp;
  }
  if (ay < L::eps / T(2)) {
    const T den = mul_rn(T(1) - ax, T(1) + ax);
    return den == T(0) ? T(0) : den;
  }
  if (ax >= T(1) || !(ax >= T(0.75) || ay >= T(0.5))) return mul_rn(T(1) - ax, T(1) + ax) - mul_rn(ay, ay);
  return -x2y2m1(ax, ay);
}
// 1/4 log(((1 + a)^2 + b^2) / ((1 - a)^2 + b^2)): catanh's real part (catan's imaginary part).
template <class T>
__device__ inline T quarter_log_ratio(T a, T b) {
  using L = flt<T>;
  if (::fabs(a) == T(1) && ::fabs(b) < L::eps * L::eps)
    return ::copysign(T(0.5), a) * (L::ln2 - lm::log(::fabs(b)));
  const T b2 = ::fabs(b) >= L::eps * L::eps ? mul_rn(b, b) : T(0);
  T num = T(1) + a;
  num = b2 + mul_rn(num, num);
  T den = T(1) - a;
  den = b2 + mul_rn(den, den);
  const T f = num / den;
  if (f < T(0.5)) return T(0.25) * lm::log(f);
  return T(0.25) * lm::log1p(T(4) * a / den);
}
template <class T>
__device__ inline complex<T> catanh(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(y)) return {::copysign(T(0), x), ::copysign(L::pi_2, y)};
    if (::isinf(x) || x == T(0)) return {::copysign(T(0), x), ::isfinite(y) ? ::copysign(L::pi_2, y) : L::nan()};
    return {L::nan(), L::nan()};
  }
  if (x == T(0) && y == T(0)) return z;
  if (::fabs(x) >= T(16) / L::eps || ::fabs(y) >= T(16) / L::eps) {
    T re;
    if (::fabs(y) <= T(1)) re = T(1) / x;
    else if (::fabs(x) <= T(1)) re = x / y / y;
    else {
      const T h = hypot_of(x / T(2), y / T(2));
      re = x / h / h / T(4);
    }
    return {re, ::copysign(L::pi_2, y)};
  }
  return {quarter_log_ratio(x, y), T(0.5) * lm::atan2(T(2) * y, one_minus_x2y2(x, y))};
}
template <class T>
__device__ inline complex<T> catan(complex<T> z) {
  using L = flt<T>;
  const T x = z.re, y = z.im;
  if (!::isfinite(x) || !::isfinite(y)) {
    if (::isinf(x)) return {::copysign(L::pi_2, x), ::copysign(T(0), y)};
    if (::isinf(y)) return {::isfinite(x) ? ::copysign(L::pi_2, x) : L::nan(), ::copysign(T(0), y)};
    if (y == T(0)) return {L::nan(), ::copysign(T(0), y)};
    return {L::nan(), L::nan()};
  }
  if (x == T(0) && y == T(0)) return z;
  if (::fabs(x) >= T(16) / L::eps || ::fabs(y) >= T(16) / L::eps) {
    T im;
    if (::fabs(x) <= T(1)) im = T(1) / y;
    else if (::fabs(y) <= T(1)) im = y / x / x;
    else {
      const T h = hypot_of(x / T(2), y / T(2));
      im = y / h / h / T(4);
    }
    return {::copysign(L::pi_2, x), im};
  }
  return {T(0.5) * lm::atan2(T(2) * x, one_minus_x2y2(x, y)), quarter_log_ratio(y, x)};
}

// ---- NumPy's own complex formulas (funcs.inc.src), in the loop's precision
// exp2(z) = exp(z ln 2)
template <class T>
__device__ inline complex<T> cexp2(complex<T> z) {
  const T ln2 = flt<T>::ln2;
  return cexp(complex<T>(mul_rn(z.re, ln2), mul_rn(z.im, ln2)));
}
// expm1(z) = (expm1(x) cos(y) - 2 sin(y/2)^2) + i exp(x) sin(y)
template <class T>
__device__ inline complex<T> cexpm1(complex<T> z) {
  const T a = lm::sin(z.im / T(2));
  return {mul_rn(lm::expm1(z.re), lm::cos(z.im)) - mul_rn(T(2) * a, a), mul_rn(lm::exp(z.re), lm::sin(z.im))};
}
// log2(z), log10(z): log(z) times log2(e) or log10(e)
template <class T>
__device__ inline complex<T> clog2(complex<T> z) {
  const T k = sizeof(T) == 4 ? T(1.442695040888963407359924681001892137f) : T(1.442695040888963407359924681001892137);
  const complex<T> l = clog(z);
  return {mul_rn(l.re, k), mul_rn(l.im, k)};
}
template <class T>
__device__ inline complex<T> clog10(complex<T> z) {
  const T k = sizeof(T) == 4 ? T(0.434294481903251827651128918916605082f) : T(0.434294481903251827651128918916605082);
  const complex<T> l = clog(z);
  return {mul_rn(l.re, k), mul_rn(l.im, k)};
}
// log1p(z) = log(|z + 1|) + i atan2(y, x + 1)
template <class T>
__device__ inline complex<T> clog1p(complex<T> z) {
  const T xp1 = z.re + T(1);
  return {lm::log(hypot_of(xp1, z.im)), lm::atan2(z.im, xp1)};
}

}  // namespace tr

using tr::cexp;
using tr::ccosh;
using tr::csinh;
using tr::ccos;
using tr::ctanh;
using tr::ctan;
using tr::clog;
using tr::csqrt;
using tr::casinh;
using tr::casin;
using tr::cacos;
using tr::cacosh;
using tr::catanh;
using tr::catan;
using tr::cexp2;
using tr::cexpm1;
using tr::clog2;
using tr::clog10;
using tr::clog1p;

}  // namespace dev
}  // namespace cupp
