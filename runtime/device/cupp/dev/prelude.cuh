// cupp's device prelude: the small device-side vocabulary that op bodies in specs/ use, so that a
// body such as `out0 = cupp::dev::sin(in0);` works for every dtype. Embedded in the library and
// handed to NVRTC; it avoids libcu++ headers, which cost ~1 s per compile (docs/architecture.md).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cupp/dev/half_sin.cuh>

// The device error flag (docs/architecture.md): a body that meets data NumPy rejects (an integer to a
// negative power) calls cupp::dev::raise_error(); after a kernel of such a loop (its body names
// raise_error: loop_spec::raises) the engine syncs and tests the program's report word (mapped
// pinned host memory, compiler/report_word.hpp), and when it is set resets it and the flag and
// throws the spec's `raises` error. One flag and word per program. Only op bodies call it.
extern "C" __device__ unsigned int cupp_error_flag = 0;
extern "C" __device__ unsigned int* cupp_error_word = nullptr;

namespace cupp {
namespace dev {

// Only the first raising elements write the host word (a write to host memory each would be slow).
__device__ inline void raise_error() {
  if (cupp_error_flag == 0 && cupp_error_word) *cupp_error_word = 1;
  cupp_error_flag = 1;
}

// complex64 / complex128: two T, laid out like std::complex<T>.
template <class T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  __host__ __device__ complex() = default;
  __host__ __device__ constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  __host__ __device__ constexpr T real() const { return re; }
  __host__ __device__ constexpr T imag() const { return im; }
};

// Products rounded on their own (never fused into an FMA), as NumPy's x86 builds compute complex
// arithmetic: z / z is exactly 1 there, and here.
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }

template <class T>
__device__ inline complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
template <class T>
__device__ inline complex<T> operator+(complex<T> a, complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T>
__device__ inline complex<T> operator-(complex<T> a, complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T>
__device__ inline complex<T> operator*(complex<T> a, complex<T> b) {
  return {mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re)};
}
template <class T>
__device__ inline bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T>
__device__ inline bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }

