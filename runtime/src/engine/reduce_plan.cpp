// Planning and running a reduction (reduce_plan.hpp): the host normalises axis=, collapses the
// array into kept dimensions (one per result element) and reduced dimensions, picks the layout
// class (rows or columns, packed loads) and launches the kernels of cupp/dev/reduction.cuh: one
// pass when there are enough results to fill the GPU, else two (chunks of reduced elements into
// partial accumulators, then their combination). where= and initial= take the selective kernels
// of cupp/dev/reduction_where.cuh.
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

namespace engine::reduction {

// Splits `a`'s axes into kept ones (one per result element; their extents are the result's
// shape) and reduced ones, with their byte strides.
void split_axes(const ndarray& a, const std::vector<bool>& reduced_axis, dims& kept, dims& reduced, shape_t& out_shape) {
  for (std::size_t k = 0; k < reduced_axis.size(); ++k) {
    dims& d = reduced_axis[k] ? reduced : kept;
    d.extent.push_back(a.shape()[k]);
    d.stride.push_back(a.strides()[k]);
    if (!reduced_axis[k]) out_shape.push_back(a.shape()[k]);
  }
}

// Drops length-1 dimensions and merges neighbours that step through memory as one.
dims collapse(dims d) {
  dims out;
  for (std::size_t k = 0; k < d.extent.size(); ++k) {
    if (d.extent[k] == 1) continue;
    if (!out.extent.empty() && out.stride.back() == d.extent[k] * d.stride[k]) {
      out.extent.back() *= d.extent[k];
      out.stride.back() = d.stride[k];
    } else {
      out.extent.push_back(d.extent[k]);
      out.stride.push_back(d.stride[k]);
    }
  }
  if (out.extent.empty()) {
    out.extent.push_back(1);
    out.stride.push_back(0);
  }
  return out;
}

reduce_class layout_class(const dims& kept, const dims& reduced, std::int64_t in_item) {
  constexpr std::int64_t short_reduction = 16;
  const bool columns = (kept.size() >= 32 && kept.stride.back() == in_item && reduced.stride.back() != in_item) ||
                       reduced.size() <= short_reduction;
  return columns ? reduce_class::columns : reduce_class::rows;
}

void require_kernel_dims(const dims& kept, const dims& reduced) {
  if (kept.extent.size() > max_dims || reduced.extent.size() > max_dims)
    throw ValueError("reduction over an array whose layout needs more than 8 separate dimensions");
}

// Which axes a reduction takes: sorted, each once; AxisError / ValueError as NumPy. zero_d_axis:
// a 0-d array takes axis 0 or -1 as no axis, as NumPy's ufunc.reduce and argmax do (mean and var
// count their elements first and raise AxisError).
std::vector<bool> reduced_axes(const axes& axis, std::int64_t ndim, bool zero_d_axis) {
  std::vector<bool> reduced(static_cast<std::size_t>(ndim), axis.all());
  if (axis.all()) return reduced;
  for (std::int64_t a : axis.list()) {
    if (ndim == 0 && zero_d_axis && (a == 0 || a == -1)) continue;
    if (a < -ndim || a >= ndim)
      throw AxisError("axis " + std::to_string(a) + " is out of bounds for array of dimension " + std::to_string(ndim));
    const std::size_t k = static_cast<std::size_t>(a < 0 ? a + ndim : a);
    if (reduced[k]) throw ValueError("duplicate value in 'axis'");
    reduced[k] = true;
  }
  return reduced;
}

bool is_half(type_id t) { return t == type_id::float16 || t == type_id::bfloat16; }
bool is_add_or_multiply(const op_spec& op) { return op.name == "add" || op.name == "multiply"; }

// The identity as a weak scalar ("0", "1", "-1", "True", "False"); false when the op has none.
bool identity_of(const op_spec& op, weak_scalar& value) {
  if (op.identity.empty()) return false;
  if (op.identity == "True") value = weak_scalar(true);
  else if (op.identity == "False") value = weak_scalar(false);
  else value = weak_scalar(static_cast<std::int64_t>(std::stoll(std::string(op.identity))));
  return true;
}

kernels find_kernels(const op_spec& op, const reduce_desc& desc, int device) {
  const std::string name = "reduce:" + std::string(detail::cache_name(op));
  const detail::kernel_module& module =
      detail::kernel_cache::global().get(device, {name, detail::reduce_variant(desc)}, [&] {
        const auto p = detail::compose_reduction(op, desc);
        return detail::program_source{p.name, p.source, p.kernels, {}};
      });
  return {module.function(0), module.function(1),
          module.function(desc.layout == reduce_class::columns ? 3 : 2)};
}

// CUPP_NVTX_OPS's name of a reduction's launches: "sum.reduce float32->float32 rows".
std::string reduce_label(const std::string& name, const reduce_desc& d) {
  return name + " " + dtype(d.in).name() + "->" + dtype(d.out).name() +
         (d.layout == reduce_class::columns ? " columns" : " rows") + (d.packed ? " packed" : "") +
         (d.selective ? " where" : "");
}

void launch(const void* kernel, dim3 grid, dim3 block, const char* in, void* out, std::int64_t out_size,
            std::int64_t red_size, std::int64_t chunk, const dims& kept, const dims& reduced, cudaStream_t stream,
            const void* aux) {
  const char* in_arg = in;
  void* out_arg = out;
  long long o = out_size, r = red_size, c = chunk;
  dims_param k(kept), d(reduced);
  const void* aux_arg = aux;
  void* args[] = {&in_arg, &out_arg, &o, &r, &c, k.v.data(), d.v.data(), &aux_arg};
  cuda::detail::check(cudaLaunchKernel(kernel, grid, block, args, 0, stream), "cudaLaunchKernel");
}

// Chunks of reduced elements (blockIdx.y) so that whole waves of blocks have work: as many blocks
// of `kernel` (the pass that reads the input) as fit on the SMs at once (eight per SM when no
// kernel is named), twice over for rows: the number of chunks and their length. A partial last
// wave would leave most SMs idle at the end; two full waves of half-size chunks beat one (a
// float32 max of 2^28: 0.247 ms against 0.261 on the H200, session 8), since blocks that finish
// early on the faster SMs take the second wave's chunks.
split_plan plan_splits(bool columns, std::int64_t blocks_x, std::int64_t red_size, int device,
                       const void* kernel) {
  const std::int64_t per_sm = kernel ? engine::resident_blocks(kernel, block_threads) : 8;
  const std::int64_t waves = columns ? 1 : 2;
  const std::int64_t target = waves * per_sm * static_cast<std::int64_t>(engine::sm_count(device));
  const std::int64_t min_chunk = columns ? 64 : 4 * block_threads;
  std::int64_t splits = std::clamp<std::int64_t>((target + blocks_x - 1) / blocks_x, 1, 65535);
  splits = std::min(splits, std::max<std::int64_t>(1, red_size / min_chunk));
  const std::int64_t chunk = (red_size + splits - 1) / splits;
  return {(red_size + chunk - 1) / chunk, chunk};
}

// The second pass of a split reduction: combine_partials (a combining kernel) folds each
// output's `splits` partial accumulators (acc_item bytes each) into out. Columns: the partials
// are chunk-major and a thread per output walks its column of chunks; rows: a block per output.
void combine_partials(const void* kernel, const ndarray& partial, const ndarray& out, std::int64_t out_size,
                      std::int64_t splits, std::int64_t acc_item, bool columns, cudaStream_t stream) {
  const char* in = static_cast<const char*>(partial.data());
  if (columns) {
    const dims outputs{{out_size}, {acc_item}}, chunks{{splits}, {out_size * acc_item}};
    const dim3 grid(static_cast<unsigned>((out_size + block_threads - 1) / block_threads), 1);
    launch(kernel, grid, dim3(block_threads), in, out.data(), out_size, splits, splits, outputs, chunks, stream);
  } else {
    const dims rows{{out_size}, {splits * acc_item}}, parts{{splits}, {acc_item}};
    const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(out_size, 0x7fffffff)), 1);
    launch(kernel, grid, dim3(block_threads), in, out.data(), out_size, splits, splits, rows, parts, stream);
  }
}

