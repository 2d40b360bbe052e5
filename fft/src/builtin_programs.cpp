// The fft module's built-in program list (see builtin_programs.hpp).
#include "builtin_programs.hpp"

#include "helpers_program.hpp"

namespace cupp::fft::detail {

std::vector<cupp::detail::program_source> builtin_programs() { return {helpers_program().to_source()}; }

}  // namespace cupp::fft::detail
