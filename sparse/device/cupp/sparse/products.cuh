// The sparse module's own products (embedded as cupp/sparse/products.cuh; src/products.cpp):
// CSR @ dense for every value dtype SciPy takes, where cuSPARSE computes only float and complex
// ones, and a row-major SpMM that src/products.cpp may take instead of cusparseSpMM. The program
// is compiled per value dtype: the source defines CUPP_SPARSE_T (the element type) and
// CUPP_SPARSE_OPS (its multiply-add: real_ops, wrap_ops<T, U> for integers, whose products and
// sums wrap as NumPy's, bool_ops for bool (or of ands, as SciPy's npy_bool_wrapper), complex_ops
// for float2 / double2) before including this header.
//
// spmm_rows: one warp per (row of A, stretch of 32 * tile dense columns), the lanes over the
// columns (coalesced row-major loads of B's rows and stores of C's), the row's entries in index
// order: every C element is summed in the same order on every run (bitwise repeatable).
// spmm_vec (float and double; a program of its own, whose source defines CUPP_SPARSE_VEC, so SpMV
// and the warp kernel do not compile its forms): the same sums with 16-byte loads of B and stores
// of C (float4 / double2; k a multiple of 16 bytes' worth, B and C 16-byte aligned), `group` lanes
// a row (group * 16 bytes of columns), so a warp walks 32 / group rows at once. Its forms
// (spmm_form): in_order, each lane loading the row's indices and values itself, entries in index
// order (the same order, hence the same bits, as spmm_rows); shuffled, the group's lanes loading
// `group` entries at a time and broadcasting them by __shfl_sync, so a batch of four B rows is
// loaded before the first is summed (their loads wait on no index load), still in index order.
// `stream` makes A's loads and C's stores cache-streaming (ld/st.global.cs), so the L2 keeps more
// of B.
// spmv_rows: one thread per row, entries in order, as SciPy's csr_matvec. spmv_groups (float and
// double: the source also defines CUPP_SPARSE_GROUPS): a few lanes per row and a shuffle tree, a
// candidate against cusparseSpMV for real values.
#pragma once

