// Internal to the linalg module: the programs built into its table ahead of time
// (cmake/CuppAotKernels.cmake, with CUPP_AOT_MODULE_KERNELS): exactly the programs its code
// loads through the kernel cache, made by the same functions (so their keys match).
#pragma once

#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::linalg::detail {

// The generic matmul kernel of every dtype it takes (the tiny float32/float64 products' default
// path and the integer/bool products), and the solver checks and blocked LU panel programs of
// float32, float64, complex64 and complex128. The one-sided Jacobi SVD (svd.cpp, a candidate path
// off by default) compiles at run time.
std::vector<cupp::detail::program_source> builtin_programs();

}  // namespace cupp::linalg::detail
