// The core builder's list (runtime/aot/build_builtin_kernels.cpp): the runtime's built-in programs.
#include <vector>

#include "routines/builtin_programs.hpp"

std::vector<cupp::detail::program_source> aot_programs() { return cupp::detail::builtin_programs(); }
