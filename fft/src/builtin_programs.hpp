// Internal to the fft module: the programs built into its table ahead of time
// (cmake/CuppAotKernels.cmake): programs its code loads through the kernel cache, made by the same
// functions (so their keys match).
#pragma once

#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::fft::detail {

// The helpers' program (fftfreq, rfftfreq). The column and row kernels (columns.cpp) are one
// program per plan shape (length, precision, width, form) and compile at run time.
std::vector<cupp::detail::program_source> builtin_programs();

}  // namespace cupp::fft::detail
