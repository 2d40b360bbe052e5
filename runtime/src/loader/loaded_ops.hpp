// Internal: the two halves of the op registry. The built-in ops are the generated constant table
// (builtin_ops()); ops loaded at run time (cupp::load_ops, load_ops.cpp) live in a mutex-guarded
// store of owned specs that are never freed, so their addresses (which key the engine's
// per-thread tables and the ufunc objects) stay valid until the process exits.
#pragma once

#include <string_view>
#include <vector>

#include "cupp/ops.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::detail {

// A built-in op by name or alias (ops.cpp); nullptr when there is none.
const op_spec* find_builtin_op(std::string_view name) noexcept;
// A loaded op's ufunc by name or alias (load_ops.cpp); nullptr when there is none.
const ufunc* find_loaded_ufunc(std::string_view name) noexcept;
// Every loaded op's ufunc, in load order.
std::vector<ufunc> loaded_ufuncs();
struct parsed_op;
// Registers parsed specs (all or nothing; SpecError on a clash), returning their ufuncs in order
// (load_ops.cpp). The YAML reading that makes them is load_ops_yaml.cpp's: kept apart so that
// code which only looks ops up (a shared library, say) does not pull yaml-cpp in.
std::vector<ufunc> register_loaded_ops(const std::vector<parsed_op>& parsed);

// The kernel cache's name for an op's programs: op_spec::kernel_name (loaded ops: their name and
// the hash of their definition), else the op's name.
inline std::string_view cache_name(const op_spec& op) noexcept {
  return op.kernel_name.empty() ? op.name : op.kernel_name;
}

}  // namespace cupp::detail