namespace cupp_sparse {

template <class T>
struct real_ops {
  static __device__ __forceinline__ T zero() { return T(0); }
  static __device__ __forceinline__ T madd(T acc, T a, T b) { return acc + a * b; }
};

// Integers: the arithmetic in the unsigned type U (no signed overflow), the result cast back
// (modulo 2^bits, as NumPy's integer products wrap).
template <class T, class U>
struct wrap_ops {
  static __device__ __forceinline__ T zero() { return T(0); }
  static __device__ __forceinline__ T madd(T acc, T a, T b) {
    return static_cast<T>(static_cast<U>(static_cast<U>(acc) + static_cast<U>(a) * static_cast<U>(b)));
  }
};

struct bool_ops {
  static __device__ __forceinline__ bool zero() { return false; }
  static __device__ __forceinline__ bool madd(bool acc, bool a, bool b) { return acc || (a && b); }
};

template <class T>
struct complex_ops {
  static __device__ __forceinline__ T zero() { return T{0, 0}; }
  static __device__ __forceinline__ T madd(T acc, T a, T b) {
    return T{acc.x + (a.x * b.x - a.y * b.y), acc.y + (a.x * b.y + a.y * b.x)};
  }
};

constexpr int spmm_threads = 256;  // 8 rows (warps) a block
constexpr int spmm_tile = 4;       // columns per lane per pass

// C (m, k) = A @ B, B (n, k) and C row-major (C order, leading dimension k).
template <class T, class Ops, class I>
__device__ void spmm_rows(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
                          const T* __restrict__ b, T* __restrict__ c, long long m, long long k) {
  const int lane = threadIdx.x & 31;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  // a warp's work item: one row and one stretch of 32 * tile columns (rows first, so few rows with
  // many columns still fill the device)
  const long long chunks = (k + 32 * spmm_tile - 1) / (32 * spmm_tile);
  for (long long item = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; item < m * chunks;
       item += warps) {
    const long long row = item / chunks, c0 = (item - row * chunks) * (32 * spmm_tile);
    const long long start = static_cast<long long>(indptr[row]), end = static_cast<long long>(indptr[row + 1]);
    {
      const long long left = k - c0 - lane;  // this lane's columns: c0 + lane + 32 t for 32 t < left
      T acc[spmm_tile];
#pragma unroll
      for (int t = 0; t < spmm_tile; ++t) acc[t] = Ops::zero();
#pragma unroll 4
      for (long long e = start; e < end; ++e) {
        const long long col = static_cast<long long>(__ldg(indices + e));
        const T v = data[e];
        const T* brow = b + col * k + c0 + lane;
#pragma unroll
        for (int t = 0; t < spmm_tile; ++t)
          if (32 * t < left) acc[t] = Ops::madd(acc[t], v, brow[32 * t]);
      }
      T* crow = c + row * k + c0 + lane;
#pragma unroll
      for (int t = 0; t < spmm_tile; ++t)
        if (32 * t < left) crow[32 * t] = acc[t];
    }
  }
}

// y (m) = A @ x.
template <class T, class Ops, class I>
__device__ void spmv_rows(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
                          const T* __restrict__ x, T* __restrict__ y, long long m) {
  for (long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; row < m;
       row += static_cast<long long>(gridDim.x) * blockDim.x) {
    T acc = Ops::zero();
    const long long end = static_cast<long long>(indptr[row + 1]);
    for (long long e = static_cast<long long>(indptr[row]); e < end; ++e)
      acc = Ops::madd(acc, data[e], x[static_cast<long long>(indices[e])]);
    y[row] = acc;
  }
}

// y (m) = A @ x with `group` lanes per row (a power of two, 2 to 32; real float T): lane j of a group
// sums entries j, j + group, ... of its row, then the group's partial sums meet in a fixed shuffle
// tree, so every run adds in the same order (bitwise repeatable). A group's lanes walk the same rows,
// so each shuffle names only them.
template <class T, class I>
__device__ void spmv_groups(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
                            const T* __restrict__ x, T* __restrict__ y, long long m, int group) {
  const int lane = threadIdx.x & 31, sub = lane & (group - 1);
  const unsigned mask = group == 32 ? 0xffffffffu : ((1u << group) - 1u) << (lane & ~(group - 1));
  const long long groups = static_cast<long long>(gridDim.x) * blockDim.x / group;
  for (long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / group; row < m;
       row += groups) {
    const long long end = static_cast<long long>(__ldg(indptr + row + 1));
    T acc = T(0);
    for (long long e = static_cast<long long>(__ldg(indptr + row)) + sub; e < end; e += group)
      acc += __ldg(data + e) * __ldg(x + static_cast<long long>(__ldg(indices + e)));
    for (int offset = group >> 1; offset > 0; offset >>= 1) acc += __shfl_xor_sync(mask, acc, offset, group);
    if (sub == 0) y[row] = acc;
  }
}

// ---- spmm_vec: 16-byte loads of B, for float and double

template <class T>
struct vec16;
template <>
struct vec16<float> {
  using type = float4;
  static constexpr int width = 4;
  static __device__ __forceinline__ void madd(float (&acc)[4], float v, const float4& b) {
    acc[0] = acc[0] + v * b.x, acc[1] = acc[1] + v * b.y, acc[2] = acc[2] + v * b.z, acc[3] = acc[3] + v * b.w;
  }
  static __device__ __forceinline__ float4 join(const float (&acc)[4]) {
    return make_float4(acc[0], acc[1], acc[2], acc[3]);
  }
};
template <>
struct vec16<double> {
  using type = double2;
  static constexpr int width = 2;
  static __device__ __forceinline__ void madd(double (&acc)[2], double v, const double2& b) {
    acc[0] = acc[0] + v * b.x, acc[1] = acc[1] + v * b.y;
  }
  static __device__ __forceinline__ double2 join(const double (&acc)[2]) { return make_double2(acc[0], acc[1]); }
};

enum spmm_form : int { spmm_in_order = 0, spmm_shuffled = 1 };

// A's arrays, read once: through the read-only path, or streamed past the L2 (ld.global.cs).
template <bool Stream, class U>
__device__ __forceinline__ U load_once(const U* p) {
  if constexpr (Stream) return __ldcs(p);
  else return __ldg(p);
}

// C (m, k) = A @ B, B (n, k) and C row-major, k a multiple of vec16<T>::width, b and c 16-byte
// aligned; `group` (a power of two, 1 to 32) lanes cover group * width columns of a row (an item).
template <class T, class I, int Form, bool Stream>
__device__ void spmm_vec(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
                         const T* __restrict__ b, T* __restrict__ c, long long m, long long k, int group) {
  using V = vec16<T>;
  constexpr int width = V::width, batch = 4;
  using vec = typename V::type;
  const int lane = threadIdx.x & 31, g = lane & (group - 1);
  const unsigned mask = group == 32 ? 0xffffffffu : ((1u << group) - 1u) << (lane & ~(group - 1));
  const long long span = static_cast<long long>(group) * width;  // an item's columns
  const long long chunks = (k + span - 1) / span;
  const long long units = static_cast<long long>(gridDim.x) * blockDim.x / group;
  for (long long item = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / group; item < m * chunks;
       item += units) {
    const long long row = item / chunks;
    const long long col0 = (item - row * chunks) * span + static_cast<long long>(g) * width;
    const bool active = col0 < k;  // a lane's `width` columns are all inside or all past k
    const long long start = static_cast<long long>(load_once<Stream>(indptr + row));
    const long long end = static_cast<long long>(load_once<Stream>(indptr + row + 1));
    const T* __restrict__ bcol = b + col0;
    T acc[width];
#pragma unroll
    for (int t = 0; t < width; ++t) acc[t] = T(0);
    if constexpr (Form == spmm_shuffled) {
      for (long long base = start; base < end; base += group) {
        I mine = 0;
        T value = T(0);
        if (base + g < end) {
          mine = load_once<Stream>(indices + base + g);
          value = load_once<Stream>(data + base + g);
        }
        const int count = end - base < group ? static_cast<int>(end - base) : group;
        for (int j = 0; j < count; j += batch) {
          I col[batch];
          T v[batch];
#pragma unroll
          for (int u = 0; u < batch; ++u) {  // past `count`: the last entry again (loaded, not summed)
            const int from = j + u < count ? j + u : count - 1;
            col[u] = __shfl_sync(mask, mine, from, group);
            v[u] = __shfl_sync(mask, value, from, group);
          }
          if (active) {
            vec bv[batch];
#pragma unroll
            for (int u = 0; u < batch; ++u) bv[u] = __ldg(reinterpret_cast<const vec*>(bcol + static_cast<long long>(col[u]) * k));
#pragma unroll
            for (int u = 0; u < batch; ++u)
              if (j + u < count) V::madd(acc, v[u], bv[u]);
          }
        }
      }
    } else if (active) {
#pragma unroll 4
      for (long long e = start; e < end; ++e) {
        const long long col = static_cast<long long>(load_once<Stream>(indices + e));
        const T v = load_once<Stream>(data + e);
        V::madd(acc, v, __ldg(reinterpret_cast<const vec*>(bcol + col * k)));
      }
    }
    if (active) {
      vec* out = reinterpret_cast<vec*>(c + row * k + col0);
      const vec sum = V::join(acc);
      if constexpr (Stream) __stcs(out, sum);
      else __stwb(out, sum);
    }
  }
}

}  // namespace cupp_sparse

