// Internal: the routines' NVRTC programs for compile tests, which run without a GPU. Each
// family's factory gives its program for one instantiation (throwing ValueError or TypeError
// for one that does not exist, as the routines would); every_routine_program() lists every
// instantiation the routines can ask for, so one test compiles them all for sm_90.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/dtype.hpp"

namespace cupp::detail {

// creation: family "linear" (arange, linspace) or "tri" (eye, tri, tril, triu), per dtype.
routine_program creation_kernel_program(std::string_view family, cupp::dtype type);

struct routine_program_instance {
  std::string label;  // e.g. "creation linear float32"
  routine_program program;
};
std::vector<routine_program_instance> every_routine_program();

}  // namespace cupp::detail
