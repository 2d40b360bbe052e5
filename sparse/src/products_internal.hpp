// Internal to the sparse module: SpMV and SpMM with a named cuSPARSE algorithm, with or without
// its _preprocess step (run once per cached plan), behind spmv/spmm; SparseGpu.BenchFigures times
// each choice to pick the defaults in products.cpp.
#pragma once

#include <cusparse.h>

#include "cupp/ndarray.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse::detail {

ndarray spmv_with(const csr& a, const ndarray& x, cusparseSpMVAlg_t alg, bool preprocess);
// An algorithm that refuses the operands (bufferSize fails) falls back to CSR_ALG1.
ndarray spmm_with(const csr& a, const ndarray& b, cusparseSpMMAlg_t alg, bool preprocess);
// SpGEMM with a named algorithm: DEFAULT falls back to the memory-bounded ALG3 when cuSPARSE or the
// pool is short of memory; ALG3 asked for directly runs it (SparseGpu tests both).
csr spgemm_alg(const csr& a, const csr& b, cusparseSpGEMMAlg_t alg);
// SpGEMM through cuSPARSE's SpGEMMreuse API, its state cached in A for the last B's pattern
// (canonical, int32, one value dtype; spgemm takes this path for such operands).
csr spgemm_reused(const csr& a, const csr& b);

}  // namespace cupp::sparse::detail
