// The creation routines' kernels (runtime/src/routines/creation/creation.cpp): "linear" (arange,
// linspace of scalars) and "tri" (eye, tri, tril, triu), one program per family and dtype.
// The including source defines, after <cupp/dev/prelude.cuh>:
//   T                        the output's device type
//   CUPP_CREATION_CATEGORY   0 bool, 1 integer, 2 half (float16/bfloat16), 3 real, 4 complex
//   CUPP_CREATION_UNSIGNED64 1 for uint64          CUPP_CREATION_FLOAT16   1 for float16 (half)
//   CUPP_CREATION_COMPLEX64  1 for complex64       CUPP_CREATION_LINEAR or CUPP_CREATION_TRI
#pragma once

#include <cupp/dev/launch.cuh>

struct __align__(16) cupp_value16 { unsigned char b[16]; };
__device__ inline T cupp_load(const cupp_value16& v) { return *reinterpret_cast<const T*>(v.b); }

// A float64 / complex128 value converted as NumPy's astype does.
__device__ inline T cupp_from(double re, double im) {
#if CUPP_CREATION_CATEGORY == 0
  return re != 0.0 || im != 0.0;
#elif CUPP_CREATION_CATEGORY == 1 && CUPP_CREATION_UNSIGNED64
  return re < 0.0 ? (T)(long long)re : (T)re;
#elif CUPP_CREATION_CATEGORY == 1
  return (T)(long long)re;
#elif CUPP_CREATION_CATEGORY == 2 && CUPP_CREATION_FLOAT16
  return __double2half(re);
#elif CUPP_CREATION_CATEGORY == 2
  return __double2bfloat16(re);
#elif CUPP_CREATION_CATEGORY == 3
  return (T)re;
#elif CUPP_CREATION_COMPLEX64
  return T((float)re, (float)im);
#else
  return T(re, im);
#endif
}

#ifdef CUPP_CREATION_LINEAR
// The element i >= 2 from the first two, as NumPy's <TYPE>_fill computes it.
__device__ inline T cupp_arange_at(T f, T s, long long i) {
#if CUPP_CREATION_CATEGORY == 0
  return s;
#elif CUPP_CREATION_CATEGORY == 1
  const T d = (T)(s - f);
  return (T)((unsigned long long)(long long)f + (unsigned long long)i * (unsigned long long)(long long)d);
#elif CUPP_CREATION_CATEGORY == 2
  const float fs = cupp::dev::to_float(f), d = cupp::dev::to_float(s) - fs;
  return cupp::dev::from_float<T>(fs + cupp::dev::mul_rn((float)i, d));
#elif CUPP_CREATION_CATEGORY == 3
  const T d = s - f;
  return f + cupp::dev::mul_rn((T)i, d);
#else
  using P = decltype(f.re);
  const P dr = s.re - f.re, di = s.im - f.im;
  return T(f.re + cupp::dev::mul_rn((P)i, dr), f.im + cupp::dev::mul_rn((P)i, di));
#endif
}

// numpy.arange: out[0] = first, out[1] = second, out[i] from both as NumPy's fill does.
extern "C" __global__ void cupp_arange(T* out, long long n, cupp_value16 first, cupp_value16 second) {
  const T f = cupp_load(first), s = cupp_load(second);
  CUPP_GRID_LOOP(i, n) out[i] = i == 0 ? f : i == 1 ? s : cupp_arange_at(f, s, i);
}

// numpy.linspace of scalars, computed in float64 (complex: complex128) as NumPy does:
// mode 0: i * step + start; mode 1 (a zero step): (i / div) * delta + start; mode 2 (div <= 0):
// i * delta + start. The last sample is stop when set_last; floor for integer dtypes.
extern "C" __global__ void cupp_linspace(T* out, long long n, int is_complex, int mode, int set_last, int do_floor,
                                         double start_re, double start_im, double step_re, double step_im,
                                         double delta_re, double delta_im, double div, double stop_re,
                                         double stop_im) {
  using C = cupp::dev::complex<double>;
  CUPP_GRID_LOOP(i, n) {
    double re, im = 0.0;
    if (set_last && i == n - 1) {
      re = stop_re;
      im = stop_im;
    } else if (is_complex) {
      C y((double)i, 0.0);
      if (mode == 0) y = y * C(step_re, step_im);
      else if (mode == 1) y = (y / C(div, 0.0)) * C(delta_re, delta_im);
      else y = y * C(delta_re, delta_im);
      re = y.re + start_re;
      im = y.im + start_im;
    } else {
      const double x = (double)i;
      double y;
      if (mode == 0) y = cupp::dev::mul_rn(x, step_re);
      else if (mode == 1) y = cupp::dev::mul_rn(x / div, delta_re);
      else y = cupp::dev::mul_rn(x, delta_re);
      re = y + start_re;
    }
    if (do_floor) re = ::floor(re);
    out[i] = cupp_from(re, im);
  }
}
#endif  // CUPP_CREATION_LINEAR

#ifdef CUPP_CREATION_TRI
// eye (mode 0: ones where col - row == k) and tri (mode 1: where col - row <= k) over a
// C-contiguous rows x cols matrix.
extern "C" __global__ void cupp_tri_fill(T* out, long long rows, long long cols, long long k, int mode) {
  const T one = cupp_from(1.0, 0.0), zero = cupp_from(0.0, 0.0);
  CUPP_GRID_LOOP(idx, rows * cols) {
    const long long r = idx / cols, c = idx - r * cols, d = c - r;
    out[idx] = (mode == 0 ? d == k : d <= k) ? one : zero;
  }
}

// tril (mode 0: zero where col - row > k) and triu (mode 1: zero where col - row < k), in place
// over a C-contiguous stack of n elements whose last two axes are rows x cols.
extern "C" __global__ void cupp_tri_zero(T* data, long long n, long long rows, long long cols, long long k, int mode) {
  const T zero = cupp_from(0.0, 0.0);
  CUPP_GRID_LOOP(idx, n) {
    const long long c = idx % cols, r = (idx / cols) % rows, d = c - r;
    if (mode == 0 ? d > k : d < k) data[idx] = zero;
  }
}
#endif  // CUPP_CREATION_TRI
