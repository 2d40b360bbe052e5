// argmax, argmin, nanargmax and nanargmin (cupp/reductions.hpp): the index of the first extreme
// (NaN first unless skipped), on the reduction engine's layout (reduce_plan.hpp) with the
// composer's arg-reduction kernels.
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

// ---- argmax, argmin, nanargmax, nanargmin

namespace {

ndarray arg_reduce(const ndarray& a, const arg_options& options, bool is_max, bool skip_nan) {
  const std::string name = std::string(skip_nan ? "nan" : "") + (is_max ? "argmax" : "argmin");
  if (a.is_null()) throw ValueError(name + ": the array is null");
  if (!a.dtype().is_builtin()) throw TypeError(name + ": cannot compare dtype " + a.dtype().name());
  const std::vector<bool> reduced_axis =
      reduced_axes(options.axis ? axes(*options.axis) : axes(), a.ndim(), true);
  const int device = a.device();
  detail::device_scope scope(device);
  dims kept, reduced;
  shape_t out_shape;
  split_axes(a, reduced_axis, kept, reduced, out_shape);
  const std::int64_t out_size = kept.size(), red_size = reduced.size();
  if (red_size == 0) throw ValueError(std::string("attempt to get ") + (is_max ? "argmax" : "argmin") + " of an empty sequence");
  ndarray out = engine::empty_with_strides(out_shape, layout::c_strides(out_shape, 8), dtype(type_id::int64), device);
  const bool nan_aware = skip_nan && is_inexact(a.dtype());
  // CUB (CUPP_ACCELERATORS=cub) for one contiguous run, else cupp's kernels.
  if (out_size > 0 && !(!nan_aware && detail::accel::try_arg_reduce(a, reduced_axis, is_max, out))) {
    kept = collapse(kept);
    reduced = collapse(reduced);
    require_kernel_dims(kept, reduced);
    const auto in_item = static_cast<std::int64_t>(a.itemsize());
    detail::arg_reduce_desc desc;
    desc.in = a.dtype().id();
    desc.max = is_max;
    desc.skip_nan = nan_aware;
    desc.kept = static_cast<int>(kept.extent.size());
    desc.reduced = static_cast<int>(reduced.extent.size());
    desc.layout = layout_class(kept, reduced, in_item);
    const bool columns = desc.layout == reduce_class::columns;
    const detail::kernel_module& module = detail::kernel_cache::global().get(
        device, {"arg:" + name, detail::arg_reduce_variant(desc)}, [&] {
          const auto p = detail::compose_arg_reduction(desc);
          return detail::program_source{p.name, p.source, p.kernels, {}};
        });
    const cudaStream_t stream = cuda::detail::current_stream_handle(device);
    const std::int64_t blocks_x = columns ? (out_size + block_threads - 1) / block_threads : out_size;
    const auto [splits, chunk] = plan_splits(columns, blocks_x, red_size, device, module.function(1));
    const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(blocks_x, 0x7fffffff)), static_cast<unsigned>(splits));
    const char* in = static_cast<const char*>(a.data());
    if (splits == 1) {
      launch(module.function(0), grid, dim3(block_threads), in, out.data(), out_size, red_size, chunk, kept, reduced, stream);
    } else {
      // 32 bytes per partial (value, index) pair: cupp::dev::arg_acc of any dtype fits.
      const std::int64_t one_byte = 1, n_bytes = out_size * splits * 32;
      const ndarray partial = engine::empty_with_strides(std::span<const std::int64_t>(&n_bytes, 1),
                                                         std::span<const std::int64_t>(&one_byte, 1),
                                                         dtype(type_id::uint8), device);
      launch(module.function(1), grid, dim3(block_threads), in, partial.data(), out_size, red_size, chunk, kept, reduced,
             stream);
      const dims one{{1}, {0}};
      const dim3 grid2(static_cast<unsigned>(std::min<std::int64_t>(out_size, 0x7fffffff)), 1);
      launch(module.function(2), grid2, dim3(block_threads), static_cast<const char*>(partial.data()), out.data(),
             out_size, splits, splits, one, one, stream);
    }
    // An all-NaN slice leaves index -1 (one round trip, only for the nan-functions on floats).
    if (nan_aware && cupp::min(out).item<std::int64_t>() < 0) throw ValueError("All-NaN slice encountered");
  }
  if (options.keepdims) out = out.reshape(kept_shape(a, reduced_axis));
  return to_out(out, options.out, name);
}

}  // namespace

ndarray argmax(const ndarray& a, const arg_options& options) { return arg_reduce(a, options, true, false); }
ndarray argmin(const ndarray& a, const arg_options& options) { return arg_reduce(a, options, false, false); }
ndarray nanargmax(const ndarray& a, const arg_options& options) { return arg_reduce(a, options, true, true); }
ndarray nanargmin(const ndarray& a, const arg_options& options) { return arg_reduce(a, options, false, true); }

}  // namespace cupp
