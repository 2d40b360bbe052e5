// ElementwiseKernel: parameter parsing, placeholder binding, and one interned op per dtype
// combination that the element-wise engine composes, caches and launches like a built-in ufunc.
#include "cupp/elementwise_kernel.hpp"

#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <span>

#include "compiler/hash.hpp"
#include "cupp/errors.hpp"
#include "engine/internal.hpp"
#include "engine/loop_resolution.hpp"
#include "tables.hpp"

namespace cupp {

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// A built-in dtype by its full name (float32, int8, bool, complex64, bfloat16, ...).
std::optional<type_id> dtype_named(std::string_view name) {
  for (int i = 0; i < n_builtin_types; ++i)
    if (detail::builtin_dtypes[i].name == name) return static_cast<type_id>(i);
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

dtype default_dtype_of(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_: return bool_;
    case weak_scalar::kind::int_: return int64;
    case weak_scalar::kind::float_: return float64;
    default: return complex128;
  }
}

// The op of one kernel at one dtype combination. Interned for the life of the process: its
// address keys the engine's per-thread tables, so it is never freed or reused.
struct user_op {
  std::string name;
  std::string body;
  std::vector<type_id> types;
  std::array<loop_spec, 1> loops{};
  op_spec spec{};
};

}  // namespace

struct ElementwiseKernel::definition {
  std::string name;
  std::string operation;
  std::vector<kernel_param> in, out;
  std::string identity;  // what makes two kernels the same: parameters, operation, name
};