// A built-in op's loop `loop` (acc, acc -> acc), elements mapped by `m`.
class op_reducer final : public reducer {
 public:
  op_reducer(const op_spec& op, std::size_t loop) : op_(op), loop_(loop) {}
  kernels find(const reduce_desc& desc, int device) const override {
    reduce_desc d = desc;
    d.loop = loop_;
    return find_kernels(op_, d, device);
  }
  void fill_empty(const ndarray& out) const override {
    weak_scalar identity(false);
    if (!identity_of(op_, identity))
      throw ValueError("zero-size array to reduction operation " + std::string(op_.name) + " which has no identity");
    out.fill(identity);
  }
  std::string label() const override { return std::string(op_.name) + ".reduce"; }

 private:
  const op_spec& op_;
  std::size_t loop_;
};

// Reduces `a` over `reduced` into a new C-contiguous array of `result` dtype with the kept
// axes' shape, accumulating in `acc` with the kernels `with` gives.
ndarray run(const reducer& with, const ndarray& a, const std::vector<bool>& reduced_axis, type_id acc, type_id result,
            const mapping& m) {
  const int device = a.device();
  detail::device_scope scope(device);
  dims kept, reduced;
  shape_t out_shape;
  split_axes(a, reduced_axis, kept, reduced, out_shape);
  const std::int64_t out_size = kept.size(), red_size = reduced.size();
  const auto out_item = static_cast<std::int64_t>(detail::info(result).itemsize);
  ndarray out = engine::empty_with_strides(out_shape, layout::c_strides(out_shape, out_item), dtype(result), device);
  if (out_size == 0) return out;
  if (red_size == 0) {
    with.fill_empty(out);
    return out;
  }
  kept = collapse(kept);
  reduced = collapse(reduced);
  require_kernel_dims(kept, reduced);

  const auto in_item = static_cast<std::int64_t>(a.itemsize());
  reduce_desc desc;
  desc.acc = acc;
  desc.in = a.dtype().id();
  desc.out = result;
  desc.kept = static_cast<int>(kept.extent.size());
  desc.reduced = static_cast<int>(reduced.extent.size());
  desc.map = m.map;
  desc.map_type = m.type;
  desc.layout = layout_class(kept, reduced, in_item);
  const bool columns = desc.layout == reduce_class::columns;
  // Packed columns: one kept dimension of unit stride, and 16-byte loads that stay aligned on
  // every reduced step.
  const std::int64_t pack = in_item < 16 ? 16 / in_item : 1;
  desc.packed = columns && pack > 1 && kept.extent.size() == 1 && kept.stride[0] == in_item && out_size % pack == 0 &&
                reinterpret_cast<std::uintptr_t>(a.data()) % 16 == 0 &&
                std::all_of(reduced.stride.begin(), reduced.stride.end(), [](std::int64_t s) { return s % 16 == 0; });
  const std::int64_t threads_x = desc.packed ? out_size / pack : out_size;
  const kernels k = with.find(desc, device);
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  const cupp::detail::launch_range range([&] { return reduce_label(with.label(), desc); });

  const std::int64_t blocks_x = columns ? (threads_x + block_threads - 1) / block_threads : out_size;
  const auto [splits, chunk] = plan_splits(columns, blocks_x, red_size, device, k.partial_pass);
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(blocks_x, 0x7fffffff)), static_cast<unsigned>(splits));
  const dim3 block(block_threads);
  const char* in = static_cast<const char*>(a.data());
  if (splits == 1) {
    launch(k.final_pass, grid, block, in, out.data(), out_size, red_size, chunk, kept, reduced, stream, m.aux);
    return out;
  }
  const std::int64_t acc_item = static_cast<std::int64_t>(detail::info(acc).itemsize);
  const std::int64_t n_partial = out_size * splits;
  const ndarray partial = engine::empty_with_strides(std::span<const std::int64_t>(&n_partial, 1),
                                                     std::span<const std::int64_t>(&acc_item, 1), dtype(acc), device);
  launch(k.partial_pass, grid, block, in, partial.data(), out_size, red_size, chunk, kept, reduced, stream, m.aux);
  combine_partials(k.combine_partials, partial, out, out_size, splits, acc_item, columns, stream);
  return out;
}

