// The linalg module's built-in program list (see builtin_programs.hpp).
#include "builtin_programs.hpp"

#include "cupp/dtype.hpp"
#include "gemm.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"

namespace cupp::linalg::detail {

std::vector<cupp::detail::program_source> builtin_programs() {
  std::vector<cupp::detail::program_source> out;
  for (const cupp::dtype& t : {cupp::bool_, cupp::int8, cupp::uint8, cupp::int16, cupp::uint16, cupp::int32, cupp::uint32,
                               cupp::int64, cupp::uint64, cupp::float32, cupp::float64})
    out.push_back(generic_matmul_program(t).to_source());
  for (const cupp::dtype& t : {cupp::float32, cupp::float64, cupp::complex64, cupp::complex128}) {
    out.push_back(solver_checks_program(t).to_source());
    out.push_back(lu_blocked_program(t).to_source());
  }
  return out;
}

}  // namespace cupp::linalg::detail
