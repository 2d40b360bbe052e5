// Scans: ufunc.accumulate and the functions built on it (cumsum, cumprod, nancumsum, nancumprod,
// cumulative_sum, cumulative_prod), and diff / ediff1d (slices and subtract on the element-wise
// engine). The host normalises axis=, picks NumPy's result dtype (the accumulator's), collapses
// the other axes into lines and launches cupp/dev/scan.cuh's kernels: a thread per line for short
// lines, non-associative ops and strided axes; register tiles in chunks, in one pass or two, for
// long contiguous lines of associative ops (docs/scans.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "accel/cub_dispatch.hpp"
#include "array/layout.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/promotion.hpp"
#include "cupp/scans.hpp"
#include "engine/folds.hpp"
#include "engine/internal.hpp"
#include "loader/loaded_ops.hpp"
#include "engine/reduce_common.hpp"
#include "engine/scan_composer.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

using detail::scan_class;
using detail::scan_map;

constexpr int max_kept = 8;
constexpr unsigned scan_threads = 256;   // cupp/dev/scan.cuh's block size
constexpr std::int64_t short_line = 64;  // up to this length a thread walks its line in order

// Kept dimensions: extents and the input's and output's byte strides, C order.
struct kept_dims {
  std::vector<std::int64_t> extent, in, out;
  std::int64_t size() const {
    std::int64_t n = 1;
    for (std::int64_t e : extent) n *= e;
    return n;
  }
};

// Drops length-1 dimensions and merges neighbours that step through both arrays as one (the
// idea of reduce_plan.cpp's collapse, for two stride sets).
kept_dims collapse(const kept_dims& d) {
  kept_dims r;
  for (std::size_t k = 0; k < d.extent.size(); ++k) {
    if (d.extent[k] == 1) continue;
    if (!r.extent.empty() && r.in.back() == d.extent[k] * d.in[k] && r.out.back() == d.extent[k] * d.out[k]) {
      r.extent.back() *= d.extent[k];
      r.in.back() = d.in[k];
      r.out.back() = d.out[k];
    } else {
      r.extent.push_back(d.extent[k]);
      r.in.push_back(d.in[k]);
      r.out.push_back(d.out[k]);
    }
  }
  if (r.extent.empty()) {
    r.extent.push_back(1);
    r.in.push_back(0);
    r.out.push_back(0);
  }
  return r;
}

// The kernel parameter cupp::dev::scan_dims<N>: N extents, N input strides, N output strides.
struct dims_param {
  std::array<long long, 3 * max_kept> v{};
  explicit dims_param(const kept_dims& d) {
    const std::size_t n = d.extent.size();
    for (std::size_t k = 0; k < n; ++k) {
      v[k] = d.extent[k];
      v[n + k] = d.in[k];
      v[2 * n + k] = d.out[k];
    }
  }
};

