// `cupp ops [--ops SPEC.yaml ...] [NAME [--source]]`: the built-in ops of the generated registry
// (and the ops loaded from --ops spec files) with their loops, then the routine families of
// specs/routines/ (the generated detail::routine_families(), by spec file name); NAME
// prints one op, or one routine (for a reduction or scan also the facts its spec declares: the
// ufunc it folds, result dtype rule, NaN policy, empty behaviour, keywords); `cupp ops --check SPEC.yaml...`
// loads spec files one after the other and reports each (OK, or the first error). Loops are
// listed in
// NumPy's resolution order ("ii->i" signatures with NumPy's type characters); --source prints the
// element-wise kernel source the composer builds for the op (all loops in one program).
#include <algorithm>
#include <iostream>
#include <string>
#include <span>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "cupp/errors.hpp"
#include "cupp/generated/routine_specs.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/ops.hpp"

namespace cupp::tool {

namespace {

// What a rule name of a routine spec means ("" when the generated table has no such rule).
std::string_view rule_meaning(std::string_view kind, std::string_view name) {
  for (const detail::routine_rule& r : detail::routine_rules())
    if (r.kind == kind && r.name == name) return r.meaning;
  return {};
}

// A routine of one of the families by name; false when there is none.
bool print_routine(std::string_view name) {
  for (const detail::routine_family& family : detail::routine_families()) {
    for (const routine_info& r : family.table()) {
      if (r.name != name) continue;
      std::cout << r.name << "  " << r.signature << "  (" << family.label << " routine: " << r.summary << ")\n";
      const detail::routine_spec* spec = detail::find_routine_spec(name);
      if (spec == nullptr) return true;
      if (!spec->alias_of.empty()) std::cout << "  alias of " << spec->alias_of << '\n';
      if (spec->call.empty()) {
        std::cout << "  C++: cupp::" << spec->cpp << "\n";
      } else {  // one line per call: a conditional one says when it is made
        for (std::size_t pos = 0; pos <= spec->call.size();) {
          const std::size_t end = std::min(spec->call.find('\n', pos), spec->call.size());
          std::cout << "  " << spec->call.substr(pos, end - pos) << "\n";
          pos = end + 1;
        }
      }
      if (!spec->typed.empty()) std::cout << "  typed: " << spec->typed << '\n';
      if (!spec->result.empty()) {  // a reduction's or scan's facts
        std::cout << "  folds: " << (spec->folds.empty() ? "none (composite)" : spec->folds) << '\n';
        std::cout << "  result dtype: " << spec->result << " (" << rule_meaning("result", spec->result) << ")\n";
        std::cout << "  NaN: " << spec->nan << " (" << rule_meaning("nan", spec->nan) << ")\n";
        const std::string_view empty_meaning = rule_meaning("empty", spec->empty);
        std::cout << "  empty: " << spec->empty;
        if (!empty_meaning.empty()) std::cout << " (" << empty_meaning << ")";
        std::cout << '\n';
        std::cout << "  keywords: " << spec->keywords << '\n';
      }
      if (!spec->notes.empty()) std::cout << "  notes: " << spec->notes << '\n';
      if (spec->binding == "generated")
        std::cout << "  cupp eval: generated binding\n";
      else if (spec->binding == "manual")
        std::cout << "  cupp eval: hand binding (tools/cupp/eval/)\n";
      else
        std::cout << "  cupp eval: none (" << spec->no_eval << ")\n";
      std::cout << "  spec: specs/routines/" << spec->family << ".yaml\n";
      return true;
    }
  }
  return false;
}

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
  // --check FILE...: load each spec file in turn; one line per file, exit 1 when any fails.
  if (!args.empty() && args[0] == "--check") {
    if (args.size() < 2) {
      std::cerr << "usage: cupp ops --check SPEC.yaml...\n";
      return 2;
    }
    int status = 0;
    for (const std::string_view file : args.subspan(1)) {
      try {
        const std::vector<ufunc> loaded = load_ops(std::string(file));
        std::cout << file << ": OK (" << loaded.size() << " op" << (loaded.size() == 1 ? "" : "s") << ")\n";
      } catch (const Error& e) {
        std::cout << e.class_name() << ": " << e.what() << '\n';
        status = 1;
      }
    }
    return status;
  }
  // Leading --ops FILE (or --ops=FILE), repeatable: op specs loaded (and listed) too.
  bool loaded_any = false;
  while (!args.empty() && (args[0] == "--ops" || args[0].starts_with("--ops="))) {
    if (args[0] == "--ops" && args.size() < 2) {
      std::cerr << "usage: cupp ops [--ops SPEC.yaml ...] [NAME [--source]]\n";
      return 2;
    }
    const std::string file(args[0] == "--ops" ? args[1] : args[0].substr(6));
    args = args.subspan(args[0] == "--ops" ? 2 : 1);
    try {
      load_ops(file);
    } catch (const Error& e) {
      std::cerr << e.class_name() << ": " << e.what() << '\n';
      return 1;
    }
    loaded_any = true;
  }
  const bool source = args.size() == 2 && args[1] == "--source";
  if (args.size() > 2 || (args.size() == 2 && !source)) {
    std::cerr << "usage: cupp ops [--ops SPEC.yaml ...] [NAME [--source]]\n";
    return 2;
  }
  if (!args.empty()) {
    const op_spec* op = find_op(args[0]);
    if (op == nullptr && !source && print_routine(args[0])) return 0;
    if (op == nullptr) {
      std::cerr << "cupp ops: no " << (source ? "op" : "op or routine") << " named '" << args[0]
                << "' (run `cupp ops` for the list)\n";
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
  // The routines that are not ufuncs: every family of specs/routines/ (the generated list).
  for (const detail::routine_family& family : detail::routine_families()) {
    const std::span<const routine_info> routines = family.table();
    std::cout << routines.size() << " " << family.label << " routines\n";
    for (const routine_info& r : routines) std::cout << r.name << "  " << r.signature << "  (" << r.summary << ")\n";
  }
  if (loaded_any) {
    const std::vector<ufunc> loaded = loaded_ops();
    std::cout << loaded.size() << " loaded op" << (loaded.size() == 1 ? "" : "s") << " (--ops)\n";
    for (const ufunc& f : loaded) print_op(f.spec(), false);
  }
  return 0;
}

}  // namespace cupp::tool
