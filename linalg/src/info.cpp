// The linalg module's `cupp info` rows: the versions of the CUDA libraries it links.
#include <cublas_api.h>
#include <cusolver_common.h>

#include "cuda/library_version.hpp"
#include "cupp/linalg.hpp"

namespace cupp::linalg {

std::vector<module_info_row> info() {
  return {{"cuBLAS", detail::library_version(cublasGetProperty)}, {"cuSOLVER", detail::library_version(cusolverGetProperty)}};
}

}  // namespace cupp::linalg