// ---- where= and initial= (cupp/dev/reduction_where.cuh)

// One value of an accumulator dtype, as a kernel parameter's bytes.
struct value_bytes {
  alignas(16) std::array<std::byte, 16> b{};
};

// What a where=/initial= reduction reads besides the input: the mask (null: every element) with
// its strides broadcast to the input's shape, the start value of every result (initial=, else
// the op's identity) and the value of a chunk that selects nothing (none: one chunk per result).
struct selection {
  const char* mask = nullptr;
  std::vector<std::int64_t> mask_strides;  // one per input axis (0 where broadcast)
  bool has_start = false, has_fill = false;
  value_bytes start, fill;
};

// Drops length-1 dimensions and merges neighbours that step through memory as one in both the
// input's strides `d` and the mask's `m` (same extents).
void collapse_pair(dims& d, dims& m) {
  dims out, mout;
  for (std::size_t k = 0; k < d.extent.size(); ++k) {
    if (d.extent[k] == 1) continue;
    if (!out.extent.empty() && out.stride.back() == d.extent[k] * d.stride[k] &&
        mout.stride.back() == d.extent[k] * m.stride[k]) {
      out.extent.back() *= d.extent[k];
      out.stride.back() = d.stride[k];
      mout.extent.back() = out.extent.back();
      mout.stride.back() = m.stride[k];
    } else {
      out.extent.push_back(d.extent[k]);
      out.stride.push_back(d.stride[k]);
      mout.extent.push_back(d.extent[k]);
      mout.stride.push_back(m.stride[k]);
    }
  }
  if (out.extent.empty()) {
    out = dims{{1}, {0}};
    mout = dims{{1}, {0}};
  }
  d = std::move(out);
  m = std::move(mout);
}

