// Internal: which programs are built into the library ahead of time. runtime/aot's builder
// compiles this list for the architectures of CUPP_NVCC_GENERATE_CODE into the table of
// compiler/builtin_kernels.hpp: every built-in op's all-loops program with 32-bit indices (the
// program the first call of an op on contiguous operands in its loop's dtypes loads) and, for ops
// of two or more inputs, its scalar program (engine/kernel_composer.hpp: the same with some
// inputs passed as values); the copy op's cast program (every dtype into every dtype, and fills);
// argmax/argmin and var/std of every dtype along one axis; the reduction programs of sum, prod, max, min, any and all with
// their default dtypes along one axis of a matrix or over a contiguous array (rows, columns,
// packed columns); and every instantiation of the routines' programs (routines/routine_programs.hpp:
// creation, sorting, searching, statistics, indexing moves, ufunc.at). Other layout classes,
// 64-bit indices, other reductions, ops loaded at run time and user kernels compile at run time.
#pragma once

#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::detail {

std::vector<program_source> builtin_programs();

}  // namespace cupp::detail
