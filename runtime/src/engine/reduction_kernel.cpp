// ReductionKernel: parameters, placeholder binding, and the user's expressions composed into
// map / reduce / post-map / identity functors, and run_user_reduction, which runs them on the
// reduction engine (reduce_plan.hpp).
#include "cupp/reduction_kernel.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>

#include "compiler/hash.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/promotion.hpp"
#include "engine/user_reduction.hpp"
#include "engine/kernel_composer.hpp"
#include "engine/reduce_plan.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

std::optional<type_id> builtin_named(std::string_view name) {
  for (int i = 0; i < n_builtin_types; ++i)
    if (detail::builtin_dtypes[i].name == name) return static_cast<type_id>(i);
  return std::nullopt;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

struct ReductionKernel::definition {
  std::string name;
  kernel_param in, out;
  std::string map_expr, reduce_expr, post_map_expr, identity, reduce_type;
  std::string key;  // what makes two kernels the same
};

ReductionKernel::ReductionKernel(std::string in_params, std::string out_params, std::string map_expr,
                                 std::string reduce_expr, std::string post_map_expr, std::string identity,
                                 std::string name, std::string reduce_type) {
  auto d = std::make_shared<definition>();
  const std::vector<kernel_param> in = parse_kernel_params(in_params), out = parse_kernel_params(out_params);
  if (!is_identifier(name)) throw ValueError("ReductionKernel name '" + name + "' is not an identifier");
  if (in.size() != 1 || out.size() != 1)
    throw ValueError("ReductionKernel '" + name + "' supports one input and one output parameter (has " +
                     std::to_string(in.size()) + " and " + std::to_string(out.size()) + ")");
  if (in[0].raw || out[0].raw) throw ValueError("ReductionKernel '" + name + "': raw parameters are not supported");
  if (in[0].name == out[0].name) throw ValueError("Duplicated parameter name: " + in[0].name);
  for (const std::string& n : {in[0].name, out[0].name})
    if (n == "a" || n == "b" || n.starts_with("_"))
      throw ValueError("ReductionKernel '" + name + "': parameter name '" + n +
                       "' is reserved (a, b, and names starting with _)");
  if (reduce_expr.find_first_not_of(" \t\n") == std::string::npos)
    throw ValueError("ReductionKernel '" + name + "': reduce_expr is empty");
  if (!reduce_type.empty() && !is_identifier(reduce_type))
    throw ValueError("ReductionKernel '" + name + "': reduce_type '" + reduce_type + "' is not a type name");
  if (!reduce_type.empty() && !builtin_named(reduce_type) && reduce_type != in[0].type && reduce_type != out[0].type)
    throw ValueError("ReductionKernel '" + name + "': reduce_type '" + reduce_type +
                     "' is neither a dtype name nor a placeholder of the parameters");
  d->key = in_params + "\n" + out_params + "\n" + map_expr + "\n" + reduce_expr + "\n" + post_map_expr + "\n" +
           identity + "\n" + name + "\n" + reduce_type;
  d->name = std::move(name);
  d->in = in[0];
  d->out = out[0];
  d->map_expr = std::move(map_expr);
  d->reduce_expr = std::move(reduce_expr);
  d->post_map_expr = std::move(post_map_expr);
  d->identity = std::move(identity);
  d->reduce_type = std::move(reduce_type);
  def_ = std::move(d);
}

const std::string& ReductionKernel::name() const noexcept { return def_->name; }

void ReductionKernel::types_of(const ndarray& x, const ndarray& out, dtype& in, dtype& result, dtype& acc) const {
  const definition& d = *def_;
  std::map<std::string, dtype> bound;
  if (d.in.placeholder) bound.emplace(d.in.type, x.dtype());
  if (d.out.placeholder && !out.is_null()) {
    const auto [it, inserted] = bound.emplace(d.out.type, out.dtype());
    if (!inserted && it->second != out.dtype())
      throw TypeError("Type is mismatched in " + d.name + ": " + d.out.name + " is " + out.dtype().name() + " but " +
                      d.out.type + " is " + it->second.name());
  }
  auto type_of = [&](const std::string& t, const std::string& what) {
    if (auto id = builtin_named(t)) return dtype(*id);
    if (auto it = bound.find(t); it != bound.end()) return it->second;
    throw TypeError("Cannot determine the dtype of " + what + " in " + d.name + ": no argument binds " + t);
  };
  in = type_of(d.in.type, d.in.name);
  result = type_of(d.out.type, d.out.name);
  acc = d.reduce_type.empty() ? result : type_of(d.reduce_type, "the accumulator");
  for (const dtype& t : {in, result, acc})
    if (!t.is_builtin() || detail::info(t.id()).device_type.empty())
      throw TypeError(d.name + ": cannot reduce in dtype " + t.name());
}

detail::user_reduction detail::reduction_kernel_functors(const ReductionKernel& kernel, dtype in, dtype out,
                                                         dtype acc) {
  const ReductionKernel::definition& d = *kernel.def_;
  user_reduction r;
  std::map<std::string, dtype> aliases;
  if (d.in.placeholder) aliases.emplace(d.in.type, in);
  if (d.out.placeholder) aliases.emplace(d.out.type, out);
  for (const auto& [alias, t] : aliases)
    r.aliases += "using " + alias + " = " + std::string(detail::info(t.id()).device_type) + ";\n";
  r.in_name = d.in.name;
  r.out_name = d.out.name;
  r.in_param = in.id();
  r.map_expr = d.map_expr;
  r.reduce_expr = d.reduce_expr;
  r.post_map_expr = d.post_map_expr;
  r.identity = d.identity;
  sha256 h;
  h.field(d.key + "|" + in.name() + "|" + out.name() + "|" + acc.name());
  const digest256 digest = h.finish();
  r.name = "cupp_rk_" + d.name + "_" + to_hex(std::span<const std::uint8_t>(digest.data(), 8));
  return r;
}

ndarray ReductionKernel::operator()(const ndarray& x, const reduction_kernel_options& options) const {
  const definition& d = *def_;
  if (x.is_null()) throw ValueError(d.name + ": the array is null");
  dtype in = x.dtype(), result = x.dtype(), acc = x.dtype();
  types_of(x, options.out, in, result, acc);
  if (!can_cast(x.dtype(), in, casting::same_kind))
    throw TypeError(d.name + ": cannot cast " + d.in.name + " from dtype('" + x.dtype().name() + "') to dtype('" +
                    in.name() + "') with casting rule 'same_kind'");
  if (!x.dtype().is_builtin() || detail::info(x.dtype().id()).device_type.empty())
    throw TypeError(d.name + ": cannot reduce an array of dtype " + x.dtype().name());
  // The functors are composed per dtype combination and kept for the life of the process: the
  // engine's programs are cached under their names.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<detail::user_reduction>> interned;
  const std::string key = d.key + "|" + in.name() + "|" + result.name() + "|" + acc.name();
  const detail::user_reduction* r = nullptr;
  {
    const std::lock_guard lock(mutex);
    auto it = interned.find(key);
    if (it == interned.end())
      it = interned.emplace(key, std::make_unique<detail::user_reduction>(
                                     detail::reduction_kernel_functors(*this, in, result, acc))).first;
    r = it->second.get();
  }
  // Elements are read in the array's dtype and cast to the parameter's in the map.
  return engine::run_user_reduction(*r, x, options.axis, options.keepdims, options.out, acc.id(), result.id(), d.name);
}

using namespace engine::reduction;  // NOLINT: the engine's own files

// ---- run_user_reduction: a ReductionKernel on the reduction engine (reduce_plan.hpp)

namespace {

// A ReductionKernel's composed functors (one program per description, cached under the
// kernel's name, which is unique to its expressions and dtypes).
class user_reducer final : public reducer {
 public:
  user_reducer(const detail::user_reduction& r, type_id acc, type_id in, type_id out, std::string function)
      : r_(r), cache_name_("rk:" + r.name), acc_(acc), in_(in), out_(out), function_(std::move(function)) {}
  kernels find(const reduce_desc& desc, int device) const override {
    const detail::kernel_module& m = module(desc, device);
    return {m.function(0), m.function(1), m.function(2)};
  }
  void fill_empty(const ndarray& out) const override {
    if (r_.identity.empty())
      throw ValueError("zero-size array to reduction operation " + function_ + " which has no identity");
    const int device = out.device();
    reduce_desc d;
    d.acc = acc_;
    d.in = in_;
    d.out = out_;
    const void* kernel = module(d, device).function(3);
    void* out_arg = out.data();
    long long n = out.size();
    void* args[] = {&out_arg, &n};
    const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>((n + block_threads - 1) / block_threads, 65535)));
    cuda::detail::check(cudaLaunchKernel(kernel, grid, dim3(block_threads), args, 0,
                                         cuda::detail::current_stream_handle(device)),
                        "cudaLaunchKernel");
  }
  std::string label() const override { return "ReductionKernel " + function_; }

 private:
  const detail::kernel_module& module(const reduce_desc& desc, int device) const {
    return detail::kernel_cache::global().get(device, {cache_name_, detail::reduce_variant(desc)}, [&] {
      const auto p = detail::compose_user_reduction(r_, desc);
      return detail::program_source{p.name, p.source, p.kernels, {}};
    });
  }
  const detail::user_reduction& r_;
  std::string cache_name_;
  type_id acc_, in_, out_;
  std::string function_;
};

}  // namespace

ndarray engine::run_user_reduction(const detail::user_reduction& r, const ndarray& a, const axes& axis, bool keepdims,
                                   const ndarray& out, type_id acc, type_id result, const std::string& function) {
  const std::vector<bool> reduced_axis = reduced_axes(axis, a.ndim());
  ndarray res = run(user_reducer(r, acc, a.dtype().id(), result, function), a, reduced_axis, acc, result);
  if (keepdims) res = res.reshape(kept_shape(a, reduced_axis));
  return to_out(res, out, function);
}

}  // namespace cupp
