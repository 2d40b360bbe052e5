// cupp::sparse, SciPy's scipy.sparse over cuSPARSE (the sparse module, target cupp::sparse; cupp::cupp links it). Its routines arrive with
// the sparse issue(s); today the module holds its place in the template: the target, this header and
// info(), the rows `cupp info` prints for it.
#pragma once

#include <vector>

#include "cupp/modules.hpp"

namespace cupp::sparse {

// What `cupp info` prints for the module: the version of each CUDA library it wraps.
std::vector<module_info_row> info();

}  // namespace cupp::sparse
