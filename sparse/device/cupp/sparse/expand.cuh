// The sparse module's device code (embedded by cmake/CuppModule.cmake as cupp/sparse/expand.cuh):
// an indptr expanded to the major index of every entry, for int64 indices (cuSPARSE's csr2coo
// takes int32 only). One thread per major index writes its run of entries.
#pragma once

#include <cupp/dev/launch.cuh>

extern "C" __global__ void cupp_sparse_expand_ptr_i64(const long long* indptr, long long n_major, long long* out) {
  CUPP_GRID_LOOP(i, n_major) {
    const long long end = indptr[i + 1];
    for (long long p = indptr[i]; p < end; ++p) out[p] = i;
  }
}
