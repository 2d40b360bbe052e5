// Lookup in the generated op registry (and among ops loaded at run time): by name or alias, and
// loop signatures for display.
#include <algorithm>

#include "cupp/ops.hpp"
#include "cupp/ufunc.hpp"
#include "loader/loaded_ops.hpp"
#include "engine/kernel_composer.hpp"
#include "core/tables.hpp"

namespace cupp {

const op_spec* detail::find_builtin_op(std::string_view name) noexcept {
  const auto ops = builtin_ops();
  for (const op_spec& op : ops) {
    if (op.name == name) return &op;
    if (std::find(op.aliases.begin(), op.aliases.end(), name) != op.aliases.end()) return &op;
  }
  return nullptr;
}

const op_spec* find_op(std::string_view name) noexcept {
  if (const op_spec* op = detail::find_builtin_op(name)) return op;
  const ufunc* loaded = detail::find_loaded_ufunc(name);
  return loaded ? &loaded->spec() : nullptr;
}

std::string loop_signature(const loop_spec& loop) {
  std::string sig;
  for (type_id t : loop.in) sig += detail::info(t).char_code;
  sig += "->";
  for (type_id t : loop.out) sig += detail::info(t).char_code;
  return sig;
}

std::string elementwise_kernel_source(const op_spec& op) {
  return detail::compose_elementwise(op, detail::index_width::i64).source;
}

}  // namespace cupp
