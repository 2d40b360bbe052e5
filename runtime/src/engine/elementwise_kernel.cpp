// ElementwiseKernel: parameter parsing, placeholder binding, and one interned op per dtype
// combination that the element-wise engine composes, caches and launches like a built-in ufunc.
#include "cupp/elementwise_kernel.hpp"

#include <array>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <span>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "array/convert.hpp"
#include "array/layout.hpp"
#include "compiler/hash.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/promotion.hpp"
#include "engine/kernel_composer.hpp"
#include "cupp/errors.hpp"
#include "engine/internal.hpp"
#include "engine/loop_resolution.hpp"
#include "core/tables.hpp"

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

// Whether `text` names the identifier `id` (a whole token, not part of a longer name or a
// member after '.' or '->'), as CuPy's textual check for `i` does.
bool names_identifier(std::string_view text, std::string_view id) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t k = text.find(id); k != std::string_view::npos; k = text.find(id, k + 1)) {
    const std::size_t end = k + id.size();
    if (k > 0 && (word(text[k - 1]) || text[k - 1] == '.' || (k > 1 && text.substr(k - 2, 2) == "->"))) continue;
    if (end < text.size() && word(text[end])) continue;
    return true;
  }
  return false;
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
  std::vector<dtype> bind(std::span<const operand> args) const;  // the parameters' dtypes
  std::string name;
  std::string operation;
  std::vector<kernel_param> in, out;
  std::string identity;  // what makes two kernels the same: parameters, operation, name
  bool indexed = false;  // the general path (see ElementwiseKernel::indexed)
};

