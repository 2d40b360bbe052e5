// The distributed module's `cupp info` rows: NCCL's version and path, or why it did not load,
// and the two environment variables that steer it.
#include <cstdlib>
#include <string>

#include "cupp/distributed.hpp"
#include "nccl_library.hpp"

namespace cupp::distributed {

std::vector<module_info_row> info() {
  std::vector<module_info_row> rows;
  if (const cuda::nccl::detail::api* nccl = cuda::nccl::detail::try_library()) {
    const int v = nccl->version;
    // NCCL >= 2.9 encodes 10000 * major + 100 * minor + patch.
    rows.push_back({"NCCL", std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
                                std::to_string(v % 100) + " (" + nccl->path + ")"});
  } else {
    rows.push_back({"NCCL", "not available: " + cuda::nccl::detail::load_errors()});
  }
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  rows.push_back({"NCCL_NVLS_ENABLE", nvls ? std::string(nvls) : std::string("unset (set it to 0 on shared machines)")});
  const char* lib = std::getenv("CUPP_NCCL_LIBRARY");
  rows.push_back({"CUPP_NCCL_LIBRARY", lib ? std::string(lib) : std::string("unset")});
  return rows;
}

}  // namespace cupp::distributed