std::vector<kernel_param> parse_kernel_params(std::string_view params) {
  std::vector<kernel_param> out;
  if (trim(params).empty()) return out;
  std::size_t start = 0;
  while (start <= params.size()) {
    const std::size_t comma = params.find(',', start);
    const std::string_view item = trim(params.substr(start, comma == std::string_view::npos ? comma : comma - start));
    const std::size_t space = item.find_first_of(" \t");
    if (item.empty() || space == std::string_view::npos)
      throw ValueError("Syntax error in kernel parameters '" + std::string(params) + "': '" + std::string(item) +
                       "' is not 'TYPE NAME'");
    const std::string_view type = trim(item.substr(0, space)), name = trim(item.substr(space));
    if (type == "raw")
      throw ValueError("raw parameters are not supported yet (in '" + std::string(params) + "')");
    if (!is_identifier(type) || !is_identifier(name))
      throw ValueError("Syntax error in kernel parameters '" + std::string(params) + "': '" + std::string(item) +
                       "' is not 'TYPE NAME'");
    for (const kernel_param& p : out)
      if (p.name == name) throw ValueError("Duplicated parameter name: " + std::string(name));
    out.push_back({std::string(type), std::string(name), !dtype_named(type).has_value()});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

ElementwiseKernel::ElementwiseKernel(std::string in_params, std::string out_params, std::string operation,
                                     std::string name) {
  auto d = std::make_shared<definition>();
  d->in = parse_kernel_params(in_params);
  d->out = parse_kernel_params(out_params);
  if (d->in.empty() || d->in.size() > 3 || d->out.empty() || d->out.size() > 2)
    throw ValueError("ElementwiseKernel '" + name + "' needs 1 to 3 inputs and 1 or 2 outputs (has " +
                     std::to_string(d->in.size()) + " and " + std::to_string(d->out.size()) + ")");
  for (const kernel_param& o : d->out)
    for (const kernel_param& i : d->in)
      if (o.name == i.name) throw ValueError("Duplicated parameter name: " + o.name);
  if (!is_identifier(name)) throw ValueError("ElementwiseKernel name '" + name + "' is not an identifier");
  d->identity = in_params + "\n" + out_params + "\n" + operation + "\n" + name;
  d->name = std::move(name);
  d->operation = std::move(operation);
  def_ = std::move(d);
}

const std::string& ElementwiseKernel::name() const noexcept { return def_->name; }
std::span<const kernel_param> ElementwiseKernel::in_params() const noexcept { return def_->in; }
std::span<const kernel_param> ElementwiseKernel::out_params() const noexcept { return def_->out; }

const op_spec& detail::elementwise_kernel_op(const ElementwiseKernel& kernel, std::span<const dtype> types) {
  const ElementwiseKernel::definition& d = *kernel.def_;
  std::string key = d.identity;
  for (const dtype& t : types) key += "|" + t.name();
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<user_op>> interned;
  const std::lock_guard lock(mutex);
  if (auto it = interned.find(key); it != interned.end()) return it->second->spec;

  auto op = std::make_unique<user_op>();
  sha256 h;
  h.field(key);
  const digest256 digest = h.finish();
  op->name = "ek_" + d.name + "_" + to_hex(std::span<const std::uint8_t>(digest.data(), 8));
  // The body: placeholders as type aliases, parameters by name, then the user's operation.
  std::map<std::string, dtype> aliases;
  const std::size_t nin = d.in.size();
  for (std::size_t k = 0; k < types.size(); ++k) {
    const kernel_param& p = k < nin ? d.in[k] : d.out[k - nin];
    if (p.placeholder) aliases.emplace(p.type, types[k]);
  }
  for (const auto& [alias, t] : aliases)
    op->body += "using " + alias + " = " + std::string(detail::info(t.id()).device_type) + ";\n    ";
  for (std::size_t k = 0; k < nin; ++k) op->body += "const auto " + d.in[k].name + " = in" + std::to_string(k) + ";\n    ";
  for (std::size_t k = 0; k < d.out.size(); ++k)
    op->body += "auto& " + d.out[k].name + " = out" + std::to_string(k) + ";\n    ";
  op->body += d.operation;
  for (const dtype& t : types) op->types.push_back(t.id());
  const std::span<const type_id> all(op->types);
  op->loops[0] = loop_spec{all.first(nin), all.subspan(nin), op->body};
  op->spec = op_spec{op->name, "ElementwiseKernel", static_cast<int>(nin), static_cast<int>(d.out.size()), {}, "",
                     false, op->loops};
  const op_spec& result = op->spec;
  interned.emplace(std::move(key), std::move(op));
  return result;
}

std::vector<ndarray> ElementwiseKernel::call(std::span<const operand> args) const {
  const definition& d = *def_;
  const std::size_t nin = d.in.size(), nout = d.out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw TypeError("Wrong number of arguments for " + d.name + ": " + std::to_string(args.size()) + " given, " +
                    std::to_string(nin) + " (inputs) or " + std::to_string(nin + nout) + " (inputs and outputs) expected");
  const bool outputs_given = args.size() == nin + nout;

  // Bind placeholders: arrays first (inputs, then given outputs), then scalars' default dtypes.
  std::map<std::string, dtype> bound;
  auto bind = [&](const kernel_param& p, const dtype& t) {
    if (!p.placeholder) return;
    const auto [it, inserted] = bound.emplace(p.type, t);
    if (!inserted && it->second != t)
      throw TypeError("Type is mismatched in " + d.name + ": " + p.name + " is " + t.name() + " but " + p.type +
                      " is " + it->second.name());
  };
  for (std::size_t k = 0; k < nin; ++k)
    if (args[k].is_array()) bind(d.in[k], args[k].array().dtype());
  std::vector<ndarray> outs;
  for (std::size_t k = 0; outputs_given && k < nout; ++k) {
    const operand& a = args[nin + k];
    if (!a.is_array()) throw TypeError(d.name + ": output argument " + d.out[k].name + " must be an array");
    bind(d.out[k], a.array().dtype());
    outs.push_back(a.array());
  }
  for (std::size_t k = 0; k < nin; ++k)
    if (!args[k].is_array() && d.in[k].placeholder && !bound.count(d.in[k].type))
      bound.emplace(d.in[k].type, default_dtype_of(args[k].scalar()));

  std::vector<dtype> types;
  for (std::size_t k = 0; k < nin + nout; ++k) {
    const kernel_param& p = k < nin ? d.in[k] : d.out[k - nin];
    if (!p.placeholder) {
      types.emplace_back(*dtype_named(p.type));
    } else if (auto it = bound.find(p.type); it != bound.end()) {
      types.push_back(it->second);
    } else {
      throw TypeError("Cannot determine the dtype of " + p.name + " in " + d.name + ": no argument binds " + p.type);
    }
  }
  const op_spec& op = detail::elementwise_kernel_op(*this, types);
  for (std::size_t k = 0; k < nin; ++k)
    if (args[k].is_array()) engine::check_input_casting(op, k, args[k].array().dtype(), types[k], casting::same_kind);
  ufunc_options options;
  if (outputs_given) options.out = out_arrays(std::move(outs));
  return engine::execute(op, 0, args.first(nin), options);
}

ndarray ElementwiseKernel::call_single(std::span<const operand> args) const {
  if (def_->out.size() != 1)
    throw TypeError(def_->name + " has " + std::to_string(def_->out.size()) + " outputs; use call()");
  std::vector<ndarray> out = call(args);
  return std::move(out.front());
}

}  // namespace cupp