std::vector<kernel_param> parse_kernel_params(std::string_view params) {
  std::vector<kernel_param> out;
  if (trim(params).empty()) return out;
  std::size_t start = 0;
  while (start <= params.size()) {
    const std::size_t comma = params.find(',', start);
    const std::string_view item = trim(params.substr(start, comma == std::string_view::npos ? comma : comma - start));
    std::vector<std::string_view> words;
    for (std::size_t k = 0; k < item.size();) {
      const std::size_t end = std::min(item.find_first_of(" \t", k), item.size());
      if (end > k) words.push_back(item.substr(k, end - k));
      k = end + 1;
    }
    const bool raw = words.size() == 3 && words[0] == "raw";
    if (raw) words.erase(words.begin());
    if (words.size() != 2 || !is_identifier(words[0]) || !is_identifier(words[1]) || words[0] == "raw")
      throw ValueError("Syntax error in kernel parameters '" + std::string(params) + "': '" + std::string(item) +
                       "' is not 'TYPE NAME'");
    const std::string_view type = words[0], name = words[1];
    for (const kernel_param& p : out)
      if (p.name == name) throw ValueError("Duplicated parameter name: " + std::string(name));
    out.push_back({std::string(type), std::string(name), !dtype_named(type).has_value(), raw});
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
  bool raw = false;
  for (const kernel_param& p : d->in) raw = raw || p.raw;
  for (const kernel_param& p : d->out) raw = raw || p.raw;
  d->indexed = raw || names_identifier(operation, "i") || names_identifier(operation, "_ind") || d->in.size() > 3 ||
               d->out.size() > 2;
  if (d->in.empty() || d->out.empty() || d->in.size() + d->out.size() > 32)
    throw ValueError("ElementwiseKernel '" + name + "' needs at least 1 input and 1 output and at most 32 parameters (has " +
                     std::to_string(d->in.size()) + " and " + std::to_string(d->out.size()) + ")");
  for (const auto* list : {&d->in, &d->out})
    for (const kernel_param& p : *list)
      if (p.name == "i" || p.name == "_ind" || p.name.starts_with("_"))
        throw ValueError("ElementwiseKernel '" + name + "': parameter name '" + p.name +
                         "' is reserved (i, and names starting with _)");
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
bool ElementwiseKernel::indexed() const noexcept { return def_->indexed; }

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
  op->body += d.operation + "\n    ;";  // as CuPy: the operation's last statement needs no ';' (the indexed path too)
  for (const dtype& t : types) op->types.push_back(t.id());
  const std::span<const type_id> all(op->types);
  op->loops[0] = loop_spec{all.first(nin), all.subspan(nin), op->body};
  op->spec = op_spec{op->name, "ElementwiseKernel", static_cast<int>(nin), static_cast<int>(d.out.size()), {}, "",
                     false, op->loops};
  const op_spec& result = op->spec;
  interned.emplace(std::move(key), std::move(op));
  return result;
}

std::vector<dtype> ElementwiseKernel::definition::bind(std::span<const operand> args) const {
  const std::size_t nin = in.size(), nout = out.size();
  if (args.size() != nin && args.size() != nin + nout)
    throw TypeError("Wrong number of arguments for " + name + ": " + std::to_string(args.size()) + " given, " +
                    std::to_string(nin) + " (inputs) or " + std::to_string(nin + nout) + " (inputs and outputs) expected");
  const bool outputs_given = args.size() == nin + nout;
  // Bind placeholders: arrays first (inputs, then given outputs), then scalars' default dtypes.
  std::map<std::string, dtype> bound;
  auto bind_one = [&](const kernel_param& p, const dtype& t) {
    if (!p.placeholder) return;
    const auto [it, inserted] = bound.emplace(p.type, t);
    if (!inserted && it->second != t)
      throw TypeError("Type is mismatched in " + name + ": " + p.name + " is " + t.name() + " but " + p.type +
                      " is " + it->second.name());
  };
  for (std::size_t k = 0; k < nin; ++k) {
    if (args[k].is_array()) bind_one(in[k], args[k].array().dtype());
    else if (in[k].raw) throw TypeError(name + ": raw argument " + in[k].name + " must be an array");
  }
  for (std::size_t k = 0; outputs_given && k < nout; ++k) {
    const operand& a = args[nin + k];
    if (!a.is_array()) throw TypeError(name + ": output argument " + out[k].name + " must be an array");
    bind_one(out[k], a.array().dtype());
  }
  for (std::size_t k = 0; k < nin; ++k)
    if (!args[k].is_array() && in[k].placeholder && !bound.count(in[k].type))
      bound.emplace(in[k].type, default_dtype_of(args[k].scalar()));
  std::vector<dtype> types;
  for (std::size_t k = 0; k < nin + nout; ++k) {
    const kernel_param& p = k < nin ? in[k] : out[k - nin];
    if (!p.placeholder) {
      types.emplace_back(*dtype_named(p.type));
    } else if (auto it = bound.find(p.type); it != bound.end()) {
      types.push_back(it->second);
    } else {
      throw TypeError("Cannot determine the dtype of " + p.name + " in " + name + ": no argument binds " + p.type);
    }
  }
  return types;
}

std::vector<ndarray> ElementwiseKernel::call(std::span<const operand> args) const {
  const definition& d = *def_;
  if (d.indexed) return call_indexed(args, -1);
  const std::size_t nin = d.in.size(), nout = d.out.size();
  const std::vector<dtype> types = d.bind(args);
  const op_spec& op = detail::elementwise_kernel_op(*this, types);
  for (std::size_t k = 0; k < nin; ++k)
    if (args[k].is_array()) engine::check_input_casting(op, k, args[k].array().dtype(), types[k], casting::same_kind);
  ufunc_options options;
  if (args.size() == nin + nout) {
    std::vector<ndarray> outs;
    for (std::size_t k = 0; k < nout; ++k) outs.push_back(args[nin + k].array());
    options.out = out_arrays(std::move(outs));
  }
  return engine::execute(op, 0, args.first(nin), options);
}

std::vector<ndarray> ElementwiseKernel::call(std::span<const operand> args, std::int64_t size) const {
  if (size < 0) throw ValueError(def_->name + ": size must not be negative");
  return call_indexed(args, size);
}

detail::user_elementwise_desc detail::elementwise_kernel_desc(const ElementwiseKernel& kernel,
                                                              std::span<const dtype> types,
                                                              std::span<const dtype> storage,
                                                              std::span<const bool> scalar, int ndim) {
  const ElementwiseKernel::definition& d = *kernel.def_;
  const std::size_t nin = d.in.size(), nparams = nin + d.out.size();
  if (types.size() != nparams || storage.size() != nparams || scalar.size() != nparams)
    throw ValueError("internal: " + d.name + " has " + std::to_string(nparams) + " parameters");
  user_elementwise_desc desc;
  desc.ndim = ndim;
  desc.operation = d.operation;
  std::string key = d.identity + "|" + std::to_string(ndim);
  std::map<std::string, dtype> aliases;
  for (std::size_t k = 0; k < nparams; ++k) {
    const kernel_param& p = k < nin ? d.in[k] : d.out[k - nin];
    if (p.placeholder) aliases.emplace(p.type, types[k]);
    user_elementwise_param u;
    u.name = p.name;
    u.param = types[k].id();
    u.output = k >= nin;
    u.kind = p.raw ? user_operand::raw : scalar[k] ? user_operand::value : user_operand::array;
    u.storage = u.kind == user_operand::array ? storage[k].id() : u.param;
    key += "|" + std::to_string(static_cast<int>(u.kind)) + types[k].name() + "/" + dtype(u.storage).name();
    desc.params.push_back(std::move(u));
  }
  for (const auto& [alias, t] : aliases)
    desc.aliases += "    using " + alias + " = " + std::string(detail::info(t.id()).device_type) + ";\n";
  sha256 h;
  h.field(key);
  const digest256 digest = h.finish();
  desc.kernel_name = "cupp_ek_" + d.name + "_" + to_hex(std::span<const std::uint8_t>(digest.data(), 8));
  return desc;
}

namespace {

// Kernel parameters packed as the general path's kernel declares them (8-byte aligned fields,
// values at their own alignment).
class arg_pack {
 public:
  void add(const void* bytes, std::size_t n, std::size_t align) {
    used_ = (used_ + align - 1) / align * align;
    if (used_ + n > buffer_.size()) throw ValueError("ElementwiseKernel: kernel parameters exceed 4 KiB");
    std::memcpy(buffer_.data() + used_, bytes, n);
    pointers_.push_back(buffer_.data() + used_);
    used_ += n;
  }
  void add_bytes(std::span<const std::int64_t> words) {
    add(words.data(), words.size() * sizeof(std::int64_t), 8);
  }
  void** pointers() noexcept { return pointers_.data(); }

 private:
  alignas(16) std::array<std::byte, 4096> buffer_{};
  std::vector<void*> pointers_;
  std::size_t used_ = 0;
};

}  // namespace

std::vector<ndarray> ElementwiseKernel::call_indexed(std::span<const operand> args, std::int64_t size) const {
  const definition& d = *def_;
  const std::size_t nin = d.in.size(), nout = d.out.size();
  const std::vector<dtype> types = d.bind(args);
  const bool outputs_given = args.size() == nin + nout;
  auto param = [&](std::size_t k) -> const kernel_param& { return k < nin ? d.in[k] : d.out[k - nin]; };

  // The loop's shape: the broadcast of the non-raw arrays (inputs and given outputs), or size=.
  std::vector<shape_t> shapes;
  int device = -1;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_array()) continue;
    if (device < 0) device = args[k].array().device();
    if (!param(k).raw) shapes.emplace_back(args[k].array().shape().begin(), args[k].array().shape().end());
  }
  if (device < 0) device = cuda::current_device();
  shape_t shape;
  if (size >= 0) {
    if (!shapes.empty()) throw ValueError(d.name + ": the size argument cannot be used with non-raw array arguments");
    shape = {size};
  } else if (shapes.empty()) {
    throw ValueError(d.name + ": loop size is undecided (no non-raw array argument; pass size)");
  } else {
    shape = layout::broadcast_shapes(shapes);
  }

  // Inputs: casting checks; raw ones contiguous in the parameter's dtype.
  std::vector<ndarray> arrays(nin + nout);
  std::vector<dtype> storage(types);
  std::vector<char> scalar(nin + nout, 0);
  for (std::size_t k = 0; k < nin; ++k) {
    if (!args[k].is_array()) {
      scalar[k] = 1;
      continue;
    }
    const ndarray& a = args[k].array();
    if (!can_cast(a.dtype(), types[k], casting::same_kind))
      throw TypeError(d.name + ": cannot cast " + d.in[k].name + " from dtype('" + a.dtype().name() + "') to dtype('" +
                      types[k].name() + "') with casting rule 'same_kind'");
    if (d.in[k].raw) {
      arrays[k] = a.dtype() == types[k] ? ascontiguousarray(a) : astype(a, types[k]);
    } else {
      arrays[k] = a;
      storage[k] = a.dtype();
    }
  }
  // Outputs: given ones checked (shape, casting; raw: contiguous, exact dtype), others allocated.
  std::vector<ndarray> results;
  for (std::size_t k = 0; k < nout; ++k) {
    const kernel_param& p = d.out[k];
    const dtype& t = types[nin + k];
    if (outputs_given) {
      const ndarray& o = args[nin + k].array();
      if (p.raw) {
        if (o.dtype() != t || !o.is_c_contiguous())
          throw ValueError(d.name + ": raw output " + p.name + " must be a C-contiguous array of dtype " + t.name());
      } else {
        if (!std::equal(o.shape().begin(), o.shape().end(), shape.begin(), shape.end()))
          throw ValueError(d.name + ": output " + p.name + " has shape " + layout::compact_string(o.shape()) +
                           ", the broadcast shape is " + layout::compact_string(shape));
        if (!can_cast(t, o.dtype(), casting::same_kind))
          throw TypeError(d.name + ": cannot cast output " + p.name + " from dtype('" + t.name() + "') to dtype('" +
                          o.dtype().name() + "') with casting rule 'same_kind'");
        storage[nin + k] = o.dtype();
      }
      arrays[nin + k] = o;
    } else {
      if (p.raw)
        throw ValueError(d.name + ": output array size is undecided for raw output " + p.name + " (give the outputs)");
      arrays[nin + k] = engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<std::int64_t>(t.itemsize())),
                                                   t, device);
    }
    results.push_back(arrays[nin + k]);
  }
  const std::int64_t n = layout::checked_size(shape);
  if (n == 0) return results;

  // Dimensions in the output's C order: length-1 ones dropped, neighbours merged where every
  // strided operand steps through them as one (the C-order index stays the same).
  std::vector<shape_t> strides(nin + nout);
  for (std::size_t k = 0; k < nin + nout; ++k)
    if (!scalar[k] && !param(k).raw) strides[k] = layout::broadcast_strides(arrays[k].shape(), arrays[k].strides(), shape);
  std::vector<std::int64_t> extents;
  std::vector<std::vector<std::int64_t>> kept(nin + nout);
  for (std::size_t dim = 0; dim < shape.size(); ++dim) {
    if (shape[dim] == 1) continue;
    bool merge = !extents.empty();
    for (std::size_t k = 0; merge && k < nin + nout; ++k)
      if (!strides[k].empty()) merge = kept[k].back() == shape[dim] * strides[k][dim];
    if (merge) {
      extents.back() *= shape[dim];
      for (std::size_t k = 0; k < nin + nout; ++k)
        if (!strides[k].empty()) kept[k].back() = strides[k][dim];
    } else {
      extents.push_back(shape[dim]);
      for (std::size_t k = 0; k < nin + nout; ++k)
        if (!strides[k].empty()) kept[k].push_back(strides[k][dim]);
    }
  }
  if (extents.empty()) {
    extents.push_back(1);
    for (std::size_t k = 0; k < nin + nout; ++k)
      if (!strides[k].empty()) kept[k].push_back(0);
  }
  const int ndim = static_cast<int>(extents.size());

  std::unique_ptr<bool[]> flags(new bool[nin + nout]);
  for (std::size_t k = 0; k < nin + nout; ++k) flags[k] = scalar[k] != 0;
  const detail::user_elementwise_desc desc =
      detail::elementwise_kernel_desc(*this, types, storage, std::span<const bool>(flags.get(), nin + nout), ndim);

  detail::device_scope scope(device);
  const detail::kernel_module& module =
      detail::kernel_cache::global().get(device, {"ek:" + desc.kernel_name, 0}, [&] {
        const auto p = detail::compose_user_elementwise(desc);
        return detail::program_source{p.name, p.source, p.kernels, {}};
      });
  arg_pack pack;
  const std::int64_t count = n;
  pack.add_bytes(std::span<const std::int64_t>(&count, 1));
  pack.add_bytes(extents);
  std::vector<std::vector<std::byte>> values(nin + nout);
  for (std::size_t k = 0; k < nin + nout; ++k) {
    if (scalar[k]) {
      values[k] = detail::scalar_bytes(args[k].scalar(), types[k]);
      pack.add(values[k].data(), values[k].size(), std::min<std::size_t>(values[k].size(), 16));
    } else if (param(k).raw) {
      const std::int64_t words[2] = {static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(arrays[k].data())),
                                     arrays[k].size()};
      pack.add_bytes(words);
    } else {
      std::vector<std::int64_t> words{static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(arrays[k].data()))};
      words.insert(words.end(), kept[k].begin(), kept[k].end());
      pack.add_bytes(words);
    }
  }
  constexpr std::int64_t threads = 256;
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>((n + threads - 1) / threads, 0x7fffffff)));
  const cupp::detail::launch_range range([&] { return "ElementwiseKernel " + name(); });
  cuda::detail::check(cudaLaunchKernel(module.function(0), grid, dim3(threads), pack.pointers(), 0,
                                       cuda::detail::current_stream_handle(device)),
                      "cudaLaunchKernel");
  return results;
}

ndarray ElementwiseKernel::call_single(std::span<const operand> args) const {
  if (def_->out.size() != 1)
    throw TypeError(def_->name + " has " + std::to_string(def_->out.size()) + " outputs; use call()");
  std::vector<ndarray> out = call(args);
  return std::move(out.front());
}

}  // namespace cupp