std::int64_t normalize_axis(std::int64_t axis, std::int64_t ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

// Ops whose combination may be regrouped and reordered (the tiled scan; its totals pass reads a
// chunk's tiles last to first): associative and commutative. Float add and multiply round
// differently when regrouped, as NumPy's pairwise sums do (docs/scans.md).
bool associative(const op_spec& op) {
  static constexpr std::string_view names[] = {"add",         "multiply",    "maximum",     "minimum",
                                               "fmax",        "fmin",        "logical_and", "logical_or",
                                               "logical_xor", "bitwise_and", "bitwise_or",  "bitwise_xor",
                                               "gcd",         "lcm"};
  return std::find(std::begin(names), std::end(names), op.name) != std::end(names);
}

void launch(const void* kernel, dim3 grid, void** args, cudaStream_t stream) {
  cuda::detail::check(cudaLaunchKernel(kernel, grid, dim3(scan_threads), args, 0, stream), "cudaLaunchKernel");
}

dim3 grid_of(std::int64_t blocks) { return dim3(static_cast<unsigned>(std::min<std::int64_t>(blocks, 0x7fffffff))); }

bool is_inexact(const dtype& t) { return t.kind() == 'f' || t.kind() == 'c'; }

// Scans `a` (ndim >= 1) along `axis` into `r` (same shape, dtype acc; written in place).
void scan_into(const op_spec& op, std::size_t loop, const ndarray& a, std::int64_t axis, const ndarray& r, scan_map map) {
  const int device = r.device();
  const std::int64_t len = a.shape()[static_cast<std::size_t>(axis)];
  kept_dims kept;
  for (std::int64_t k = 0; k < a.ndim(); ++k) {
    if (k == axis) continue;
    kept.extent.push_back(a.shape()[static_cast<std::size_t>(k)]);
    kept.in.push_back(a.strides()[static_cast<std::size_t>(k)]);
    kept.out.push_back(r.strides()[static_cast<std::size_t>(k)]);
  }
  const std::int64_t lines = kept.size();
  kept = collapse(kept);
  if (kept.extent.size() > max_kept)
    throw ValueError("scan over an array whose layout needs more than 8 separate dimensions");
  const type_id acc = r.dtype().id();
  const auto in_item = static_cast<std::int64_t>(a.itemsize()), acc_item = static_cast<std::int64_t>(r.itemsize());
  const std::int64_t in_step = a.strides()[static_cast<std::size_t>(axis)];
  const std::int64_t out_step = r.strides()[static_cast<std::size_t>(axis)];
  detail::scan_desc desc;
  desc.loop = loop;
  desc.acc = acc;
  desc.in = a.dtype().id();
  desc.kept = static_cast<int>(kept.extent.size());
  desc.map = map;
  const bool rows = associative(op) && len > short_line && in_step == in_item && out_step == acc_item;
  // CUB (CUPP_ACCELERATORS=cub) for one contiguous line of an integer or bool accumulator.
  if (rows && lines == 1 && map == scan_map::cast && detail::accel::try_scan(op.name, a, r, len)) return;
  desc.layout = rows ? scan_class::rows : scan_class::lines;
  const std::string name = "scan:" + std::string(detail::cache_name(op));
  const detail::kernel_module& module = detail::kernel_cache::global().get(device, {name, detail::scan_variant(desc)}, [&] {
    const auto p = detail::compose_scan(op, desc);
    return detail::program_source{p.name, p.source, p.kernels, {}};
  });
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  const cupp::detail::launch_range range([&] {
    return std::string(op.name) + ".accumulate " + a.dtype().name() + "->" + r.dtype().name() + (rows ? " rows" : " lines");
  });
  const char* in = static_cast<const char*>(a.data());
  char* out = static_cast<char*>(r.data());
  dims_param dims(kept);
  long long n_lines = lines, n_len = len;
  if (!rows) {
    long long is = in_step, os = out_step;
    void* args[] = {&in, &out, &n_lines, &n_len, &is, &os, dims.v.data()};
    const std::int64_t blocks = (lines + scan_threads - 1) / scan_threads;
    launch(module.function(0), dim3(static_cast<unsigned>(std::min<std::int64_t>(blocks, 0x7fffffff))), args, stream);
    return;
  }
  // Rows: chunks of whole tiles, enough of them (with the lines) to fill the GPU; a line cut into
  // several chunks first gets its chunks' totals (cupp_scan_totals).
  const std::int64_t items = std::max<std::int64_t>(1, 32 / acc_item);  // cupp/dev/scan.cuh's scan_items
  const std::int64_t tile = scan_threads * items;
  const std::int64_t tiles = (len + tile - 1) / tile;
  // One full wave of the scan kernel (a second, partial wave would leave most SMs idle).
  const std::int64_t target = static_cast<std::int64_t>(engine::resident_blocks(module.function(0), scan_threads)) *
                              engine::sm_count(device);
  const std::int64_t wanted = std::clamp<std::int64_t>((target + lines - 1) / lines, 1, tiles);
  long long chunk_len = (tiles + wanted - 1) / wanted * tile;
  long long chunks = (len + chunk_len - 1) / chunk_len;
  ndarray partial;
  void* partial_arg = nullptr;
  if (chunks > 1) {
    const std::int64_t n_partial = lines * chunks;
    partial = engine::empty_with_strides(std::span<const std::int64_t>(&n_partial, 1),
                                         std::span<const std::int64_t>(&acc_item, 1), dtype(acc), device);
    partial_arg = partial.data();
    void* args[] = {&in, &n_lines, &chunks, &chunk_len, dims.v.data(), &partial_arg};
    launch(module.function(1), grid_of(lines * (chunks - 1)), args, stream);
  }
  void* args[] = {&in, &out, &n_lines, &n_len, &chunks, &chunk_len, dims.v.data(), &partial_arg};
  launch(module.function(0), grid_of(lines * chunks), args, stream);
}

// Writes `r` into out= (shape checked, same_kind cast) when one is given; returns the result.
ndarray to_out(const ndarray& r, const ndarray& out, std::string_view function) {
  if (out.is_null()) return r;
  if (!std::equal(out.shape().begin(), out.shape().end(), r.shape().begin(), r.shape().end()))
    throw ValueError(std::string(function) + ": output has the wrong shape " + layout::compact_string(out.shape()) +
                     " (expected " + layout::compact_string(r.shape()) + ")");
  copyto(out, r, casting::same_kind);
  return out;
}

// op.accumulate of `a0` along `axis` (none: flattened), elements mapped by `map` first.
ndarray accumulate_mapped(const op_spec& op, const ndarray& a0, std::optional<std::int64_t> axis,
                          const std::optional<dtype>& dtype_, const ndarray& out, scan_map map, std::string_view function) {
  if (a0.is_null()) throw ValueError(std::string(function) + ": the array is null");
  ndarray a = a0;
  std::int64_t ax = 0;
  if (!axis || a.ndim() == 0) {
    if (axis) normalize_axis(*axis, 1);
    a = a.ravel();
    if (a.ndim() == 0) a = a.reshape({1});
  } else {
    ax = normalize_axis(*axis, a.ndim());
  }
  const dtype result = dtype_ ? *dtype_ : !out.is_null() ? out.dtype() : engine::default_result(op, a.dtype());
  if (!result.is_builtin() || !a.dtype().is_builtin())
    throw TypeError(std::string(function) + ": cannot accumulate dtype " + a.dtype().name() + " to " + result.name());
  const std::size_t loop = engine::combining_loop(op, result.id(), "accumulate");
  const int device = a.device();
  detail::device_scope scope(device);
  const ndarray like[] = {a};
  ndarray r = engine::empty_in_order_of(a.shape(), like, result, device);
  if (r.size() > 0) {
    const std::int64_t len = a.shape()[static_cast<std::size_t>(ax)];
    const std::int64_t lines = a.size() / len;
    const bool strided_axis = a.strides()[static_cast<std::size_t>(ax)] != static_cast<std::int64_t>(a.itemsize());
    if (associative(op) && len > short_line && strided_axis && lines < 4096 && a.ndim() > 1) {
      // Few long lines across memory: a thread per line would walk them alone; scan a copy with
      // the axis last (contiguous lines) instead.
      const int last = a.ndim() - 1;
      const ndarray moved = ascontiguousarray(a.moveaxis(static_cast<int>(ax), last));
      const ndarray like2[] = {moved};
      const ndarray r2 = engine::empty_in_order_of(moved.shape(), like2, result, device);
      scan_into(op, loop, moved, last, r2, map);
      r = r2.moveaxis(last, static_cast<int>(ax));
    } else {
      scan_into(op, loop, a, ax, r, map);
    }
  }
  return to_out(r, out, function);
}

scan_map nan_map(const ndarray& a, scan_map m) { return !a.is_null() && is_inexact(a.dtype()) ? m : scan_map::cast; }

// NumPy's _cumulative_func: no axis only for 1-d input; include_initial prepends the identity.
ndarray cumulative(const ufunc& f, const ndarray& x0, const cumulative_options& o, std::string_view function) {
  if (x0.is_null()) throw ValueError(std::string(function) + ": the array is null");
  const ndarray x = x0.ndim() == 0 ? x0.reshape({1}) : x0;
  std::int64_t axis = 0;
  if (!o.axis) {
    if (x.ndim() >= 2)
      throw ValueError("For arrays which have more than one dimension ``axis`` argument is required.");
  } else {
    axis = normalize_axis(*o.axis, x.ndim());
  }
  if (!o.include_initial) return accumulate_mapped(f.spec(), x, axis, o.dtype, o.out, scan_map::cast, function);
  const ndarray res = accumulate_mapped(f.spec(), x, axis, o.dtype, ndarray(), scan_map::cast, function);
  shape_t initial(res.shape().begin(), res.shape().end());
  initial[static_cast<std::size_t>(axis)] = 1;
  const ndarray first = full(initial, weak_scalar(static_cast<std::int64_t>(f.name() == "add" ? 0 : 1)), res.dtype());
  const ndarray both[] = {first, res};
  const ndarray joined = concatenate(std::span<const ndarray>(both), {.axis = static_cast<int>(axis)});
  return to_out(joined, o.out, function);
}

std::vector<index_item> all_of(int ndim) { return std::vector<index_item>(static_cast<std::size_t>(ndim), slice()); }

}  // namespace

