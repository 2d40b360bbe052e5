// cupp's device prelude: the small device-side vocabulary that op bodies in specs/ use, so that a
// body such as `out0 = cupp::dev::sin(in0);` works for every dtype. Embedded in the library and
// handed to NVRTC; it avoids libcu++ headers, which cost ~1 s per compile (DESIGN.md).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cupp {
namespace dev {

// complex64 / complex128: two T, laid out like std::complex<T>.
template <class T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  __host__ __device__ complex() = default;
  __host__ __device__ constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  __host__ __device__ constexpr T real() const { return re; }
  __host__ __device__ constexpr T imag() const { return im; }
};

template <class T>
__device__ inline complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
template <class T>
__device__ inline complex<T> operator+(complex<T> a, complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T>
__device__ inline complex<T> operator-(complex<T> a, complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T>
__device__ inline complex<T> operator*(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
__device__ inline bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T>
__device__ inline bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }

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
__device__ inline __half sin(__half x) { return from_float<__half>(::sinf(to_float(x))); }
__device__ inline __nv_bfloat16 sin(__nv_bfloat16 x) { return from_float<__nv_bfloat16>(::sinf(to_float(x))); }
__device__ inline complex<float> sin(complex<float> z) {
  return {::sinf(z.re) * ::coshf(z.im), ::cosf(z.re) * ::sinhf(z.im)};
}
__device__ inline complex<double> sin(complex<double> z) {
  return {::sin(z.re) * ::cosh(z.im), ::cos(z.re) * ::sinh(z.im)};
}

}  // namespace dev
}  // namespace cupp
