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

}  // namespace cupp_sparse

#if defined(CUPP_SPARSE_T) && defined(CUPP_SPARSE_OPS)
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
