// The random module's built-in program list (see builtin_programs.hpp).
#include "builtin_programs.hpp"

#include "sampling.hpp"

namespace cupp::random::detail {

std::vector<cupp::detail::program_source> builtin_programs() {
  return {program(false).to_source(), stream_program(false).to_source()};
}

}  // namespace cupp::random::detail
