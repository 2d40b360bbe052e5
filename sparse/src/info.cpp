// The sparse module's `cupp info` rows: the versions of the CUDA libraries it links.
#include <cusparse.h>

#include "cuda/library_version.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse {

std::vector<module_info_row> info() {
  return {{"cuSPARSE", cupp::detail::library_version(cusparseGetProperty)}};
}

}  // namespace cupp::sparse