ndarray accumulate(const ufunc& f, const ndarray& a, const accumulate_options& options) {
  const std::string name = std::string(f.name()) + ".accumulate";
  if (!a.is_null() && a.ndim() == 0) throw TypeError("cannot accumulate on a scalar");
  return accumulate_mapped(f.spec(), a, options.axis, options.dtype, options.out, scan_map::cast, name);
}

// The folding scans (cumsum, nancumprod, cumulative_sum, ...: generated/src/folding_routines.cpp)
// are f.accumulate with their spec's rules.
ndarray engine::fold(const ufunc& f, const ndarray& a, const scan_options& o, const engine::fold_rules& rules) {
  const scan_map map = !rules.nan_as_identity ? scan_map::cast
                       : nan_map(a, f.name() == "add" ? scan_map::nan_to_zero : scan_map::nan_to_one);
  return accumulate_mapped(f.spec(), a, o.axis, o.dtype, o.out, map, rules.name);
}
ndarray engine::fold(const ufunc& f, const ndarray& x, const cumulative_options& o, const engine::fold_rules& rules) {
  return cumulative(f, x, o, rules.name);
}

ndarray diff(const ndarray& a0, const diff_options& o) {
  if (a0.is_null()) throw ValueError("diff: the array is null");
  if (o.n == 0) return a0;
  if (o.n < 0) throw ValueError("order must be non-negative but got " + std::to_string(o.n));
  if (a0.ndim() == 0) throw ValueError("diff requires input that is at least one dimensional");
  const int nd = a0.ndim();
  const auto axis = static_cast<std::size_t>(normalize_axis(o.axis, nd));
  ndarray a = a0;
  if (!o.prepend.is_null() || !o.append.is_null()) {
    auto side = [&](const ndarray& v) {
      if (v.ndim() != 0) return v;
      shape_t s(a0.shape().begin(), a0.shape().end());
      s[axis] = 1;
      return full(s, v);
    };
    std::vector<ndarray> parts;
    if (!o.prepend.is_null()) parts.push_back(side(o.prepend));
    parts.push_back(a0);
    if (!o.append.is_null()) parts.push_back(side(o.append));
    a = concatenate(std::span<const ndarray>(parts), {.axis = static_cast<int>(axis)});
  }
  std::vector<index_item> upper = all_of(nd), lower = all_of(nd);
  upper[axis] = slice(1, std::nullopt);
  lower[axis] = slice(std::nullopt, -1);
  const bool is_bool = a.dtype().id() == type_id::bool_;
  for (std::int64_t k = 0; k < o.n; ++k)
    a = is_bool ? not_equal(a.index(upper), a.index(lower)) : subtract(a.index(upper), a.index(lower));
  return a;
}

