// The sparse module's device code for CSR <-> CSC by a stable radix sort of the minor indices
// (embedded as cupp/sparse/transpose.cuh; src/compressed.cpp's swap_major, the "sort" path):
// pack writes, for every entry e, a copy of its minor index (the sort key, which CUB's double
// buffer overwrites) and one 64-bit word holding its major index (high 32 bits) and its value's
// bits (low 8 * sizeof(W) bits; values of 1, 2 or 4 bytes); after CUB's stable sort of the keys
// carrying the words, unpack splits the words into the new minor indices and values. Stable, so
// each new major slice lists its entries in the old major order (sorted indices), as
// csr2cscEx2 and SciPy's csr_tocsc give.
#pragma once

#define CUPP_SPARSE_EXPAND_HELPERS_ONLY
#include <cupp/sparse/expand.cuh>

namespace cupp_sparse {

template <class I, class W>
__device__ void pack_entries(const I* __restrict__ indptr, long long n_major, long long nnz,
                             const I* __restrict__ indices, const W* __restrict__ data, I* __restrict__ keys,
                             unsigned long long* __restrict__ words) {
  expand_each(indptr, n_major, nnz, [=](long long e, long long row) {
    keys[e] = indices[e];
    words[e] = (static_cast<unsigned long long>(row) << 32) | static_cast<unsigned long long>(data[e]);
  });
}

template <class I, class W>
__device__ void unpack_entries(const unsigned long long* __restrict__ words, long long nnz, I* __restrict__ minor,
                               W* __restrict__ data) {
  for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; e < nnz;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long w = words[e];
    minor[e] = static_cast<I>(w >> 32);
    data[e] = static_cast<W>(w & 0xffffffffull);
  }
}

}  // namespace cupp_sparse

// Kernel k of the program (src/compressed.cpp): pack 0..5 then unpack 6..11, each as
// (i32, w1), (i32, w2), (i32, w4), (i64, w1), (i64, w2), (i64, w4).
#define CUPP_SPARSE_PACK_(name, I, W)                                                                       \
  extern "C" __global__ void __launch_bounds__(cupp_sparse::expand_threads)                                \
      name(const I* indptr, long long n_major, long long nnz, const I* indices, const W* data, I* keys,    \
           unsigned long long* words) {                                                                     \
    cupp_sparse::pack_entries(indptr, n_major, nnz, indices, data, keys, words);                           \
  }
#define CUPP_SPARSE_UNPACK_(name, I, W)                                                     \
  extern "C" __global__ void name(const unsigned long long* words, long long nnz, I* minor, W* data) { \
    cupp_sparse::unpack_entries(words, nnz, minor, data);                                   \
  }
CUPP_SPARSE_PACK_(cupp_sparse_pack_i32_w1, int, unsigned char)
CUPP_SPARSE_PACK_(cupp_sparse_pack_i32_w2, int, unsigned short)
CUPP_SPARSE_PACK_(cupp_sparse_pack_i32_w4, int, unsigned int)
CUPP_SPARSE_PACK_(cupp_sparse_pack_i64_w1, long long, unsigned char)
CUPP_SPARSE_PACK_(cupp_sparse_pack_i64_w2, long long, unsigned short)
CUPP_SPARSE_PACK_(cupp_sparse_pack_i64_w4, long long, unsigned int)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i32_w1, int, unsigned char)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i32_w2, int, unsigned short)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i32_w4, int, unsigned int)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i64_w1, long long, unsigned char)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i64_w2, long long, unsigned short)
CUPP_SPARSE_UNPACK_(cupp_sparse_unpack_i64_w4, long long, unsigned int)
#undef CUPP_SPARSE_PACK_
#undef CUPP_SPARSE_UNPACK_