// ops for which op(x, x) == x: a chunk that selects nothing may contribute initial= again.
bool is_idempotent(const op_spec& op) {
  return op.name == "maximum" || op.name == "minimum" || op.name == "fmax" || op.name == "fmin";
}

// The identity in dtype `acc` (-1, bitwise_and's, is every bit set for unsigned dtypes too).
value_bytes identity_bytes(const weak_scalar& id, type_id acc) {
  value_bytes v;
  if (id.scalar_kind() == weak_scalar::kind::bool_) {
    const bool b = id.magnitude() != 0;
    detail::convert_elements(reinterpret_cast<const std::byte*>(&b), dtype(type_id::bool_), v.b.data(), dtype(acc), 1);
  } else {
    const std::int64_t i = id.is_negative() ? -static_cast<std::int64_t>(id.magnitude()) : static_cast<std::int64_t>(id.magnitude());
    detail::convert_elements(reinterpret_cast<const std::byte*>(&i), dtype(type_id::int64), v.b.data(), dtype(acc), 1);
  }
  return v;
}

// Checks where= and initial= on the host (no device work) and prepares what the kernels read:
// NumPy's TypeError for a mask that is not bool, ValueError for one that does not broadcast to
// the input, ValueError for where= on an op without identity and without initial=; initial= is
// cast to the result dtype as NumPy packs it (OverflowError for a weak integer out of range).
selection select(const op_spec& op, const ndarray& a, const reduce_options& options, type_id result, type_id acc) {
  selection s;
  const ndarray& w = options.where;
  if (!w.is_null()) {
    if (w.dtype().id() != type_id::bool_)
      throw TypeError("Cannot cast array data from dtype('" + w.dtype().name() +
                      "') to dtype('bool') according to the rule 'safe'");
    if (w.ndim() > a.ndim()) throw ValueError("input operand has more dimensions than allowed by the axis remapping");
    s.mask_strides.assign(static_cast<std::size_t>(a.ndim()), 0);
    const std::size_t lead = static_cast<std::size_t>(a.ndim() - w.ndim());
    for (std::size_t k = 0; k < static_cast<std::size_t>(w.ndim()); ++k) {
      const std::int64_t e = w.shape()[k], want = a.shape()[lead + k];
      if (e != want && e != 1)
        throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                         layout::compact_string(a.shape()) + " " + layout::compact_string(w.shape()) + " ");
      s.mask_strides[lead + k] = e == 1 ? 0 : w.strides()[k];
    }
    s.mask = static_cast<const char*>(w.data());
  }
  weak_scalar id(false);
  const bool has_identity = identity_of(op, id);
  if (options.initial) {
    const std::vector<std::byte> r = detail::scalar_bytes(*options.initial, dtype(result));
    detail::convert_elements(r.data(), dtype(result), s.start.b.data(), dtype(acc), 1);
    s.has_start = true;
  } else if (has_identity) {
    s.start = identity_bytes(id, acc);
    s.has_start = true;
  } else if (!w.is_null()) {
    throw ValueError("reduction operation '" + std::string(op.name) +
                     "' does not have an identity, so to use a where mask one has to specify 'initial'");
  }
  if (has_identity) {
    s.fill = identity_bytes(id, acc);
    s.has_fill = true;
  } else if (s.has_start && is_idempotent(op)) {
    s.fill = s.start;
    s.has_fill = true;
  }
  return s;
}