ndarray ediff1d(const ndarray& ary, const ediff1d_options& o) {
  if (ary.is_null()) throw ValueError("ediff1d: the array is null");
  const ndarray flat = ary.ravel();
  const dtype t = ary.dtype();
  auto edge = [&](const ndarray& v, const char* which) {
    if (!can_cast(v.dtype(), t, casting::same_kind))
      throw TypeError(std::string("dtype of `") + which + "` must be compatible with input `ary` under the `same_kind` rule.");
    return astype(v.ravel(), t);
  };
  const std::int64_t n = flat.size();
  const std::vector<index_item> upper{slice(std::min<std::int64_t>(1, n), std::nullopt)},
      lower{slice(std::nullopt, std::max<std::int64_t>(n - 1, 0))};
  const ndarray d = subtract(flat.index(upper), flat.index(lower));
  if (o.to_begin.is_null() && o.to_end.is_null()) return d;
  std::vector<ndarray> parts;
  if (!o.to_begin.is_null()) parts.push_back(edge(o.to_begin, "to_begin"));
  parts.push_back(d.dtype() == t ? d : astype(d, t));
  if (!o.to_end.is_null()) parts.push_back(edge(o.to_end, "to_end"));
  return concatenate(std::span<const ndarray>(parts), {.axis = 0});
}

}  // namespace cupp
