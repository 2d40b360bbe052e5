// var, std, nanvar and nanstd (cupp/reductions.hpp): one pass of per-group moments merged with
// Chan's formula (cupp/dev/moments.cuh), NumPy's overflow behaviour, where= through the masked
// two-pass form.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "accel/cub_dispatch.hpp"
#include "array/convert.hpp"
#include "array/layout.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "engine/internal.hpp"
#include "loader/loaded_ops.hpp"
#include "engine/reduce_common.hpp"
#include "engine/reduce_plan.hpp"
#include "engine/user_reduction.hpp"
#include "engine/kernel_composer.hpp"
#include "core/tables.hpp"

namespace cupp {

using namespace engine::reduction;  // NOLINT: the engine's own files

// ---- var, std, nanvar, nanstd

namespace {

// var/std of a real dtype in one read (cupp/dev/moments.cuh): small groups of elements summed in
// float64 as deviations from the group's first element, merged as (count, mean, M2) triples, then
// M2 / (count - ddof) written as `result`.
ndarray one_pass_variance(const ndarray& a, const std::vector<bool>& reduced_axis, type_id result, double ddof,
                          bool skip_nan, bool root) {
  const int device = a.device();
  detail::device_scope scope(device);
  dims kept, reduced;
  shape_t out_shape;
  split_axes(a, reduced_axis, kept, reduced, out_shape);
  const std::int64_t out_size = kept.size(), red_size = reduced.size();
  const auto out_item = static_cast<std::int64_t>(detail::info(result).itemsize);
  ndarray out = engine::empty_with_strides(out_shape, layout::c_strides(out_shape, out_item), dtype(result), device);
  if (out_size == 0) return out;
  if (red_size == 0) {  // NumPy: 0 / 0 (a RuntimeWarning there)
    out.fill(weak_scalar(std::numeric_limits<double>::quiet_NaN()));
    return out;
  }
  kept = collapse(kept);
  reduced = collapse(reduced);
  require_kernel_dims(kept, reduced);
  const auto in_item = static_cast<std::int64_t>(a.itemsize());
  detail::moments_desc desc;
  desc.in = a.dtype().id();
  desc.out = result;
  desc.skip_nan = skip_nan;
  desc.root = root;
  desc.kept = static_cast<int>(kept.extent.size());
  desc.reduced = static_cast<int>(reduced.extent.size());
  desc.layout = layout_class(kept, reduced, in_item);
  const bool columns = desc.layout == reduce_class::columns;
  const detail::kernel_module& module =
      detail::kernel_cache::global().get(device, {"moments", detail::moments_variant(desc)}, [&] {
        const auto p = detail::compose_moments(desc);
        return detail::program_source{p.name, p.source, p.kernels, {}};
      });
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  const std::int64_t blocks_x = columns ? (out_size + block_threads - 1) / block_threads : out_size;
  const auto [splits, chunk] = plan_splits(columns, blocks_x, red_size, device);
  constexpr std::int64_t triple_bytes = 24;  // cupp::dev::moments
  const std::int64_t one_byte = 1, n_bytes = out_size * splits * triple_bytes;
  const ndarray part = engine::empty_with_strides(std::span<const std::int64_t>(&n_bytes, 1),
                                                  std::span<const std::int64_t>(&one_byte, 1), dtype(type_id::uint8), device);
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(blocks_x, 0x7fffffff)), static_cast<unsigned>(splits));
  launch(module.function(0), grid, dim3(block_threads), static_cast<const char*>(a.data()), part.data(), out_size,
         red_size, chunk, kept, reduced, stream);
  const void* part_arg = part.data();
  void* out_arg = out.data();
  long long n_out = out_size, n_chunks = splits, o_step = columns ? 1 : splits, c_step = columns ? out_size : 1;
  double dd = ddof;
  void* args[] = {&part_arg, &out_arg, &n_out, &n_chunks, &o_step, &c_step, &dd};
  // Many chunks per output: a block merges them (a lone thread would wait on each load in turn).
  const bool block_per_output = splits > 64;
  const cupp::detail::launch_range range([&] { return std::string("var.reduce ") + a.dtype().name() + " one pass"; });
  const dim3 grid2(static_cast<unsigned>(block_per_output ? std::min<std::int64_t>(out_size, 0x7fffffff)
                                                          : (out_size + block_threads - 1) / block_threads));
  cuda::detail::check(cudaLaunchKernel(module.function(block_per_output ? 2 : 1), grid2, dim3(block_threads), args, 0,
                                       stream),
                      "cudaLaunchKernel");
  return out;
}

