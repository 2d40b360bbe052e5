// Reductions: sum, prod, max/amax, min/amin, all, any, mean over NumPy's axis=, keepdims=, dtype=
// and out=, with NumPy's result dtypes (sum of bool or small integers gives int64 or uint64;
// float16 accumulates in float32; mean of integers is float64). Each is its ufunc's reduce
// (sum is add.reduce); the kernels are deterministic (no atomics) and tree-shaped.
#pragma once

#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

ndarray sum(const ndarray& a, const reduce_options& options = {});
ndarray prod(const ndarray& a, const reduce_options& options = {});
ndarray max(const ndarray& a, const reduce_options& options = {});  // NaN propagates
ndarray amax(const ndarray& a, const reduce_options& options = {});
ndarray min(const ndarray& a, const reduce_options& options = {});
ndarray amin(const ndarray& a, const reduce_options& options = {});
ndarray all(const ndarray& a, const reduce_options& options = {});  // bool result
ndarray any(const ndarray& a, const reduce_options& options = {});
ndarray mean(const ndarray& a, const reduce_options& options = {});

}  // namespace cupp