template <class T>
__device__ inline complex<T> operator/(complex<T> a, complex<T> b) {
  // NumPy's algorithm (Smith's, scaling by the larger part of b, multiplying by the reciprocal),
  // so results and special values (inf, nan, division by zero) match NumPy's.
  const T abs_re = b.re < T(0) ? -b.re : b.re;
  const T abs_im = b.im < T(0) ? -b.im : b.im;
  if (abs_re >= abs_im) {
    if (abs_re == T(0) && abs_im == T(0)) return {a.re / abs_re, a.im / abs_im};
    const T rat = b.im / b.re, scl = T(1) / (b.re + mul_rn(b.im, rat));
    return {mul_rn(a.re + mul_rn(a.im, rat), scl), mul_rn(a.im - mul_rn(a.re, rat), scl)};
  }
  const T rat = b.re / b.im, scl = T(1) / (b.im + mul_rn(b.re, rat));
  return {mul_rn(mul_rn(a.re, rat) + a.im, scl), mul_rn(mul_rn(a.im, rat) - a.re, scl)};
}
// NumPy orders complex numbers lexicographically (real part first); a NaN part makes the
// real-part comparison false (NumPy's CLT/CLE/CGT/CGE).
template <class T>
__device__ inline bool operator<(complex<T> a, complex<T> b) {
  return (a.re < b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im < b.im);
}
template <class T>
__device__ inline bool operator<=(complex<T> a, complex<T> b) {
  return (a.re < b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}
template <class T>
__device__ inline bool operator>(complex<T> a, complex<T> b) {
  return (a.re > b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im > b.im);
}
template <class T>
__device__ inline bool operator>=(complex<T> a, complex<T> b) {
  return (a.re > b.re && !::isnan(a.im) && !::isnan(b.im)) || (a.re == b.re && a.im >= b.im);
}

// float16 and bfloat16 compute in float32 and round once, as NumPy does.
__device__ inline float to_float(__half x) { return __half2float(x); }
__device__ inline float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class H>
__device__ inline H from_float(float x);
template <>
__device__ inline __half from_float<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// isnan: false for bool and integers; a complex value is NaN when either part is.
template <class T>
__device__ inline bool isnan(T) { return false; }
__device__ inline bool isnan(float x) { return ::isnan(x); }
__device__ inline bool isnan(double x) { return ::isnan(x); }
__device__ inline bool isnan(__half x) { return ::isnan(__half2float(x)); }
__device__ inline bool isnan(__nv_bfloat16 x) { return ::isnan(__bfloat162float(x)); }
template <class T>
__device__ inline bool isnan(complex<T> z) { return isnan(z.re) || isnan(z.im); }

// sin
__device__ inline float sin(float x) { return ::sinf(x); }
__device__ inline double sin(double x) { return ::sin(x); }
// float16 / bfloat16: half_sin (half_sin.cuh), cheaper than ::sinf and, rounded once, equal to
// NumPy's half(sinf(float(x))) for every input (exhaustively tested on the host).
__device__ inline __half sin(__half x) { return from_float<__half>(half_sin(to_float(x))); }
__device__ inline __nv_bfloat16 sin(__nv_bfloat16 x) { return from_float<__nv_bfloat16>(half_sin(to_float(x))); }
// Complex sine with C99 Annex G's special values, with the signs glibc's csin gives where the
// standard leaves them open (NumPy's npy_csin calls the C library's csin).
template <class T>
__device__ inline complex<T> csin(complex<T> z) {
  const T re = z.re, im = z.im;
  const T inf = T(1) / T(0), nan = inf - inf;
  if (::isfinite(im)) {
    if (::isfinite(re)) {
      // sin(re) cosh(im) + i cos(re) sinh(im); beyond the overflow threshold t of exp the
      // hyperbolic factors are exp(|im|)/2, applied in steps so that a zero sin or cos stays
      // zero instead of becoming 0 * inf.
      const T t = sizeof(T) == 4 ? T(88) : T(709);
      T s = ::sin(re), c = ::cos(re);
      T a = ::fabs(im);
      if (a <= t) return {::cosh(im) * s, ::sinh(im) * c};
      if (::signbit(im)) c = -c;
      const T half_exp_t = ::exp(t) / T(2);
      s *= half_exp_t;
      c *= half_exp_t;
      a -= t;
      if (a > t) {
        const T exp_t = ::exp(t);
        s *= exp_t;
        c *= exp_t;
        a -= t;
      }
      const T grow = a > t ? inf : ::exp(a);
      return {s == T(0) ? s : s * grow, c == T(0) ? c : c * grow};
    }
    if (im == T(0)) return {re - re, im};
    return {nan, nan};
  }
  if (::isinf(im)) {
    if (re == T(0)) return {re, im};
    if (::isfinite(re))
      return {::copysign(inf, ::sin(re)), ::signbit(im) ? -::copysign(inf, ::cos(re)) : ::copysign(inf, ::cos(re))};
    return {re - re, inf};
  }
  return {re == T(0) ? re : nan, nan};  // imaginary part NaN
}
__device__ inline complex<float> sin(complex<float> z) { return csin(z); }
__device__ inline complex<double> sin(complex<double> z) { return csin(z); }


// Small type traits (libcu++'s <type_traits> would cost ~1 s per compile).
template <class A, class B>
struct same { static constexpr bool value = false; };
template <class A>
struct same<A, A> { static constexpr bool value = true; };
template <class T>
struct is_complex { static constexpr bool value = false; };
template <class T>
struct is_complex<complex<T>> { static constexpr bool value = true; };
template <class T>
struct is_half { static constexpr bool value = same<T, __half>::value || same<T, __nv_bfloat16>::value; };
template <class T>
struct is_real_float { static constexpr bool value = same<T, float>::value || same<T, double>::value; };

__device__ inline __half from_double_half(double x, __half*) { return __double2half(x); }
__device__ inline __nv_bfloat16 from_double_half(double x, __nv_bfloat16*) { return __double2bfloat16(x); }

// Float to integer as NumPy's x86 builds convert: int8/int16/int32 through a 32-bit conversion
// and wider or unsigned types through a 64-bit one (uint64 directly when in range); NaN and values
// outside the intermediate type give its minimum (x86's "integer indefinite"), then truncation.
template <class To>
__device__ inline To float_to_integer(double x) {
  if constexpr (same<To, unsigned long long>::value) {
    if (x >= 0.0 && x < 18446744073709551616.0) return static_cast<To>(x);
  }
  if constexpr (sizeof(To) <= 2 || same<To, int>::value) {
    if (!(x > -2147483649.0 && x < 2147483648.0)) return static_cast<To>(static_cast<unsigned int>(0x80000000u));
    return static_cast<To>(static_cast<int>(x));
  } else {
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
      return static_cast<To>(0x8000000000000000ull);
    return static_cast<To>(static_cast<long long>(x));
  }
}

// cast<To>(from): one value converted as NumPy's unsafe cast does. bool is "nonzero"; complex to
// real keeps the real part; float16/bfloat16 go through float32 (from float64: rounded once);
// float to integer as float_to_integer says (NumPy's x86 results, NaN and infinities included).
template <class To, class From>
struct caster {
  __device__ static To apply(From x) {
    if constexpr (same<To, From>::value) {
      return x;
    } else if constexpr (is_half<From>::value) {
      return caster<To, float>::apply(to_float(x));
    } else if constexpr (is_complex<From>::value) {
      using R = decltype(x.re);
      if constexpr (is_complex<To>::value) {
        using Q = decltype(To().re);
        return To(caster<Q, R>::apply(x.re), caster<Q, R>::apply(x.im));
      } else if constexpr (same<To, bool>::value) {
        return x.re != R(0) || x.im != R(0);
      } else {
        return caster<To, R>::apply(x.re);
      }
    } else if constexpr (is_complex<To>::value) {
      using Q = decltype(To().re);
      return To(caster<Q, From>::apply(x), Q(0));
    } else if constexpr (is_half<To>::value) {
      if constexpr (same<From, double>::value) return from_double_half(x, static_cast<To*>(nullptr));
      else return from_float<To>(static_cast<float>(x));
    } else if constexpr (same<To, bool>::value) {
      return x != From(0);
    } else if constexpr (is_real_float<From>::value && !same<To, float>::value && !same<To, double>::value) {
      return float_to_integer<To>(static_cast<double>(x));
    } else {
      return static_cast<To>(x);
    }
  }
};

template <class To, class From>
__device__ inline To cast(From x) { return caster<To, From>::apply(x); }

}  // namespace dev
}  // namespace cupp
