// cupp::linalg, NumPy's numpy.linalg and matrix products over cuBLAS, cuBLASLt and cuSOLVER (the
// linalg module, target cupp::linalg; cupp::cupp links it). Today: linalg.trace (the first routine
// built through the module template) and info(), the rows `cupp info` prints for the module; the
// products and solvers arrive with the linalg issues.
//
//   auto t = cupp::linalg::trace(stack_of_matrices);             // one sum per matrix
//   auto u = cupp::linalg::trace(m, {.offset = 1, .dtype = cupp::float64});
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"

// The routines whose spec entry says `declare: generated` (specs/routines/linalg.yaml), with their
// option structs: trace(x, {.offset, .dtype}), numpy.linalg.trace (NumPy 2, the Array API's): the
// sums of the offset diagonals (0 main, > 0 above, < 0 below) of the matrices in the last two axes,
// of shape x.shape[:-2], in sum's default dtype unless dtype is given. docs/api/linalg.md has each.
#include "cupp/generated/linalg_declarations.hpp"

namespace cupp::linalg {

// What `cupp info` prints for the module: the version of each CUDA library it wraps.
std::vector<module_info_row> info();

}  // namespace cupp::linalg

namespace cupp {
// For tools: the linalg routines by name with their NumPy signatures (generated from
// specs/routines/linalg.yaml; cupp ops lists them).
std::span<const routine_info> linalg_routines() noexcept;
}  // namespace cupp