void launch_selective(const void* kernel, dim3 grid, const char* in, void* out, std::int64_t out_size,
                      std::int64_t red_size, std::int64_t chunk, const dims& kept, const dims& reduced, const void* aux,
                      const selection& s, const dims& mask_kept, const dims& mask_reduced, cudaStream_t stream) {
  const char* in_arg = in;
  void* out_arg = out;
  long long o = out_size, r = red_size, c = chunk;
  dims_param k(kept), d(reduced), mk(mask_kept), md(mask_reduced);
  const void* aux_arg = aux;
  const char* mask_arg = s.mask;
  value_bytes start = s.start, fill = s.fill;
  int flags = (s.has_start ? 1 : 0) | (s.has_fill ? 2 : 0);  // reduce_has_start, reduce_has_fill
  void* args[] = {&in_arg, &out_arg,   &o,          &r,           &c,           k.v.data(),    d.v.data(),
                  &aux_arg, &mask_arg, mk.v.data(), md.v.data(), start.b.data(), fill.b.data(), &flags};
  cuda::detail::check(cudaLaunchKernel(kernel, grid, dim3(block_threads), args, 0, stream), "cudaLaunchKernel");
}

// op.reduce (loop `loop`, accumulator `acc`) with where= and/or initial= as `s` describes, into a
// new C-contiguous array of `result` dtype with the kept axes' shape. An empty reduction runs the
// kernels too (every result is its start value).
ndarray run_selective(const op_spec& op, std::size_t loop, const ndarray& a, const std::vector<bool>& reduced_axis,
                      type_id acc, type_id result, const mapping& m, const selection& s) {
  const int device = a.device();
  detail::device_scope scope(device);
  dims kept, reduced, mask_kept, mask_reduced;
  shape_t out_shape;
  split_axes(a, reduced_axis, kept, reduced, out_shape);
  mask_kept.extent = kept.extent;
  mask_reduced.extent = reduced.extent;
  for (std::size_t k = 0; k < reduced_axis.size(); ++k)
    (reduced_axis[k] ? mask_reduced : mask_kept).stride.push_back(s.mask ? s.mask_strides[k] : 0);
  const std::int64_t out_size = kept.size(), red_size = reduced.size();
  const auto out_item = static_cast<std::int64_t>(detail::info(result).itemsize);
  ndarray out = engine::empty_with_strides(out_shape, layout::c_strides(out_shape, out_item), dtype(result), device);
  if (out_size == 0) return out;
  if (red_size == 0) {
    reduced = dims{{1}, {0}};
    mask_reduced = dims{{1}, {0}};
  }
  collapse_pair(kept, mask_kept);
  collapse_pair(reduced, mask_reduced);
  require_kernel_dims(kept, reduced);
  const auto in_item = static_cast<std::int64_t>(a.itemsize());
  reduce_desc desc;
  desc.loop = loop;
  desc.acc = acc;
  desc.in = a.dtype().id();
  desc.out = result;
  desc.kept = static_cast<int>(kept.extent.size());
  desc.reduced = static_cast<int>(reduced.extent.size());
  desc.map = m.map;
  desc.map_type = m.type;
  desc.selective = true;
  desc.mask = s.mask != nullptr;
  desc.layout = layout_class(kept, reduced, in_item);
  const bool columns = desc.layout == reduce_class::columns;
  const kernels k = find_kernels(op, desc, device);
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  const cupp::detail::launch_range range([&] { return reduce_label(std::string(op.name) + ".reduce", desc); });
  const std::int64_t blocks_x = columns ? (out_size + block_threads - 1) / block_threads : out_size;
  // A chunk that selects nothing needs a fill value; without one (an op with neither identity nor
  // idempotence) each result is one chunk, which always holds the start value.
  split_plan plan{1, red_size};
  if (red_size > 0 && s.has_fill) plan = plan_splits(columns, blocks_x, red_size, device, k.partial_pass);
  const auto [splits, chunk] = plan;
  const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>(blocks_x, 0x7fffffff)), static_cast<unsigned>(splits));
  const char* in = static_cast<const char*>(a.data());
  if (splits == 1) {
    launch_selective(k.final_pass, grid, in, out.data(), out_size, red_size, chunk, kept, reduced, m.aux, s, mask_kept,
                     mask_reduced, stream);
    return out;
  }
  const std::int64_t acc_item = static_cast<std::int64_t>(detail::info(acc).itemsize);
  const std::int64_t n_partial = out_size * splits;
  const ndarray partial = engine::empty_with_strides(std::span<const std::int64_t>(&n_partial, 1),
                                                     std::span<const std::int64_t>(&acc_item, 1), dtype(acc), device);
  launch_selective(k.partial_pass, grid, in, partial.data(), out_size, red_size, chunk, kept, reduced, m.aux, s,
                   mask_kept, mask_reduced, stream);
  combine_partials(k.combine_partials, partial, out, out_size, splits, acc_item, columns, stream);
  return out;
}

}  // namespace engine::reduction

