// Operand accessors of cupp's element-wise kernels (embedded, handed to NVRTC). The kernel
// templates (codegen/templates/kernels/elementwise.cu.j2) are generic over them; the kernel
// composer picks one per operand from the call's layout class:
//   dense<T>            contiguous memory, indexed by the linear element index (vector loads);
//   broadcast<T>        one element in memory read by every index (a stride-0 operand);
//   value<T>            a scalar passed by value as a kernel parameter;
//   strided<T, N, Off>  N collapsed dimensions with byte strides, indexed by coordinates;
//   rows<T, N, Off>     strided with a unit innermost stride and aligned rows (vector accesses);
//   tiled<T, Off>       2-D, adjacent along the outer dimension: staged through shared memory;
//   everywhere          the where= mask when the call has none.
// ElementwiseKernel's general path (kernels that use the index `i` or raw parameters) reads its
// operands with strided<T, N, long long> and raw_array<T> over the output's C-order index.
// Host code mirrors each accessor's layout when it packs kernel parameters.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {

// VEC elements of T moved as one aligned access of VEC * sizeof(T) bytes.
template <class T, int VEC>
struct alignas(sizeof(T) * VEC) vec {
  T v[VEC];
};

template <class T>
struct dense {
  using type = T;
  static constexpr bool staged = false;
  T* p;
  template <class Index>
  __device__ T load(Index i) const { return p[i]; }
  template <int VEC, class Index>
  __device__ vec<T, VEC> load_vec(Index i) const { return *reinterpret_cast<const vec<T, VEC>*>(p + i); }
  template <class Index>
  __device__ void store(Index i, T x) const { p[i] = x; }
  template <int VEC, class Index>
  __device__ void store_vec(Index i, const vec<T, VEC>& x) const { *reinterpret_cast<vec<T, VEC>*>(p + i) = x; }
  template <class Index, class Off, int N>
  __device__ T load_at(Index i, const Off (&)[N]) const { return p[i]; }
  template <class Index, class Off, int N>
  __device__ void store_at(Index i, const Off (&)[N], T x) const { p[i] = x; }
  template <int VEC, class Index, class Off, int N>
  __device__ vec<T, VEC> load_vec_at(Index i, const Off (&)[N]) const { return load_vec<VEC>(i); }
  template <int VEC, class Index, class Off, int N>
  __device__ void store_vec_at(Index i, const Off (&)[N], const vec<T, VEC>& x) const { store_vec<VEC>(i, x); }
};

template <class T>
struct broadcast {
  using type = T;
  static constexpr bool staged = false;
  const T* p;
  template <class Index>
  __device__ T load(Index) const { return *p; }
  template <int VEC, class Index>
  __device__ vec<T, VEC> load_vec(Index) const {
    vec<T, VEC> r;
    const T x = *p;
#pragma unroll
    for (int j = 0; j < VEC; ++j) r.v[j] = x;
    return r;
  }
  template <class Index, class Off, int N>
  __device__ T load_at(Index, const Off (&)[N]) const { return *p; }
  template <int VEC, class Index, class Off, int N>
  __device__ vec<T, VEC> load_vec_at(Index i, const Off (&)[N]) const { return load_vec<VEC>(i); }
};

template <class T>
struct value {
  using type = T;
  static constexpr bool staged = false;
  T x;
  template <class Index>
  __device__ T load(Index) const { return x; }
  template <int VEC, class Index>
  __device__ vec<T, VEC> load_vec(Index) const {
    vec<T, VEC> r;
#pragma unroll
    for (int j = 0; j < VEC; ++j) r.v[j] = x;
    return r;
  }
  template <class Index, class Off, int N>
  __device__ T load_at(Index, const Off (&)[N]) const { return x; }
  template <int VEC, class Index, class Off, int N>
  __device__ vec<T, VEC> load_vec_at(Index i, const Off (&)[N]) const { return load_vec<VEC>(i); }
};