#if defined(CUPP_SPARSE_T) && defined(CUPP_SPARSE_OPS) && !defined(CUPP_SPARSE_VEC)
// Kernels 0..3 of a dtype's program: spmm i32, spmm i64, spmv i32, spmv i64.
extern "C" __global__ void __launch_bounds__(cupp_sparse::spmm_threads)
    cupp_sparse_spmm_i32(const int* indptr, const int* indices, const CUPP_SPARSE_T* data, const CUPP_SPARSE_T* b,
                         CUPP_SPARSE_T* c, long long m, long long k) {
  cupp_sparse::spmm_rows<CUPP_SPARSE_T, cupp_sparse::CUPP_SPARSE_OPS>(indptr, indices, data, b, c, m, k);
}
extern "C" __global__ void __launch_bounds__(cupp_sparse::spmm_threads)
    cupp_sparse_spmm_i64(const long long* indptr, const long long* indices, const CUPP_SPARSE_T* data,
                         const CUPP_SPARSE_T* b, CUPP_SPARSE_T* c, long long m, long long k) {
  cupp_sparse::spmm_rows<CUPP_SPARSE_T, cupp_sparse::CUPP_SPARSE_OPS>(indptr, indices, data, b, c, m, k);
}
extern "C" __global__ void cupp_sparse_spmv_i32(const int* indptr, const int* indices, const CUPP_SPARSE_T* data,
                                                const CUPP_SPARSE_T* x, CUPP_SPARSE_T* y, long long m) {
  cupp_sparse::spmv_rows<CUPP_SPARSE_T, cupp_sparse::CUPP_SPARSE_OPS>(indptr, indices, data, x, y, m);
}
extern "C" __global__ void cupp_sparse_spmv_i64(const long long* indptr, const long long* indices,
                                                const CUPP_SPARSE_T* data, const CUPP_SPARSE_T* x, CUPP_SPARSE_T* y,
                                                long long m) {
  cupp_sparse::spmv_rows<CUPP_SPARSE_T, cupp_sparse::CUPP_SPARSE_OPS>(indptr, indices, data, x, y, m);
}
#if defined(CUPP_SPARSE_GROUPS)  // float and double programs: kernels 4 and 5, spmv by lane groups
extern "C" __global__ void cupp_sparse_spmv_groups_i32(const int* indptr, const int* indices, const CUPP_SPARSE_T* data,
                                                       const CUPP_SPARSE_T* x, CUPP_SPARSE_T* y, long long m,
                                                       int group) {
  cupp_sparse::spmv_groups(indptr, indices, data, x, y, m, group);
}
extern "C" __global__ void cupp_sparse_spmv_groups_i64(const long long* indptr, const long long* indices,
                                                       const CUPP_SPARSE_T* data, const CUPP_SPARSE_T* x,
                                                       CUPP_SPARSE_T* y, long long m, int group) {
  cupp_sparse::spmv_groups(indptr, indices, data, x, y, m, group);
}
#endif
#endif