namespace engine::reduction {

// Keepdims' shape: the reduced axes kept with length 1.
shape_t kept_shape(const ndarray& a, const std::vector<bool>& reduced_axis) {
  shape_t shape;
  for (std::size_t k = 0; k < reduced_axis.size(); ++k) shape.push_back(reduced_axis[k] ? 1 : a.shape()[k]);
  return shape;
}

// Writes `r` into out= (shape checked, same_kind cast) when one is given; returns the result.
ndarray to_out(const ndarray& r, const ndarray& out, std::string_view function) {
  if (out.is_null()) return r;
  if (!std::equal(out.shape().begin(), out.shape().end(), r.shape().begin(), r.shape().end()))
    throw ValueError("output parameter for reduction operation " + std::string(function) + " has the wrong shape " +
                     layout::compact_string(out.shape()) + " (expected " + layout::compact_string(r.shape()) + ")");
  copyto(out, r, casting::same_kind);
  return out;
}

// op.reduce with each element mapped by `m` first (count_nonzero, the nan-functions, var).
ndarray reduce_mapped(const op_spec& op, const ndarray& a, const reduce_options& options, const mapping& m) {
  if (a.is_null()) throw ValueError("reduce: the array is null");
  const std::vector<bool> reduced_axis = reduced_axes(options.axis, a.ndim(), true);
  // NumPy regroups only ops with an identity or that commute; the others take one axis at most.
  if ((op.identity.empty() && !op.commutative) &&
      std::count(reduced_axis.begin(), reduced_axis.end(), true) > 1)
    throw ValueError("reduction operation '" + std::string(op.name) + "' is not reorderable, so at most one axis may be specified");
  const dtype result = options.dtype ? *options.dtype : engine::default_result(op, a.dtype());
  if (!result.is_builtin()) throw TypeError("reduce: cannot reduce to dtype " + result.name());
  // float16 and bfloat16 sums and products accumulate in float32, as NumPy's pairwise loops do.
  const type_id acc = is_add_or_multiply(op) && is_half(result.id()) ? type_id::float32 : result.id();
  const std::size_t loop = engine::combining_loop(op, acc, "reduce");
  const bool plain = options.where.is_null() && !options.initial;
  ndarray r;  // CUB (CUPP_ACCELERATORS=cub) for one contiguous run into one result, else cupp's kernels
  if (!(plain && m.map == detail::reduce_map::cast &&
        detail::accel::try_reduce(op.name, a, reduced_axis, acc, result.id(), r)))
    r = plain ? run(op_reducer(op, loop), a, reduced_axis, acc, result.id(), m)
              : run_selective(op, loop, a, reduced_axis, acc, result.id(), m, select(op, a, options, result.id(), acc));
  if (options.keepdims) r = r.reshape(kept_shape(a, reduced_axis));
  return to_out(r, options.out, op.name);
}

// The number of elements each result reduces.
std::int64_t reduced_count(const ndarray& a, const axes& axis) {
  const std::vector<bool> reduced = reduced_axes(axis, a.ndim());
  std::int64_t n = 1;
  for (std::size_t k = 0; k < reduced.size(); ++k)
    if (reduced[k]) n *= a.shape()[k];
  return n;
}

bool is_inexact(const dtype& t) { return t.kind() == 'f' || t.kind() == 'c'; }

// NumPy's TypeError for a keyword the function does not take (all() has no initial=, ...).
void refuse(std::string_view function, std::string_view keyword) {
  throw TypeError(std::string(function) + "() got an unexpected keyword argument '" + std::string(keyword) + "'");
}
void refuse_initial(std::string_view function, const reduce_options& o) {
  if (o.initial) refuse(function, "initial");
}
void refuse_where_initial(std::string_view function, const reduce_options& o) {
  if (!o.where.is_null()) refuse(function, "where");
  refuse_initial(function, o);
}

// How many elements each result of a where= reduction selects (int64, keepdims as asked).
ndarray selected_count(const ndarray& a, const ndarray& where, const axes& axis, bool keepdims) {
  return count_nonzero(broadcast_to(where, a.shape()), {.axis = axis, .keepdims = keepdims});
}

// The real dtype of the same precision (complex64 -> float32); others unchanged.
dtype real_of(const dtype& t) {
  if (t.id() == type_id::complex64) return dtype(type_id::float32);
  if (t.id() == type_id::complex128) return dtype(type_id::float64);
  return t;
}

}  // namespace engine::reduction

}  // namespace cupp
