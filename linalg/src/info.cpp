// The linalg module's `cupp info` rows: the versions of the CUDA libraries it links, whether
// float32 products may use TF32 tensor cores (CUPP_TF32), and the path variables it reads
// (README.md, "Environment").
#include <cublasLt.h>
#include <cublas_api.h>
#include <cusolver_common.h>

#include <cstdlib>

#include "cuda/library_version.hpp"
#include "cupp/linalg.hpp"
#include <string>

#include "handles.hpp"
#include "solver_common.hpp"

namespace cupp::linalg {

namespace {

std::string shown(const char* variable) {
  const char* v = std::getenv(variable);
  return std::string(variable) + "=" + (v && *v ? v : "auto");
}

}  // namespace

std::vector<module_info_row> info() {
  return {{"cuBLAS", cupp::detail::library_version(cublasGetProperty)},
          {"cuBLASLt", cupp::detail::library_version(cublasLtGetProperty)},
          {"cuSOLVER", cupp::detail::library_version(cusolverGetProperty)},
          {"float32 products",
           detail::tf32_enabled() ? "TF32 tensor cores allowed (CUPP_TF32=1)" : "full float32 (CUPP_TF32=0)"},
          {"paths", shown("CUPP_LINALG_GEMM") + ", " + shown("CUPP_LINALG_LU") + ", " + shown("CUPP_LINALG_INV") + ", " +
                        shown("CUPP_LINALG_SOLVE") + ", " + shown("CUPP_LINALG_GETRF_ALG") + ", " +
                        shown("CUPP_LINALG_SVD") + ", " + shown("CUPP_LINALG_CHOLESKY") + ", " + shown("CUPP_LINALG_COPY") +
                        ", CUPP_LINALG_STREAMS=" + std::to_string(detail::lanes_for(1 << 20))}};
}

}  // namespace cupp::linalg
