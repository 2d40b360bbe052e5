// The sparse module's `cupp info` rows: the versions of the CUDA libraries it links and the path
// variables it reads (README.md, "Environment").
#include <cusparse.h>

#include <cstdlib>
#include <string>

#include "cuda/library_version.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse {

namespace {

std::string shown(const char* variable) {
  const char* v = std::getenv(variable);
  return std::string(variable) + "=" + (v && *v ? v : "auto");
}

}  // namespace

std::vector<module_info_row> info() {
  return {{"cuSPARSE", cupp::detail::library_version(cusparseGetProperty)},
          {"paths", shown("CUPP_SPARSE_TOCSC") + ", " + shown("CUPP_SPARSE_SPMM") + ", " + shown("CUPP_SPARSE_SPMV")}};
}

}  // namespace cupp::sparse
