// Internal to the sparse module: the programs built into its table ahead of time
// (cmake/CuppAotKernels.cmake, with CUPP_AOT_MODULE_KERNELS): exactly the programs its code
// loads through the kernel cache, made by the same functions (so their keys match).
#pragma once

#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::sparse::detail {

// transpose (tocsc/tocsr's sort path), expand_ptr (COO rows), the products program of every value
// dtype products_program takes, spmm_vec's of float32 and float64. The Lanczos/eigen kernels
// (src/linalg/eigen.cpp) are cuda::RawModule user-style programs and compile at run time.
std::vector<cupp::detail::program_source> builtin_programs();

}  // namespace cupp::sparse::detail
