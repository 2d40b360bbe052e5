// Every instantiation of the routines' NVRTC programs (routine_programs.hpp), for the compile
// tests: the dtypes and variants each routine family can ask the kernel cache for.
#include "routines/routine_programs.hpp"

#include "core/tables.hpp"

namespace cupp::detail {

namespace {

// The dtypes the routines' kernels take: every built-in dtype.
std::vector<cupp::dtype> kernel_dtypes() {
  std::vector<cupp::dtype> out;
  for (int i = 0; i < n_builtin_types; ++i) out.emplace_back(static_cast<type_id>(i));
  return out;
}

}  // namespace

std::vector<routine_program_instance> every_routine_program() {
  std::vector<routine_program_instance> out;
  for (const char* family : {"linear", "tri"})
    for (const cupp::dtype& t : kernel_dtypes())
      out.push_back({std::string("creation ") + family + " " + t.name(), creation_kernel_program(family, t)});
  return out;
}

}  // namespace cupp::detail
