// The sparse module's device code (embedded by cmake/CuppModule.cmake as cupp/sparse/expand.cuh):
// an indptr expanded to the major index of every entry (CSR -> COO rows), for int32 and int64
// indices. Entry-parallel, so the stores are coalesced whatever the row lengths: a block takes a
// chunk of entries, finds the rows of its first and last entry by binary search in indptr, stages
// that stretch of indptr in shared memory and searches each entry's row there (a stretch longer
// than the stage, i.e. many empty rows, is searched in global memory instead). expand_each takes
// what to store per (entry, row), so other kernels (transpose.cuh) reuse the search.
#pragma once

namespace cupp_sparse {

constexpr int expand_threads = 256;
constexpr int expand_per_thread = 8;
constexpr int expand_chunk = expand_threads * expand_per_thread;

// The largest r in [lo, hi) with indptr[r] <= e, given indptr[lo] <= e.
template <class I>
__device__ __forceinline__ long long row_of(const I* __restrict__ indptr, long long lo, long long hi, long long e) {
  while (hi - lo > 1) {
    const long long mid = lo + ((hi - lo) >> 1);
    if (static_cast<long long>(__ldg(indptr + mid)) <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

// store(e, row) for every entry e < nnz with its row (the major index); indptr has n_major + 1
// values, indptr[n_major] = nnz. Launched with expand_threads threads per block; blocks loop over
// the chunks. expand_ptr and the tocsc packing (transpose.cuh) are its two stores.
template <class I, class Store>
__device__ void expand_each(const I* __restrict__ indptr, long long n_major, long long nnz, Store store) {
  __shared__ long long ends[2];
  __shared__ I stage[expand_chunk + 1];
  for (long long base = blockIdx.x * static_cast<long long>(expand_chunk); base < nnz;
       base += static_cast<long long>(gridDim.x) * expand_chunk) {
    const long long last = (base + expand_chunk < nnz ? base + expand_chunk : nnz) - 1;
    if (threadIdx.x < 2) ends[threadIdx.x] = row_of(indptr, 0, n_major, threadIdx.x == 0 ? base : last);
    __syncthreads();
    const long long r0 = ends[0], rows = ends[1] - r0 + 1;  // the chunk's rows: r0 .. r0 + rows - 1
    if (rows <= expand_chunk + 1) {
      for (long long j = threadIdx.x; j < rows; j += expand_threads) stage[j] = __ldg(indptr + r0 + j);
      __syncthreads();
      for (int k = 0; k < expand_per_thread; ++k) {
        const long long e = base + k * expand_threads + threadIdx.x;
        if (e > last) break;
        int lo = 0, hi = static_cast<int>(rows);
        while (hi - lo > 1) {
          const int mid = (lo + hi) >> 1;
          if (static_cast<long long>(stage[mid]) <= e) lo = mid;
          else hi = mid;
        }
        store(e, r0 + lo);
      }
    } else {
      for (int k = 0; k < expand_per_thread; ++k) {
        const long long e = base + k * expand_threads + threadIdx.x;
        if (e > last) break;
        store(e, row_of(indptr, r0, r0 + rows, e));
      }
    }
    __syncthreads();  // the stage and ends are rewritten by the next chunk
  }
}

// out[e] = the row of entry e.
template <class I>
__device__ void expand_ptr(const I* __restrict__ indptr, long long n_major, long long nnz, I* __restrict__ out) {
  expand_each(indptr, n_major, nnz, [out](long long e, long long row) { out[e] = static_cast<I>(row); });
}

}  // namespace cupp_sparse

#ifndef CUPP_SPARSE_EXPAND_HELPERS_ONLY  // transpose.cuh takes the helpers without these kernels
extern "C" __global__ void __launch_bounds__(cupp_sparse::expand_threads)
    cupp_sparse_expand_ptr_i32(const int* indptr, long long n_major, long long nnz, int* out) {
  cupp_sparse::expand_ptr(indptr, n_major, nnz, out);
}

extern "C" __global__ void __launch_bounds__(cupp_sparse::expand_threads)
    cupp_sparse_expand_ptr_i64(const long long* indptr, long long n_major, long long nnz, long long* out) {
  cupp_sparse::expand_ptr(indptr, n_major, nnz, out);
}
#endif
