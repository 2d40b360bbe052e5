// cupp::distributed, the distributed module (target cupp::distributed; cupp::cupp links it):
// NCCL's communicators and collectives on cupp ndarrays (cupp/cuda/nccl.hpp, namespace
// cupp::cuda::nccl; libnccl is loaded at run time) and this module's `cupp info` rows.
// docs/distributed.md is the guide.
#pragma once

#include <vector>

#include "cupp/cuda/nccl.hpp"
#include "cupp/modules.hpp"

namespace cupp::distributed {

// The rows `cupp info` prints: NCCL's version and where it was loaded from (or why it could not
// be), NCCL_NVLS_ENABLE and CUPP_NCCL_LIBRARY as this process sees them.
std::vector<module_info_row> info();

}  // namespace cupp::distributed
