// Internal to the random module: the programs built into its table ahead of time
// (cmake/CuppAotKernels.cmake): exactly the programs its code loads through the kernel cache, made
// by the same functions (so their keys match).
#pragma once

#include <vector>

#include "compiler/compiler.hpp"

namespace cupp::random::detail {

// kernels.cuh's program (uniforms, normals, integers, choice, raw words) and stream.cuh's
// rejection samplers. The test hook's weakened programs (CUPP_RANDOM_BROKEN_WORDS) compile at run time.
std::vector<cupp::detail::program_source> builtin_programs();

}  // namespace cupp::random::detail
