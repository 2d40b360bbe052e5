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

namespace cupp::linalg {

struct trace_options {
  std::int64_t offset = 0;             // the diagonal: 0 main, > 0 above, < 0 below
  std::optional<cupp::dtype> dtype{};  // the sum's dtype (default: sum's, so ints give int64)
};
// numpy.linalg.trace(x, /, *, offset=0, dtype=None) (NumPy 2, the Array API's): the sums of the
// offset diagonals of the matrices in the last two axes of x, of shape x.shape[:-2]. An x of fewer
// than two dimensions is ValueError("diag requires an array of at least two dimensions"), as
// NumPy's. A diagonal view and one sum reduction on the current stream.
ndarray trace(const ndarray& x, const trace_options& options = {});

// What `cupp info` prints for the module: the version of each CUDA library it wraps.
std::vector<module_info_row> info();

}  // namespace cupp::linalg

namespace cupp {
// For tools: the linalg routines by name with their NumPy signatures (generated from
// specs/routines/linalg.yaml; cupp ops lists them).
std::span<const routine_info> linalg_routines() noexcept;
}  // namespace cupp
