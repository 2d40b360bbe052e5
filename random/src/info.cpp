// The random module's `cupp info` rows: the versions of the CUDA libraries it links.
#include <curand.h>

#include "cuda/library_version.hpp"
#include "cupp/random.hpp"

namespace cupp::random {

std::vector<module_info_row> info() {
  return {{"cuRAND", cupp::detail::library_version(curandGetProperty)}};
}

}  // namespace cupp::random
