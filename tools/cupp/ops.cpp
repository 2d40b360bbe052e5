// `cupp ops [NAME [--source]]`: the built-in ops of the generated registry with their loops, in
// NumPy's resolution order ("ii->i" signatures with NumPy's type characters); --source prints the
// element-wise kernel source the composer builds for the op (all loops in one program).
#include <iostream>
#include <string>

#include "commands.hpp"
#include "cupp/ops.hpp"

namespace cupp::tool {

namespace {

void print_op(const op_spec& op, bool details) {
  std::cout << op.name << "  (" << op.nin << " in, " << op.nout << " out, " << op.loops.size() << " loops";
  if (!op.identity.empty()) std::cout << ", identity " << op.identity;
  if (op.commutative) std::cout << ", commutative";
  if (!op.aliases.empty()) {
    std::cout << ", aliases:";
    for (auto a : op.aliases) std::cout << ' ' << a;
  }
  std::cout << ")\n";
  if (!op.doc.empty() && details) std::cout << "  " << op.doc << '\n';
  std::cout << "  loops:";
  for (const auto& loop : op.loops) std::cout << ' ' << loop_signature(loop);
  std::cout << '\n';
  if (details) {
    std::cout << "  bodies:\n";
    for (const auto& loop : op.loops) std::cout << "    " << loop_signature(loop) << "  " << loop.body << '\n';
  }
}

}  // namespace

int ops(std::span<const std::string_view> args) {
  const bool source = args.size() == 2 && args[1] == "--source";
  if (args.size() > 2 || (args.size() == 2 && !source)) {
    std::cerr << "usage: cupp ops [NAME [--source]]\n";
    return 2;
  }
  if (!args.empty()) {
    const op_spec* op = find_op(args[0]);
    if (op == nullptr) {
      std::cerr << "cupp ops: no op named '" << args[0] << "' (run `cupp ops` for the list)\n";
      return 1;
    }
    if (source)
      std::cout << elementwise_kernel_source(*op);
    else
      print_op(*op, true);
    return 0;
  }
  const auto all = builtin_ops();
  std::cout << all.size() << " built-in ops\n";
  for (const auto& op : all) print_op(op, false);
  return 0;
}

}  // namespace cupp::tool