// Strided: coordinates come from the kernel (one decomposition of the linear index serves all
// operands); the byte offset is their dot product with this operand's strides.
template <class T, int N, class Off>
struct strided {
  using type = T;
  static constexpr bool staged = false;
  char* p;
  Off stride[N];
  __device__ T* address(const Off (&c)[N]) const {
    Off off = 0;
#pragma unroll
    for (int d = 0; d < N; ++d) off += c[d] * stride[d];
    return reinterpret_cast<T*>(p + off);
  }
  template <class Index>
  __device__ T load_at(Index, const Off (&c)[N]) const { return *address(c); }
  template <class Index>
  __device__ void store_at(Index, const Off (&c)[N], T x) const { *address(c) = x; }
  // VEC elements along the innermost dimension, one access each (any inner stride).
  template <int VEC, class Index>
  __device__ vec<T, VEC> load_vec_at(Index, const Off (&c)[N]) const {
    vec<T, VEC> r;
    const char* q = reinterpret_cast<const char*>(address(c));
#pragma unroll
    for (int j = 0; j < VEC; ++j) r.v[j] = *reinterpret_cast<const T*>(q + j * stride[N - 1]);
    return r;
  }
  template <int VEC, class Index>
  __device__ void store_vec_at(Index, const Off (&c)[N], const vec<T, VEC>& x) const {
    char* q = reinterpret_cast<char*>(address(c));
#pragma unroll
    for (int j = 0; j < VEC; ++j) *reinterpret_cast<T*>(q + j * stride[N - 1]) = x.v[j];
  }
};

// Rows: strided whose innermost stride is the element size and whose rows start aligned for
// VEC-element accesses, so VEC elements move as one vector access.
template <class T, int N, class Off>
struct rows : strided<T, N, Off> {
  template <int VEC, class Index>
  __device__ vec<T, VEC> load_vec_at(Index, const Off (&c)[N]) const {
    return *reinterpret_cast<const vec<T, VEC>*>(this->address(c));
  }
  template <int VEC, class Index>
  __device__ void store_vec_at(Index, const Off (&c)[N], const vec<T, VEC>& x) const {
    *reinterpret_cast<vec<T, VEC>*>(this->address(c)) = x;
  }
};

// Tiled: a 2-D operand whose neighbours lie along the outer dimension (a transposed array). The
// tiled kernel reads it coalesced into shared memory and transposes it there.
template <class T, class Off>
struct tiled : strided<T, 2, Off> {
  static constexpr bool staged = true;
};

// The extents of the N collapsed dimensions, outermost first.
template <int N, class Off>
struct extents {
  Off n[N];
};

// The where= mask of a call without one: every element is written.
struct everywhere {
  template <class Index, class Off, int N>
  __device__ bool load_at(Index, const Off (&)[N]) const { return true; }
};

// The coordinates of linear index i (C order over `e`); N >= 1.
template <int N, class Index, class Off>
__device__ inline void coordinates(Index i, const extents<N, Off>& e, Off (&c)[N]) {
#pragma unroll
  for (int d = N - 1; d > 0; --d) {
    const Off q = static_cast<Off>(i) / e.n[d];
    c[d] = static_cast<Off>(i) - q * e.n[d];
    i = static_cast<Index>(q);
  }
  c[0] = static_cast<Off>(i);
}

// A raw parameter of a user kernel (CuPy's CArray on a C-contiguous array): the body indexes it
// by flat C-order element index, x[k]; x.size() is its element count.
template <class T>
struct raw_array {
  T* p;
  long long n;
  __device__ T& operator[](long long k) const { return p[k]; }
  __device__ long long size() const { return n; }
};

// `_ind` of a user kernel: _ind.size() is the number of elements the kernel loops over.
struct loop_indexer {
  long long n;
  __device__ long long size() const { return n; }
};

}  // namespace dev
}  // namespace cupp