// var/std/nanvar/nanstd with where= (NumPy's _var and _nanvar with a mask): n is the count of
// selected (and, for the nan-forms, non-NaN) elements per result; the mean over them, then the
// selected squared deviations |x - mean|^2 summed (a mapped where= reduction reading the mean per
// result), divided by max(n - ddof, 0) (the nan-forms: NaN where n - ddof <= 0).
ndarray masked_variance(const ndarray& a, const var_options& o, const std::vector<bool>& reduced_axis, const dtype& m_type,
                        const dtype& acc, const dtype& result, bool skip, bool root, std::string_view name) {
  const ndarray total = reduce_mapped(add.spec(), a, {.axis = o.axis, .dtype = m_type, .where = o.where},
                                      {skip ? detail::reduce_map::nan_to_zero : detail::reduce_map::cast});
  const ndarray count =
      skip ? reduce_mapped(add.spec(), a, {.axis = o.axis, .dtype = dtype(type_id::int64), .where = o.where},
                           {detail::reduce_map::not_nan})
           : selected_count(a, o.where, o.axis, false);
  const ndarray n = astype(count, acc);
  ndarray mu = divide(total, n);
  if (mu.dtype() != m_type) mu = astype(mu, m_type);
  mu = ascontiguousarray(mu);
  const mapping deviation{skip ? detail::reduce_map::squared_deviation_nan : detail::reduce_map::squared_deviation,
                          m_type.id(), mu.data()};
  const ndarray squares = reduce_mapped(add.spec(), a, {.axis = o.axis, .dtype = acc, .where = o.where}, deviation);
  const ndarray dof = subtract(n, o.ddof);
  ndarray v;
  if (skip) {
    v = divide(squares, dof);
    copyto(v, std::numeric_limits<double>::quiet_NaN(), casting::same_kind, less_equal(dof, 0));
  } else {
    v = divide(squares, maximum(dof, 0));
  }
  if (root) v = sqrt(v);
  if (v.dtype() != result) v = astype(v, result);
  if (o.keepdims) v = v.reshape(kept_shape(a, reduced_axis));
  return to_out(v, o.out, name);
}

// NumPy's _var and _nanvar: result dtype float64 for integers and bool, else the input's (or
// dtype='s) real dtype; divided by n - ddof. Real dtypes take one read (above); complex ones the
// mean (of dtype m_type: float32 for float16 and bfloat16, else the input's or dtype='s), then
// one mapped reduction of |x - mean|^2 reading the mean per result (no temporary of the input's
// size).
ndarray variance(const ndarray& a, const var_options& o, bool skip_nan, bool root, std::string_view name) {
  if (a.is_null()) throw ValueError(std::string(name) + ": the array is null");
  const std::vector<bool> reduced_axis = reduced_axes(o.axis, a.ndim());
  if (!std::isfinite(o.ddof)) throw ValueError(std::string(name) + ": ddof must be finite");
  const dtype t = a.dtype();
  const dtype c = o.dtype ? *o.dtype : is_inexact(t) ? t : dtype(type_id::float64);
  if (!c.is_builtin()) throw TypeError(std::string(name) + ": cannot compute in dtype " + c.name());
  const dtype m_type = is_half(c.id()) ? dtype(type_id::float32) : is_inexact(c) ? c : dtype(type_id::float64);
  const dtype acc = real_of(m_type), result = is_inexact(c) ? real_of(c) : acc;
  const bool skip = skip_nan && is_inexact(t);
  if (!o.where.is_null()) return masked_variance(a, o, reduced_axis, m_type, acc, result, skip, root, name);
  if (t.kind() != 'c' && c.kind() != 'c' && t.is_builtin()) {
    ndarray v = one_pass_variance(a, reduced_axis, result.id(), o.ddof, skip, root);
    if (o.keepdims) v = v.reshape(kept_shape(a, reduced_axis));
    return to_out(v, o.out, name);
  }
  // Complex: the mean, then one mapped reduction of |x - mean|^2 (two reads).
  const reduce_options plain{.axis = o.axis, .dtype = m_type};
  ndarray count, mu;
  if (skip) {
    count = reduce_mapped(add.spec(), a, {.axis = o.axis, .dtype = dtype(type_id::int64)}, {detail::reduce_map::not_nan});
    mu = divide(reduce_mapped(add.spec(), a, plain, {detail::reduce_map::nan_to_zero}), astype(count, acc));
  } else {
    mu = divide(reduce_mapped(add.spec(), a, plain, {}), reduced_count(a, o.axis));
  }
  if (mu.dtype() != m_type) mu = astype(mu, m_type);
  mu = ascontiguousarray(mu);
  const mapping deviation{skip ? detail::reduce_map::squared_deviation_nan : detail::reduce_map::squared_deviation,
                          m_type.id(), mu.data()};
  const ndarray squares = reduce_mapped(add.spec(), a, {.axis = o.axis, .dtype = acc}, deviation);
  ndarray v;
  if (skip) {
    const ndarray dof = subtract(astype(count, acc), o.ddof);
    v = divide(squares, dof);
    copyto(v, std::numeric_limits<double>::quiet_NaN(), casting::same_kind, less_equal(dof, 0));
  } else {
    v = divide(squares, std::max(static_cast<double>(reduced_count(a, o.axis)) - o.ddof, 0.0));
  }
  if (root) v = sqrt(v);
  if (v.dtype() != result) v = astype(v, result);
  if (o.keepdims) v = v.reshape(kept_shape(a, reduced_axis));
  return to_out(v, o.out, name);
}

}  // namespace

ndarray var(const ndarray& a, const var_options& options) { return variance(a, options, false, false, "var"); }
ndarray std_(const ndarray& a, const var_options& options) { return variance(a, options, false, true, "std"); }
ndarray nanvar(const ndarray& a, const var_options& options) { return variance(a, options, true, false, "nanvar"); }
ndarray nanstd(const ndarray& a, const var_options& options) { return variance(a, options, true, true, "nanstd"); }

}  // namespace cupp
