// Internal: the one composer of element-wise kernel source. From an op's spec (loops with dtypes
// and bodies) and the generated kernel template of its arity it builds one NVRTC program holding
// every loop of the op, plus the name expression of each loop's kernel. Built-in ops and ops
// loaded at run time go through here alike. Layout classes (strided, vectorised) arrive with the
// elementwise engine; today's layout is contiguous with 32- or 64-bit indexing.
#pragma once

#include <string>
#include <vector>

#include "cupp/ops.hpp"

namespace cupp::detail {

enum class index_width { i32, i64 };

struct composed_program {
  std::string name;                     // program name, e.g. "cupp_add"
  std::string source;
  std::vector<std::string> kernels;     // name expression per loop, in the op's loop order
};

composed_program compose_elementwise(const op_spec& op, index_width width);

}  // namespace cupp::detail
