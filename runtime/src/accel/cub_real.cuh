// cub_reduce_float.cu's templates: the floating reductions of cub_reduce.hpp over the element
// type, with NumPy's NaN rules. Complex layouts (cplx) are written but not instantiated (complex
// reductions run on cupp's own kernels, to keep nvcc's time short); adding them is one file.
#pragma once

#include <cub/device/device_reduce.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "accel/cub_common.cuh"
#include "accel/cub_reduce.hpp"

namespace cupp::detail::accel {

// cupp's complex layout (real, imaginary), aligned as a whole for vector loads.
template <class T>
struct alignas(2 * sizeof(T)) cplx {
  T re, im;
};

// What an element computes in: float for float16, bfloat16 and float32, double for float64.
__device__ __forceinline__ float real_value(__half v) { return __half2float(v); }
__device__ __forceinline__ float real_value(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float real_value(float v) { return v; }
__device__ __forceinline__ double real_value(double v) { return v; }

template <class T>
__device__ __forceinline__ bool is_nan(T v) {
  const auto x = real_value(v);
  return x != x;
}
template <class T>
__device__ __forceinline__ bool is_nan(const cplx<T>& v) {
  return v.re != v.re || v.im != v.im;
}

// a > b and a == b: real values, or complex ones lexicographically (NaN-free arguments).
template <class T>
__device__ __forceinline__ bool greater(T a, T b) {
  return real_value(a) > real_value(b);
}
template <class T>
__device__ __forceinline__ bool equal(T a, T b) {
  return real_value(a) == real_value(b);
}
template <class T>
__device__ __forceinline__ bool greater(const cplx<T>& a, const cplx<T>& b) {
  return a.re > b.re || (a.re == b.re && a.im > b.im);
}
template <class T>
__device__ __forceinline__ bool equal(const cplx<T>& a, const cplx<T>& b) {
  return a.re == b.re && a.im == b.im;
}

// Elements to the accumulator: float16 and bfloat16 to float32, others unchanged.
struct to_acc {
  __device__ __forceinline__ float operator()(__half v) const { return __half2float(v); }
  __device__ __forceinline__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
  __device__ __forceinline__ float operator()(float v) const { return v; }
  __device__ __forceinline__ double operator()(double v) const { return v; }
  template <class T>
  __device__ __forceinline__ cplx<T> operator()(const cplx<T>& v) const {
    return v;
  }
};

struct real_sum_or_prod {
  bool multiply;
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const {
    return multiply ? a * b : a + b;
  }
  template <class T>
  __device__ __forceinline__ cplx<T> operator()(const cplx<T>& a, const cplx<T>& b) const {
    if (multiply) return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return {a.re + b.re, a.im + b.im};
  }
};

// (position, element) pairs: a key < 0 is the empty start value; a NaN beats every number, the
// first NaN (smallest position) beats later ones; equal numbers keep the first position.
struct nan_arg_pick {
  bool is_max;
  template <class P>
  __device__ __forceinline__ P operator()(const P& a, const P& b) const {
    if (a.key < 0) return b;
    if (b.key < 0) return a;
    const bool na = is_nan(a.value), nb = is_nan(b.value);
    if (na || nb) {
      if (na && nb) return a.key < b.key ? a : b;
      return na ? a : b;
    }
    if (equal(a.value, b.value)) return a.key < b.key ? a : b;
    return (is_max ? greater(a.value, b.value) : greater(b.value, a.value)) ? a : b;
  }
};

// The start values: the additive or multiplicative identity, and the far end of the order.
template <class A>
struct arith_identity {
  static A get(bool multiply) { return A(multiply ? 1 : 0); }
};
template <class T>
struct arith_identity<cplx<T>> {
  static cplx<T> get(bool multiply) { return {T(multiply ? 1 : 0), T(0)}; }
};
template <class T, class A>
void real_sum_prod_impl(bool multiply, const void* in, std::int64_t n, void* out, cudaStream_t stream,
                        const temp_alloc& alloc) {
  const T* p = static_cast<const T*>(in);
  run_cub(cub_family::reduce, "cub::DeviceReduce::TransformReduce", 0, alloc, [&](void* temp, std::size_t& b, char*) {
    return cub::DeviceReduce::TransformReduce(temp, b, p, static_cast<A*>(out), n, real_sum_or_prod{multiply}, to_acc{},
                                              arith_identity<A>::get(multiply), stream);
  });
}

template <class T>
void real_arg_impl(bool is_max, const void* in, std::int64_t n, void* out, bool value, cudaStream_t stream,
                   const temp_alloc& alloc) {
  using pair = cub::KeyValuePair<std::int64_t, T>;
  cub::ArgIndexInputIterator<const T*, std::int64_t, T> it(static_cast<const T*>(in));
  pair init;
  init.key = -1;
  init.value = T{};
  char* scratch = run_cub(cub_family::reduce, "cub::DeviceReduce::Reduce", sizeof(pair), alloc,
                          [&](void* temp, std::size_t& b, char* s) {
                            return cub::DeviceReduce::Reduce(temp, b, it, reinterpret_cast<pair*>(s), n,
                                                             nan_arg_pick{is_max}, init, stream);
                          });
  if (value) copy_out(out, scratch + value_offset<pair>(), sizeof(T), stream);
  else copy_out(out, scratch + key_offset<pair>(), sizeof(std::int64_t), stream);
}

}  // namespace cupp::detail::accel
