// The sparse module's built-in program list (see builtin_programs.hpp).
#include "builtin_programs.hpp"

#include "cupp/dtype.hpp"
#include "device_program.hpp"
#include "own_kernels.hpp"

namespace cupp::sparse::detail {

std::vector<cupp::detail::program_source> builtin_programs() {
  std::vector<cupp::detail::program_source> out;
  out.push_back(transpose_program().to_source());
  out.push_back(expand_program().to_source());
  for (const cupp::dtype& t : {cupp::bool_, cupp::int8, cupp::uint8, cupp::int16, cupp::uint16, cupp::int32, cupp::uint32,
                               cupp::int64, cupp::uint64, cupp::float32, cupp::float64, cupp::complex64, cupp::complex128})
    out.push_back(products_program(t).to_source());
  for (const cupp::dtype& t : {cupp::float32, cupp::float64}) out.push_back(spmm_vec_program(t).to_source());
  for (const cupp::dtype& t : {cupp::float32, cupp::float64, cupp::complex64, cupp::complex128})
    out.push_back(spgemm_program(t).to_source());
  return out;
}

}  // namespace cupp::sparse::detail
