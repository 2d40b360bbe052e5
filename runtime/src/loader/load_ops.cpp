// cupp::load_ops: ops from YAML at run time (see cupp/load_ops.hpp). The parsed specs
// (spec_parser.cpp, read by load_ops_yaml.cpp) become owned op_specs in a store beside the
// generated registry: a
// mutex-guarded list of heap objects that are never freed or moved, so the op_spec addresses the
// engine keys its tables by and the ufunc objects handed out stay valid until the process exits.
#include "cupp/load_ops.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>

#include "compiler/hash.hpp"
#include "cupp/errors.hpp"
#include "loader/loaded_ops.hpp"
#include "loader/spec_parser.hpp"  // parsed_op only: the YAML reading is in load_ops_yaml.cpp
#include "core/tables.hpp"

namespace cupp {

namespace {

// One loaded op: its storage and the op_spec viewing it (built once, never changed).
struct loaded_op {
  std::string file;
  int name_line = 0;
  std::string definition;  // the canonical text of everything the spec defines
  std::string name, doc, identity, bool_inputs_error, raises, kernel_name;
  std::vector<std::string> alias_storage;
  std::vector<std::string_view> aliases;
  std::vector<ulp_bound> ulp;
  std::vector<std::vector<type_id>> types;  // per loop: inputs then outputs
  std::vector<std::string> bodies;
  std::vector<loop_spec> loops;
  op_spec spec{};
  std::optional<ufunc> handle;

