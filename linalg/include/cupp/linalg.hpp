// cupp::linalg, NumPy's numpy.linalg and matrix products over cuBLAS, cuBLASLt and cuSOLVER (the linalg module, target cupp::linalg; cupp::cupp links it). Its routines arrive with
// the linalg issue(s); today the module holds its place in the template: the target, this header and
// info(), the rows `cupp info` prints for it.
#pragma once

#include <vector>

#include "cupp/modules.hpp"

namespace cupp::linalg {

// What `cupp info` prints for the module: the version of each CUDA library it wraps.
std::vector<module_info_row> info();

}  // namespace cupp::linalg
