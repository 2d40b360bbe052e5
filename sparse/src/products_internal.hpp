// Internal to the sparse module: SpMV and SpMM with a named cuSPARSE algorithm, with or without
// its _preprocess step (run once per cached plan), behind spmv/spmm; SparseGpu.BenchFigures times
// each choice to pick the defaults in products.cpp.
#pragma once

#include <cusparse.h>

#include <optional>

#include "cupp/ndarray.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse::detail {

ndarray spmv_with(const csr& a, const ndarray& x, cusparseSpMVAlg_t alg, bool preprocess);
// An algorithm that refuses the operands (bufferSize fails) falls back to CSR_ALG1.
ndarray spmm_with(const csr& a, const ndarray& b, cusparseSpMMAlg_t alg, bool preprocess);
// SpGEMM with a named algorithm: DEFAULT falls back to the memory-bounded ALG3 when cuSPARSE or the
// pool is short of memory; ALG3 asked for directly runs it (SparseGpu tests both).
csr spgemm_alg(const csr& a, const csr& b, cusparseSpGEMMAlg_t alg);
// spgemm's policy (products.cpp): plain cusparseSpGEMM for a product until the same product (A's
// arrays, B's pattern arrays, dtype, stream) has come spgemm_plain_repeats times in a row, then the
// SpGEMMreuse state, built once and kept in A's cache, for it and every repeat after.
inline constexpr int spgemm_plain_repeats = 2;
// A @ B through A's reuse state when the policy says so (building it on the repeat that earns it);
// nullopt: run the plain product. Operands the reuse API does not take (not canonical, int64
// indices, integer values, two dtypes) are always nullopt.
std::optional<csr> spgemm_repeated(const csr& a, const csr& b);
// A @ B through A's reuse state now, built for this product if it holds another's or none
// (canonical int32 operands of one float/complex dtype; ValueError otherwise).
csr spgemm_reused(const csr& a, const csr& b);
// Whether A's cache holds a built reuse state.
bool spgemm_reuse_built(const csr& a);

}  // namespace cupp::sparse::detail