#if defined(CUPP_SPARSE_T) && defined(CUPP_SPARSE_VEC)  // the spmm_vec program of float or double
// Kernels 0..3: spmm_vec's forms, i32 then i64 each (own_kernels.cpp's spmm_kernel order): vec (in
// order), shuffled_cs (shuffled, A and C streaming).
// The shuffled forms hold a batch of B vectors a lane: 4 blocks an SM leave them 64 registers
// (ptxas spills at the 48 it picks without the bound).
#define CUPP_SPARSE_SPMM_VEC(name, form, stream, min_blocks)                                                 \
  extern "C" __global__ void __launch_bounds__(cupp_sparse::spmm_threads, min_blocks)                        \
      name##_i32(const int* indptr, const int* indices, const CUPP_SPARSE_T* data, const CUPP_SPARSE_T* b,   \
                 CUPP_SPARSE_T* c, long long m, long long k, int group) {                                    \
    cupp_sparse::spmm_vec<CUPP_SPARSE_T, int, form, stream>(indptr, indices, data, b, c, m, k, group);       \
  }                                                                                                          \
  extern "C" __global__ void __launch_bounds__(cupp_sparse::spmm_threads, min_blocks)                        \
      name##_i64(const long long* indptr, const long long* indices, const CUPP_SPARSE_T* data,               \
                 const CUPP_SPARSE_T* b, CUPP_SPARSE_T* c, long long m, long long k, int group) {            \
    cupp_sparse::spmm_vec<CUPP_SPARSE_T, long long, form, stream>(indptr, indices, data, b, c, m, k, group); \
  }
CUPP_SPARSE_SPMM_VEC(cupp_sparse_spmm_vec, cupp_sparse::spmm_in_order, false, 1)
CUPP_SPARSE_SPMM_VEC(cupp_sparse_spmm_shuffled_cs, cupp_sparse::spmm_shuffled, true, 4)
#undef CUPP_SPARSE_SPMM_VEC
#endif

