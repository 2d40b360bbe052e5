// The list of programs built in ahead of time (see builtin_programs.hpp).
#include "engine/builtin_programs.hpp"

#include "cupp/ops.hpp"
#include "engine/kernel_composer.hpp"

namespace cupp::detail {

std::vector<program_source> builtin_programs() {
  std::vector<program_source> programs;
  for (const op_spec& op : builtin_ops()) {
    composed_program p = compose_elementwise(op, index_width::i32);
    programs.push_back(program_source{std::move(p.name), std::move(p.source), std::move(p.kernels), {}});
    if (op.nin >= 2) {
      composed_program s = compose_scalar_program(op, index_width::i32);
      programs.push_back(program_source{std::move(s.name), std::move(s.source), std::move(s.kernels), {}});
    }
  }
  return programs;
}

}  // namespace cupp::detail
