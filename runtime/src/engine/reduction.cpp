// Reductions: ufunc.reduce, ufunc.reduceat and the folds built on them (sum, prod, max, min,
// all, any, mean, count_nonzero, the nan-functions, ptp). NumPy's result and accumulator dtypes
// are picked here; reduce_plan.cpp plans and runs the kernels.
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
#include "engine/folds.hpp"
#include "engine/reduce_plan.hpp"
#include "engine/user_reduction.hpp"
#include "engine/kernel_composer.hpp"
#include "core/tables.hpp"

namespace cupp {

using namespace engine::reduction;  // NOLINT: the engine's own files

ndarray ufunc::reduce(const ndarray& a, const reduce_options& options) const {
  if (options.axis.given()) return reduce_mapped(spec(), a, options, {});
  reduce_options first = options;  // NumPy's ufunc.reduce: axis=0 by default
  first.axis = 0;
  return reduce_mapped(spec(), a, first, {});
}

// ---- ufunc.reduceat (cupp/dev/reduction_where.cuh's cupp_reduceat)

ndarray ufunc::reduceat(const ndarray& a, const ndarray& indices, const reduceat_options& options) const {
  const op_spec& op = spec();
  const std::string name = std::string(op.name) + ".reduceat";
  // NumPy's checks, in its order; all on the host.
  if (op.nin != 2 || op.nout != 1) throw ValueError("reduceat only supported for binary functions");
  if (a.is_null()) throw ValueError(name + ": the array is null");
  if (a.ndim() == 0) throw TypeError("cannot reduceat on a scalar");
  const std::int64_t ndim = a.ndim();
  if (options.axis < -ndim || options.axis >= ndim)
    throw AxisError("axis " + std::to_string(options.axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  const auto axis = static_cast<std::size_t>(options.axis < 0 ? options.axis + ndim : options.axis);
  if (indices.is_null()) throw ValueError(name + ": the indices are null");
  if (indices.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (indices.ndim() > 1) throw ValueError("object too deep for desired array");
  if (!can_cast(indices.dtype(), dtype(type_id::int64), casting::safe))
    throw TypeError("Cannot cast array data from dtype('" + indices.dtype().name() +
                    "') to dtype('int64') according to the rule 'safe'");
  const dtype result = options.dtype ? *options.dtype : engine::default_result(op, a.dtype());
  if (!result.is_builtin() || !a.dtype().is_builtin())
    throw TypeError(name + ": cannot reduce dtype " + a.dtype().name() + " to dtype " + result.name());
  // float16 and bfloat16 sums and products accumulate in float32, as reduce's do.
  const type_id acc = is_add_or_multiply(op) && is_half(result.id()) ? type_id::float32 : result.id();
  const std::size_t loop = engine::combining_loop(op, acc, "reduceat");

  const std::int64_t n_idx = indices.shape()[0], axis_len = a.shape()[axis];
  shape_t out_shape(a.shape().begin(), a.shape().end());
  out_shape[axis] = n_idx;
  const int device = a.device();
  detail::device_scope scope(device);
  const auto out_item = static_cast<std::int64_t>(detail::info(result.id()).itemsize);
  ndarray out = engine::empty_with_strides(out_shape, layout::c_strides(out_shape, out_item), result, device);
  if (n_idx == 0) return to_out(out, options.out, name);

  const ndarray idx = ascontiguousarray(astype(indices, dtype(type_id::int64), casting::safe, false));
  // The other axes, C order (their flat index is outer * inner_size + inner), collapsed.
  dims kept;
  std::int64_t inner_size = 1;
  for (std::size_t k = 0; k < static_cast<std::size_t>(ndim); ++k) {
    if (k == axis) continue;
    kept.extent.push_back(a.shape()[k]);
    kept.stride.push_back(a.strides()[k]);
    if (k > axis) inner_size *= a.shape()[k];
  }
  kept = collapse(kept);
  if (kept.extent.size() > max_dims)
    throw ValueError("reduceat over an array whose layout needs more than 8 separate dimensions");
  detail::reduceat_desc desc;
  desc.loop = loop;
  desc.acc = acc;
  desc.in = a.dtype().id();
  desc.out = result.id();
  desc.kept = static_cast<int>(kept.extent.size());
  const detail::kernel_module& module = detail::kernel_cache::global().get(
      device, {"reduceat:" + std::string(detail::cache_name(op)), detail::reduceat_variant(desc)}, [&] {
        const auto p = detail::compose_reduceat(op, desc);
        return detail::program_source{p.name, p.source, p.kernels, {}};
      });
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  // The first bad index's position (all bits set: none), read back once.
  const std::int64_t one = 1, eight = 8;
  const ndarray bad = engine::empty_with_strides(std::span<const std::int64_t>(&one, 1),
                                                 std::span<const std::int64_t>(&eight, 1), dtype(type_id::uint64), device);
  cuda::detail::check(cudaMemsetAsync(bad.data(), 0xff, 8, stream), "cudaMemsetAsync");
  const std::int64_t out_size = out.size(), work = std::max(out_size, n_idx);
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>((work + block_threads - 1) / block_threads, 65535)));
  const char* in_arg = static_cast<const char*>(a.data());
  void* out_arg = out.data();
  const void* idx_arg = idx.data();
  void* bad_arg = bad.data();
  long long o = out_size, n = n_idx, len = axis_len, step = a.strides()[axis], inner = inner_size;
  dims_param k(kept);
  void* args[] = {&in_arg, &out_arg, &o, &idx_arg, &n, &len, &step, &inner, k.v.data(), &bad_arg};
  const cupp::detail::launch_range range([&] { return name + " " + a.dtype().name(); });
  cuda::detail::check(cudaLaunchKernel(module.function(0), grid, dim3(block_threads), args, 0, stream),
                      "cudaLaunchKernel");
  const auto first_bad = bad.item<std::uint64_t>();
  if (first_bad != ~std::uint64_t{0}) {
    const auto v = idx(static_cast<std::int64_t>(first_bad)).item<std::int64_t>();
    throw IndexError("index " + std::to_string(v) + " out-of-bounds in " + name + " [0, " + std::to_string(axis_len) +
                     ")");
  }
  return to_out(out, options.out, name);
}

// The folding routines (sum, all, count_nonzero, nansum, ...: generated/src/folding_routines.cpp)
// are f.reduce with their spec's rules.
ndarray engine::fold(const ufunc& f, const ndarray& a, const reduce_options& options, const engine::fold_rules& rules) {
  if (!rules.takes_initial && options.initial) refuse(rules.name, "initial");
  if (!rules.takes_where && !options.where.is_null()) refuse(rules.name, "where");
  mapping m;
  if (rules.nonzero) {
    m.map = detail::reduce_map::nonzero;
  } else if (rules.nan_as_identity && !a.is_null() && is_inexact(a.dtype())) {
    m.map = f.name() == "add" ? detail::reduce_map::nan_to_zero : detail::reduce_map::nan_to_one;
  }
  if (!rules.result) return reduce_mapped(f.spec(), a, options, m);  // (no copy of the options per call)
  reduce_options o = options;
  o.dtype = dtype(*rules.result);
  return reduce_mapped(f.spec(), a, o, m);
}

// NumPy's mean: the sum in float64 for bool and integers, in float32 for float16 and bfloat16
// (the result then rounded back), else in the input's dtype; divided by the element count (with
// where=, the count of selected elements: none gives NaN).
ndarray mean(const ndarray& a, const reduce_options& options) {
  refuse_initial("mean", options);
  if (a.is_null()) throw ValueError("mean: the array is null");
  (void)reduced_axes(options.axis, a.ndim());  // NumPy's mean counts its elements first: AxisError for a 0-d axis
  const type_id t = a.dtype().id();
  const bool exact = t == type_id::bool_ || a.dtype().kind() == 'i' || a.dtype().kind() == 'u';
  const dtype result = options.dtype ? *options.dtype : exact ? dtype(type_id::float64) : a.dtype();
  const dtype acc = is_half(result.id()) ? dtype(type_id::float32) : result;
  reduce_options o = options;
  o.dtype = acc;
  o.out = ndarray();
  const ndarray total = reduce_mapped(add.spec(), a, o, {});
  ndarray m;
  if (!options.where.is_null()) {
    m = divide(total, astype(selected_count(a, options.where, options.axis, options.keepdims), real_of(acc)));
  } else {
    const std::int64_t count = total.size() == 0 ? 0 : a.size() / std::max<std::int64_t>(1, total.size());
    m = divide(total, count);
  }
  if (m.dtype() != result) m = astype(m, result);
  if (options.out.is_null()) return m;
  copyto(options.out, m, casting::same_kind);
  return options.out;
}

// ---- nanmean, ptp

// NumPy's nanmean: the sum with NaN as 0 divided by the count of other elements (0 / 0 = NaN for
// an all-NaN slice); float16 and bfloat16 in float32, rounded once.
ndarray nanmean(const ndarray& a, const reduce_options& options) {
  refuse_initial("nanmean", options);
  if (a.is_null() || !is_inexact(a.dtype())) return mean(a, options);
  const dtype result = options.dtype ? *options.dtype : a.dtype();
  const dtype acc = is_half(result.id()) ? dtype(type_id::float32) : result;
  const ndarray total = reduce_mapped(add.spec(), a, {.axis = options.axis, .dtype = acc, .where = options.where},
                                      {detail::reduce_map::nan_to_zero});
  const ndarray count = reduce_mapped(add.spec(), a, {.axis = options.axis, .dtype = dtype(type_id::int64), .where = options.where},
                                      {detail::reduce_map::not_nan});
  ndarray m = divide(total, astype(count, real_of(acc)));
  if (m.dtype() != result) m = astype(m, result);
  if (options.keepdims) m = m.reshape(kept_shape(a, reduced_axes(options.axis, a.ndim())));
  return to_out(m, options.out, "nanmean");
}

ndarray ptp(const ndarray& a, const reduce_options& options) {
  refuse_where_initial("ptp", options);
  const reduce_options o{.axis = options.axis, .keepdims = options.keepdims};
  return to_out(subtract(max(a, o), min(a, o)), options.out, "ptp");
}

}  // namespace cupp
