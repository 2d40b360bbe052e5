// The linalg module's `cupp info` rows: the versions of the CUDA libraries it links, and whether
// float32 products may use TF32 tensor cores (CUPP_TF32).
#include <cublasLt.h>
#include <cublas_api.h>
#include <cusolver_common.h>

#include "cuda/library_version.hpp"
#include "cupp/linalg.hpp"
#include "handles.hpp"

namespace cupp::linalg {

std::vector<module_info_row> info() {
  return {{"cuBLAS", cupp::detail::library_version(cublasGetProperty)},
          {"cuBLASLt", cupp::detail::library_version(cublasLtGetProperty)},
          {"cuSOLVER", cupp::detail::library_version(cusolverGetProperty)},
          {"float32 products",
           detail::tf32_enabled() ? "TF32 tensor cores allowed (CUPP_TF32=1)" : "full float32 (CUPP_TF32=0)"}};
}

}  // namespace cupp::linalg
