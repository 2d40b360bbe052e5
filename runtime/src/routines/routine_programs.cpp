// Every instantiation of the routines' NVRTC programs (routine_programs.hpp), for the compile
// tests: the dtypes and variants each routine family can ask the kernel cache for.
#include "routines/routine_programs.hpp"

#include "core/tables.hpp"
#include "cupp/errors.hpp"

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
  out.push_back({"sorting", sorting_kernel_program()});
  for (const cupp::dtype& t : kernel_dtypes())
    out.push_back({"searching " + t.name(), searching_kernel_program(t)});
  for (const cupp::dtype& t : kernel_dtypes())
    if (t.is_inexact()) out.push_back({"statistics cov " + t.name(), cov_kernel_program(t)});
  for (int w : {1, 2, 4, 8, 16}) out.push_back({"indexing move " + std::to_string(w), indexing_kernel_program(w)});
  for (const char* op : {"add", "subtract", "multiply", "minimum", "maximum", "fmin", "fmax", "bitwise_and",
                         "bitwise_or", "bitwise_xor"})
    for (const cupp::dtype& t : kernel_dtypes()) {
      try {
        out.push_back({std::string("indexing ufunc_at ") + op + " " + t.name(), ufunc_at_program(op, t)});
      } catch (const ValueError&) {  // no atomic form: ufunc.at works in rounds
      }
    }
  return out;
}

}  // namespace cupp::detail