  loaded_op() = default;
  loaded_op(const loaded_op&) = delete;
  loaded_op& operator=(const loaded_op&) = delete;
};

struct op_store {
  std::shared_mutex mutex;
  std::vector<std::unique_ptr<loaded_op>> ops;                // in load order
  std::map<std::string, const loaded_op*, std::less<>> names;  // names and aliases
};

op_store& store() {
  static op_store* s = new op_store;  // never destroyed: loaded ops live until exit
  return *s;
}

// Everything a spec defines, as unambiguous text: two definitions are the same op exactly when
// these are equal (where they come from does not matter).
std::string canonical(const detail::parsed_op& p) {
  std::string s;
  auto field = [&](std::string_view text) { s += std::to_string(text.size()) + ":" + std::string(text) + ";"; };
  field(p.name);
  field(p.doc);
  field(std::to_string(p.nin) + "," + std::to_string(p.nout));
  field(p.identity ? "=" + *p.identity : "none");
  field(p.commutative ? "commutative" : "");
  for (const std::string& a : p.aliases) field("alias " + a);
  for (const auto& [t, u] : p.ulp) field("ulp " + std::to_string(static_cast<int>(t)) + " " + std::to_string(u));
  field(std::to_string(static_cast<int>(p.int_inputs_as)));
  field(p.bool_inputs_error);
  field(p.raises);
  field(p.weak_scalars_by_truth ? "by truth" : "");
  field(p.reduce_widens_ints ? "reduce widens ints" : "");
  field(!p.python_int_out_of_range ? ""
                                   : std::string("out of range ") + (p.python_int_out_of_range->first ? "1" : "0") +
                                         (p.python_int_out_of_range->second ? "1" : "0"));
  for (const detail::parsed_loop& l : p.loops) {
    std::string sig;
    for (type_id t : l.in) sig += std::to_string(static_cast<int>(t)) + " ";
    sig += "->";
    for (type_id t : l.out) sig += " " + std::to_string(static_cast<int>(t));
    field(sig);
    field(l.body);
  }
  return s;
}

std::unique_ptr<loaded_op> make_op(const detail::parsed_op& p, std::string definition) {
  auto op = std::make_unique<loaded_op>();
  op->file = p.file;
  op->name_line = p.name_line;
  op->name = p.name;
  op->doc = p.doc;
  op->identity = p.identity.value_or("");
  op->bool_inputs_error = p.bool_inputs_error;
  op->raises = p.raises;
  op->alias_storage = p.aliases;
  for (const auto& [t, u] : p.ulp) op->ulp.push_back({t, u});
  for (const detail::parsed_loop& l : p.loops) {
    std::vector<type_id> types = l.in;
    types.insert(types.end(), l.out.begin(), l.out.end());
    op->types.push_back(std::move(types));
    op->bodies.push_back(l.body);
  }
  detail::sha256 h;
  h.field(definition);
  const detail::digest256 digest = h.finish();
  // ':' never appears in an op name or an ElementwiseKernel's, so this key is the loaded op's alone.
  op->kernel_name = "loaded:" + p.name + ":" + detail::to_hex(std::span<const std::uint8_t>(digest.data(), 12));
  op->definition = std::move(definition);
  // Views, once every container is complete (they never change again).
  for (const std::string& a : op->alias_storage) op->aliases.push_back(a);
  for (std::size_t i = 0; i < op->types.size(); ++i) {
    const std::span<const type_id> all(op->types[i]);
    op->loops.push_back({all.first(static_cast<std::size_t>(p.nin)), all.subspan(static_cast<std::size_t>(p.nin)),
                         op->bodies[i], p.loops[i].raises});
  }
  op->spec = op_spec{op->name, op->doc, p.nin, p.nout, op->aliases, op->identity, p.commutative, op->loops,
                     p.int_inputs_as, op->bool_inputs_error, op->raises, p.weak_scalars_by_truth, op->ulp,
                     op->kernel_name};
  op->spec.reduce_widens_ints = p.reduce_widens_ints;
  if (p.python_int_out_of_range)
    op->spec.python_int_out_of_range = comparison_outcome{p.python_int_out_of_range->first, p.python_int_out_of_range->second};
  op->handle = detail::loaded_ufunc(op->spec);
  return op;
}

std::string where_from(const loaded_op& op) { return op.file + ":" + std::to_string(op.name_line); }

}  // namespace

std::vector<ufunc> detail::register_loaded_ops(const std::vector<detail::parsed_op>& parsed) {
  op_store& s = store();
  const std::unique_lock lock(s.mutex);
  // Check every op first, then register: a file is loaded all or nothing.
  std::vector<const loaded_op*> result(parsed.size(), nullptr);
  std::vector<std::unique_ptr<loaded_op>> fresh;
  std::map<std::string, const detail::parsed_op*, std::less<>> in_file;
  for (std::size_t n = 0; n < parsed.size(); ++n) {
    const detail::parsed_op& p = parsed[n];
    std::string definition = canonical(p);
    if (auto it = s.names.find(p.name); it != s.names.end() && it->second->name == p.name &&
                                        it->second->definition == definition) {
      result[n] = it->second;  // the same op again: reuse it
      continue;
    }
    std::vector<std::pair<std::string, int>> names{{p.name, p.name_line}};
    for (const std::string& a : p.aliases) names.emplace_back(a, p.aliases_line);
    for (const auto& [name, line] : names) {
      if (const op_spec* builtin = detail::find_builtin_op(name))
        throw SpecError(p.file, line, "the name '" + name + "' is already used by the built-in op '" +
                                          std::string(builtin->name) + "'");
      if (auto it = s.names.find(name); it != s.names.end()) {
        const loaded_op& other = *it->second;
        throw SpecError(p.file, line,
                        other.name == p.name && name == p.name
                            ? "op '" + name + "' is already loaded (from " + where_from(other) +
                                  ") with a different definition; a loaded op cannot be replaced"
                            : "the name '" + name + "' is already used by the loaded op '" + other.name + "' (from " +
                                  where_from(other) + ")");
      }
      if (auto it = in_file.find(name); it != in_file.end())
        throw SpecError(p.file, line, "the name '" + name + "' is already used by the op '" + it->second->name +
                                          "' at line " + std::to_string(it->second->name_line));
    }
    for (const auto& [name, line] : names) in_file.emplace(name, &p);
    fresh.push_back(make_op(p, std::move(definition)));
    result[n] = fresh.back().get();
  }
  for (std::unique_ptr<loaded_op>& op : fresh) {
    s.names.emplace(op->name, op.get());
    for (const std::string& a : op->alias_storage) s.names.emplace(a, op.get());
    s.ops.push_back(std::move(op));
  }
  std::vector<ufunc> out;
  out.reserve(result.size());
  for (const loaded_op* op : result) out.push_back(*op->handle);
  return out;
}

std::vector<ufunc> loaded_ops() { return detail::loaded_ufuncs(); }

namespace detail {

const ufunc* find_loaded_ufunc(std::string_view name) noexcept {
  op_store& s = store();
  const std::shared_lock lock(s.mutex);
  const auto it = s.names.find(name);
  return it == s.names.end() ? nullptr : &*it->second->handle;
}

std::vector<ufunc> loaded_ufuncs() {
  op_store& s = store();
  const std::shared_lock lock(s.mutex);
  std::vector<ufunc> out;
  out.reserve(s.ops.size());
  for (const auto& op : s.ops) out.push_back(*op->handle);
  return out;
}

}  // namespace detail

}  // namespace cupp
