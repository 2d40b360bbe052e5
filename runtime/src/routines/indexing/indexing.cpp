// NumPy's indexing routines (cupp/indexing.hpp). One small NVRTC program per element word size
// (<cupp/dev/routines/indexing.cuh>: the kernels move bytes, so every dtype shares it), found in
// the kernel cache under the key
// ("indexing:move", word bytes). Data-dependent errors go through the program's error state, a
// __device__ array read at the end of a raising call when set: [0] set when an index was bad,
// [1] one bad index value, [2] ~(the first bad position) (atomicMax of the complement gives the
// minimum; 0 means none). A report also sets a word of mapped pinned host memory, so a call
// without bad indices learns so from its kernel's end signal alone, with no copy. The state and
// the word are zero between calls (they are cleared when read set), and the calls that may report
// take turns on them (compiler/report_word.hpp).
#include "cupp/indexing.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "accel/cub_dispatch.hpp"
#include "array/advanced_index.hpp"
#include "array/layout.hpp"
#include "compiler/launch.hpp"
#include "compiler/report_word.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {

namespace {

constexpr int geom_dims = 64;

// Mirrors cupp_geom in the program: a shape and three byte-stride sets over it.
struct geom {
  int ndim = 0;
  int pad = 0;
  long long shape[geom_dims] = {};
  long long s0[geom_dims] = {};
  long long s1[geom_dims] = {};
  long long s2[geom_dims] = {};
};

// The move program for word size w: its kernels are in the embedded header
// <cupp/dev/routines/indexing.cuh>, with W the word.
detail::routine_program make_program(int w) {
  std::string src = "#define CUPP_INDEXING_WORD " + std::to_string(w) + "\n";
  src += "#include <cupp/dev/routines/indexing.cuh>\n";
  return {"cupp_indexing_move",
          std::move(src),
          {"cupp_gather", "cupp_scatter_check", "cupp_scatter_win", "cupp_scatter_write", "cupp_putmask",
           "cupp_mask_count", "cupp_scan_counts", "cupp_mask_write", "cupp_unravel", "cupp_ravel_multi",
           "cupp_index_offsets", "cupp_gather_flat"}};
}

enum kernel_id {
  k_gather, k_check, k_win, k_write, k_putmask, k_count, k_scan, k_mask_write, k_unravel, k_ravel, k_offsets,
  k_gather_flat
};

// The program for word size w on `device`. Its report word is installed by the first
// call that may report (reporting_call); until then cupp_report finds the pointer null and
// skips the host word, so a launch that cannot report needs no install.
const detail::kernel_module& program_for(int w, int device) {
  return detail::routine_module(device, {"indexing:move", static_cast<std::uint64_t>(w)},
                                [&] { return make_program(w); });
}

// A call that may raise (compiler/report_word.hpp): its turn on the program's report channel and
// the end signal of its last launch; a default one (no check) passes nulls.
using raising_call = detail::reporting_call;
raising_call begin_raising(const detail::kernel_module& m, int device) {
  detail::device_scope scope(device);
  return raising_call(m, device, "cupp_index_flag");
}

// Waits for the raising kernels, the last launched with `call`'s signal; when one reported a bad
// index (the report word is set), reads and clears the error state and returns {value, first pos}.
std::optional<std::pair<std::int64_t, std::int64_t>> read_state(const detail::kernel_module& m, int device,
                                                                 raising_call& call) {
  detail::device_scope scope(device);
  const auto stream = cuda::detail::current_stream_handle(device);
  if (!call.wait(stream)) return std::nullopt;
  auto* state = static_cast<unsigned long long*>(m.global("cupp_index_state"));
  unsigned long long host[3] = {};
  cuda::detail::check(cudaMemcpyAsync(host, state, sizeof host, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  cuda::detail::check(cudaMemsetAsync(state, 0, sizeof host, stream), "cudaMemsetAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return std::make_pair(static_cast<std::int64_t>(host[1]), static_cast<std::int64_t>(~host[2]));
}

[[noreturn]] void throw_out_of_bounds(std::int64_t value, int axis, std::int64_t size) {
  throw IndexError("index " + std::to_string(value) + " is out of bounds for axis " + std::to_string(axis) +
                   " with size " + std::to_string(size));
}

int mode_int(clip_mode m) { return m == clip_mode::raise ? 0 : m == clip_mode::wrap ? 1 : 2; }

// The word size that divides the element, every address and every stride.
int word_bytes(std::size_t itemsize, std::initializer_list<std::int64_t> values) {
  std::uint64_t bits = itemsize;
  for (std::int64_t v : values) bits |= static_cast<std::uint64_t>(v);
  std::uint64_t w = bits & (~bits + 1);
  return static_cast<int>(std::min<std::uint64_t>(w, 16));
}
std::int64_t addr(const ndarray& a) { return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a.data())); }

void require_kernel_dtype(const dtype& type, std::string_view routine) {
  detail::require_not_structured(type, routine);
  if (!type.is_builtin())
    throw TypeError(std::string(routine) + ": dtype " + type.name() + " is not supported (a numeric or bool dtype is needed)");
}

void require_writeable(const ndarray& a, std::string_view routine) {
  if (!a.writeable()) throw ValueError(std::string(routine) + ": assignment destination is read-only");
}

// indices as int64 (a view when they already are). uint64_ok: NumPy 2 converts the indices with
// same_kind casting (take, take_along_axis, unravel_index, ravel_multi_index), so uint64 is
// accepted (values past int64's range wrap negative and fail the bounds check); put and choose
// keep the safe rule.
ndarray as_intp(const ndarray& idx, std::string_view routine, bool uint64_ok = false) {
  if (!(uint64_ok && idx.dtype() == uint64)) detail::require_index_dtype(idx.dtype(), routine);
  if (idx.dtype() == int64) return idx;
  return astype(idx, int64, casting::unsafe);
}

ndarray contiguous(const ndarray& a) { return a.is_c_contiguous() ? a : ascontiguousarray(a); }
ndarray flat_c(const ndarray& a) {
  const std::int64_t n = a.size();
  return contiguous(a).reshape(std::span<const std::int64_t>(&n, 1));
}

// The values of put/place/putmask: a flat contiguous array of `type` (unsafe cast).
ndarray flat_values(const operand& v, const dtype& type) {
  ndarray a = v.is_array() ? v.array() : scalar(v.scalar(), type);
  if (a.dtype() != type) a = astype(a, type, casting::unsafe);
  return flat_c(a);
}

void fill_geom(geom& g, std::span<const std::int64_t> shape) {
  if (shape.size() > geom_dims) throw ValueError("indexing: more than 64 dimensions");
  g.ndim = static_cast<int>(shape.size());
  for (std::size_t d = 0; d < shape.size(); ++d) g.shape[d] = shape[d];
}

// The gather: out (C-contiguous, g's shape) from src. Checks the state in mode raise; returns
// the bad {value, position} when one was found.
std::optional<std::pair<std::int64_t, std::int64_t>> gather(const ndarray& out, const ndarray& src, const ndarray& idx,
                                                            geom& g, std::int64_t axis_len, std::int64_t axis_stride,
                                                            int md, std::optional<std::int64_t> offset_bits = std::nullopt) {
  if (out.size() == 0) return std::nullopt;
  std::int64_t stride_bits = offset_bits ? *offset_bits : axis_stride;
  for (int d = 0; d < g.ndim; ++d) stride_bits |= g.s0[d];
  const int w = word_bytes(src.itemsize(), {addr(out), addr(src), stride_bits});
  int nw = static_cast<int>(src.itemsize()) / w;
  const detail::kernel_module& m = program_for(w, src.device());
  void* o = out.data();
  const void* s = src.data();
  const void* i = idx.data();
  long long total = out.size(), n = axis_len, as = axis_stride;
  const bool raising = md == 0 || md == 3;
  raising_call end = raising ? begin_raising(m, src.device()) : raising_call();
  if (nw == 1 && g.ndim == 1 && g.s0[0] == 0 && g.s1[0] == 8 && idx.itemsize() == 8) {
    void* args[] = {&o, &s, &i, &total, &n, &as, &md, end.counter_arg(), end.word_arg()};
    const std::int64_t blocks = std::min<std::int64_t>((total + 511) / 512, std::int64_t{1} << 30);
    detail::launch_1d(m.function(k_gather_flat), total, args, src.device(), blocks, 128);
  } else {
    void* args[] = {&o, &s, &i, &g, &total, &n, &as, &md, &nw, end.counter_arg(), end.word_arg()};
    detail::launch_1d(m.function(k_gather), total, args, src.device());
  }
  if (raising) return read_state(m, src.device(), end);
  return std::nullopt;
}

// The scatter into a C-contiguous dst: check (mode raise), winners (unless unique), write.
std::optional<std::pair<std::int64_t, std::int64_t>> scatter(const ndarray& dst, const ndarray& idx, const ndarray& vals,
                                                             geom& g, std::int64_t total, std::int64_t axis_len,
                                                             std::int64_t axis_stride, clip_mode mode,
                                                             std::int64_t nv, bool unique,
                                                             std::optional<std::int64_t> offset_bits = std::nullopt) {
  if (total == 0 || dst.size() == 0) return std::nullopt;
  std::int64_t stride_bits = offset_bits ? *offset_bits : axis_stride;
  for (int d = 0; d < g.ndim; ++d) stride_bits |= g.s0[d] | g.s2[d];
  const int w = word_bytes(dst.itemsize(), {addr(dst), addr(vals), stride_bits});
  int nw = static_cast<int>(dst.itemsize()) / w;
  const int device = dst.device();
  const detail::kernel_module& m = program_for(w, device);
  const void* i = idx.data();
  long long t = total, n = axis_len, as = axis_stride, nvv = nv;
  int md = mode_int(mode);
  const bool raising = mode == clip_mode::raise;
  raising_call none, end = raising ? begin_raising(m, device) : raising_call();  // ended by the write
  if (raising) {
    void* args[] = {&i, &g, &t, &n, &md, none.counter_arg(), none.word_arg()};
    detail::launch_1d(m.function(k_check), total, args, device);
  }
  ndarray win;
  const unsigned long long* wp = nullptr;
  if (!unique) {
    win = zeros({dst.size()}, uint64);
    void* wv = win.data();
    void* args[] = {&wv, &i, &g, &t, &n, &as, &md, &nw};
    detail::launch_1d(m.function(k_win), total, args, device);
    wp = static_cast<const unsigned long long*>(win.data());
  }
  void* d = dst.data();
  const void* v = vals.data();
  void* args[] = {&d, &v, &wp, &i, &g, &t, &n, &as, &md, &nw, &nvv, end.counter_arg(), end.word_arg()};
  detail::launch_1d(m.function(k_write), total, args, device);
  if (raising) return read_state(m, device, end);
  return std::nullopt;
}


// ---- stream compaction (flatnonzero, nonzero, argwhere, a[mask])

constexpr std::int64_t compact_tile = 8192;  // CUPP_CTILE

// A flat contiguous bool view of `mask` (nonzero = true), and its per-block ranks.
struct compaction {
  ndarray mask;
  ndarray offsets;  // blocks + 1 uint64: exclusive ranks, then the total
  std::int64_t blocks = 0, total = 0;
  int aligned = 0;
};

ndarray bool_flat(const ndarray& m) {
  require_kernel_dtype(m.dtype(), "nonzero");
  if (m.dtype().is_bool()) return flat_c(m);
  return flat_c(astype(m, bool_, casting::unsafe));
}

// Pass 1 and 2 on the device, then the one round trip that learns the total.
compaction count_true(const ndarray& mask, const detail::kernel_module& m, int device) {
  compaction c;
  c.mask = bool_flat(mask);
  const std::int64_t n = c.mask.size();
  if (n == 0) return c;
  c.blocks = (n + compact_tile - 1) / compact_tile;
  c.aligned = addr(c.mask) % 16 == 0 ? 1 : 0;
  c.offsets = empty({c.blocks + 1}, uint64);
  const void* mp = c.mask.data();
  long long nn = n, nb = c.blocks;
  void* op = c.offsets.data();
  {
    void* args[] = {&mp, &nn, &c.aligned, &op};
    detail::launch_1d(m.function(k_count), n, args, device, c.blocks);
  }
  {
    void* args[] = {&op, &nb};
    detail::launch_1d(m.function(k_scan), 1, args, device, 1, 1024);
  }
  detail::device_scope scope(device);
  const auto stream = cuda::detail::current_stream_handle(device);
  std::uint64_t total = 0;
  cuda::detail::check(cudaMemcpyAsync(&total, static_cast<const std::uint64_t*>(c.offsets.data()) + c.blocks, 8,
                                      cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  c.total = static_cast<std::int64_t>(total);
  return c;
}

// Pass 3: kind 0 coordinates (g: the shape to unravel by, 1-d for flat positions), kind 1 the
// elements of the contiguous `src`.
void write_true(const compaction& c, const detail::kernel_module& m, int device, int kind, void* out,
                const void* src, int nw, geom& g, std::int64_t row_stride, std::int64_t col_stride) {
  if (c.total == 0) return;
  const void* mp = c.mask.data();
  long long nn = c.mask.size(), rs = row_stride, cs = col_stride;
  const void* op = c.offsets.data();
  int aligned = c.aligned;
  void* args[] = {&mp, &nn, &aligned, &op, &kind, &out, &src, &nw, &g, &rs, &cs};
  detail::launch_1d(m.function(k_mask_write), nn, args, device, c.blocks);
}

enum class position_layout { flat, rows, columns };

// flatnonzero (flat: (count,)), nonzero (rows: (ndim, count)), argwhere (columns: (count, ndim)).
ndarray mask_positions(const ndarray& mask, position_layout layout_kind) {
  // CUB (CUPP_ACCELERATORS=cub) for flat positions (a 1-d mask's rows and columns are the same).
  if ((layout_kind == position_layout::flat || mask.ndim() == 1) && detail::accel::enabled()) {
    const ndarray p = detail::accel::flatnonzero(bool_flat(mask));
    if (layout_kind == position_layout::flat) return p;
    return layout_kind == position_layout::rows ? p.reshape({1, p.size()}) : p.reshape({p.size(), 1});
  }
  const int device = mask.device();
  const detail::kernel_module& m = program_for(8, device);
  const compaction c = count_true(mask, m, device);
  geom g;
  std::int64_t nd = 1;
  if (layout_kind == position_layout::flat) {
    g.ndim = 1;
    g.shape[0] = std::max<std::int64_t>(c.mask.size(), 1);
  } else {
    fill_geom(g, mask.shape());
    nd = mask.ndim();
  }
  ndarray out;
  std::int64_t rs = 0, cs = 1;
  if (layout_kind == position_layout::flat) {
    out = empty({c.total}, int64);
  } else if (layout_kind == position_layout::rows) {
    out = empty({nd, c.total}, int64);
    rs = c.total;
  } else {
    out = empty({c.total, nd}, int64);
    rs = 1;
    cs = nd;
  }
  if (out.size() > 0) write_true(c, m, device, 0, out.data(), nullptr, 1, g, rs, cs);
  return out;
}

// a[mask] for a mask of a's shape: the elements where it is true, in C order (a 1-d copy).
ndarray mask_select(const ndarray& a0, const ndarray& mask) {
  const ndarray a = flat_c(a0);
  if (detail::accel::can_select(a)) return detail::accel::mask_select(a, bool_flat(mask));  // CUB
  const int w = word_bytes(a.itemsize(), {addr(a)});
  const int device = a.device();
  const detail::kernel_module& m = program_for(w, device);
  const compaction c = count_true(mask, m, device);
  ndarray out = empty({c.total}, a.dtype());
  if (c.total == 0) return out;
  geom g;
  g.ndim = 1;
  g.shape[0] = 1;
  write_true(c, m, device, 1, out.data(), a.data(), static_cast<int>(a.itemsize()) / w, g, 0, 1);
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// detail

namespace detail {

void require_index_dtype(const dtype& type, std::string_view routine) {
  (void)routine;
  if (type.is_bool() || (type.is_integer() && type != uint64)) return;
  throw TypeError("Cannot cast array data from dtype('" + type.name() + "') to dtype('int64') according to the rule 'safe'");
}

shape_t take_shape(std::span<const std::int64_t> a_shape, std::span<const std::int64_t> indices_shape,
                   std::optional<int> axis) {
  shape_t out;
  if (!axis) {
    for (auto d : indices_shape) out.push_back(d);
    return out;
  }
  const int ax = layout::normalize_axis(*axis, static_cast<int>(a_shape.size()));
  for (int d = 0; d < ax; ++d) out.push_back(a_shape[d]);
  for (auto d : indices_shape) out.push_back(d);
  for (std::size_t d = ax + 1; d < a_shape.size(); ++d) out.push_back(a_shape[d]);
  return out;
}

routine_program indexing_kernel_program(int word) {
  if (word != 1 && word != 2 && word != 4 && word != 8 && word != 16)
    throw ValueError("indexing_kernel_program: word must be 1, 2, 4, 8 or 16");
  return make_program(word);
}

}  // namespace detail

clip_mode parse_clip_mode(std::string_view name) {
  if (name == "raise") return clip_mode::raise;
  if (name == "wrap") return clip_mode::wrap;
  if (name == "clip") return clip_mode::clip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap'");
}

// ---------------------------------------------------------------------------------------------
// take

namespace {

// message_axis: the axis an IndexError names (advanced indexing: the indexed array's axis, and
// an empty axis raises as any out of bounds index does).
ndarray take_impl(const ndarray& a0, const ndarray& indices, const take_options& options, const char* routine,
                  std::optional<int> message_axis = std::nullopt) {
  require_kernel_dtype(a0.dtype(), routine);
  const ndarray a = options.axis ? a0 : a0.reshape({-1});
  const int ax = options.axis ? layout::normalize_axis(*options.axis, a.ndim()) : 0;
  const ndarray idx = as_intp(indices, routine, true);
  const shape_t shape = detail::take_shape(a.shape(), idx.shape(), ax);
  const std::int64_t axis_len = a.shape(ax);
  if (!message_axis && layout::checked_size(shape) > 0 && axis_len == 0 && idx.size() > 0)
    throw IndexError("cannot do a non-empty take from an empty axes.");
  if (!options.out.is_null()) {
    const auto os = options.out.shape();
    if (!std::equal(os.begin(), os.end(), shape.begin(), shape.end()))
      throw ValueError("output array does not match result of ndarray.take");
    require_writeable(options.out, routine);
    if (!can_cast(a.dtype(), options.out.dtype(), casting::safe))
      throw TypeError("Cannot cast array data from dtype('" + a.dtype().name() + "') to dtype('" +
                      options.out.dtype().name() + "') according to the rule 'safe'");
  }
  // Direct into out when it is C-contiguous of a's dtype and not buffered (mode raise buffers).
  const bool direct = !options.out.is_null() && options.mode != clip_mode::raise && options.out.dtype() == a.dtype() &&
                      options.out.is_c_contiguous();
  ndarray result = direct ? options.out : empty(shape, a.dtype());
  geom g;
  fill_geom(g, shape);
  const int ni = idx.ndim();
  for (int d = 0; d < ax; ++d) g.s0[d] = a.stride(d);
  for (int d = 0; d < ni; ++d) g.s1[ax + d] = idx.stride(d);
  for (int d = ax + 1; d < a.ndim(); ++d) g.s0[ni + d - 1] = a.stride(d);
  if (const auto bad = gather(result, a, idx, g, axis_len, a.stride(ax), mode_int(options.mode)))
    throw_out_of_bounds(bad->first, message_axis.value_or(ax), axis_len);
  if (!options.out.is_null() && !direct) {
    copyto(options.out, result, casting::safe);
    return options.out;
  }
  return result;
}

}  // namespace

ndarray take(const ndarray& a, const ndarray& indices, const take_options& options) {
  return take_impl(a, indices, options, "take");
}

ndarray take(const ndarray& a, std::int64_t index, const take_options& options) {
  const ndarray idx = scalar(weak_scalar(index), int64);
  return take_impl(a, idx, options, "take");
}

// ---------------------------------------------------------------------------------------------
// take_along_axis, put, put_along_axis

namespace {

struct along {
  ndarray arr, idx;    // arr (flattened for axis None), int64 indices
  int axis = 0;
  shape_t shape;       // the broadcast index shape (the result's)
  shape_t arr_strides; // arr's strides broadcast over shape (0 on the axis)
};

along prepare_along(const ndarray& arr0, const ndarray& indices, std::optional<int> axis, const char* routine) {
  require_kernel_dtype(arr0.dtype(), routine);
  along p;
  if (!indices.dtype().is_integer()) throw IndexError("`indices` must be an integer array");
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    p.arr = arr0.reshape({-1});
    p.axis = 0;
  } else {
    p.arr = arr0;
    p.axis = layout::normalize_axis(*axis, arr0.ndim());
    if (indices.ndim() != arr0.ndim())
      throw ValueError("`indices` and `arr` must have the same number of dimensions");
  }
  p.idx = as_intp(indices, routine, true);
  // Broadcast off the axis.
  shape_t a_shape(p.arr.shape().begin(), p.arr.shape().end()), i_shape(p.idx.shape().begin(), p.idx.shape().end());
  a_shape[p.axis] = 1;
  i_shape[p.axis] = 1;
  shape_t b = broadcast_shapes({a_shape, i_shape});
  b[p.axis] = p.idx.shape(p.axis);
  p.shape = b;
  shape_t idx_target = b;
  p.idx = broadcast_to(p.idx, idx_target);
  shape_t arr_target = b;
  arr_target[p.axis] = p.arr.shape(p.axis);
  const ndarray ab = broadcast_to(p.arr, arr_target);
  p.arr_strides.assign(ab.strides().begin(), ab.strides().end());
  p.arr_strides[p.axis] = 0;
  return p;
}

}  // namespace

ndarray take_along_axis(const ndarray& arr, const ndarray& indices, std::optional<int> axis) {
  along p = prepare_along(arr, indices, axis, "take_along_axis");
  const std::int64_t axis_len = p.arr.shape(p.axis);
  ndarray result = empty(p.shape, p.arr.dtype());
  geom g;
  fill_geom(g, p.shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = p.arr_strides[d];
    g.s1[d] = p.idx.stride(d);
  }
  if (const auto bad = gather(result, p.arr, p.idx, g, axis_len, p.arr.stride(p.axis), 0))
    throw_out_of_bounds(bad->first, axis ? p.axis : 0, axis_len);
  return result;
}

void put(const ndarray& a, const ndarray& indices, const operand& values, clip_mode mode) {
  require_kernel_dtype(a.dtype(), "put");
  require_writeable(a, "put");
  const ndarray idx = flat_c(as_intp(indices, "put"));
  const ndarray vals = flat_values(values, a.dtype());
  if (idx.size() == 0 || vals.size() == 0) return;  // NumPy: nothing to do
  if (a.size() == 0) throw IndexError("cannot replace elements of an empty array");
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const ndarray work = flat_c(dst);
  geom g;
  fill_geom(g, idx.shape());
  g.s1[0] = idx.stride(0);
  const auto bad = scatter(work, idx, vals, g, idx.size(), a.size(), static_cast<std::int64_t>(a.itemsize()), mode,
                           vals.size(), false);
  if (bad) throw_out_of_bounds(bad->first, 0, a.size());
  if (!a.is_c_contiguous()) a.assign(dst);
}

void put_along_axis(const ndarray& arr, const ndarray& indices, const operand& values, std::optional<int> axis) {
  require_writeable(arr, "put_along_axis");
  const bool contiguous_arr = arr.is_c_contiguous();
  const ndarray dst = contiguous_arr ? arr : arr.copy();
  along p = prepare_along(dst, indices, axis, "put_along_axis");
  const std::int64_t axis_len = p.arr.shape(p.axis);
  const std::int64_t total = layout::checked_size(p.shape);
  if (total == 0) return;
  ndarray vals = values.is_array() ? values.array() : scalar(values.scalar(), dst.dtype());
  if (vals.dtype() != dst.dtype()) vals = astype(vals, dst.dtype(), casting::unsafe);
  vals = broadcast_to(vals, p.shape);
  geom g;
  fill_geom(g, p.shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = p.arr_strides[d];
    g.s1[d] = p.idx.stride(d);
    g.s2[d] = vals.stride(d);
  }
  if (axis_len == 0) throw_out_of_bounds(0, p.axis, 0);
  // Nothing is written when an index is bad (NumPy checks the whole index first).
  {
    const int device = dst.device();
    const detail::kernel_module& m = program_for(8, device);
    const void* i = p.idx.data();
    long long t = total, n = axis_len;
    int md = 0;
    raising_call end = begin_raising(m, device);
    void* args[] = {&i, &g, &t, &n, &md, end.counter_arg(), end.word_arg()};
    detail::launch_1d(m.function(k_check), total, args, device);
    if (const auto bad = read_state(m, device, end)) throw_out_of_bounds(bad->first, axis ? p.axis : 0, axis_len);
  }
  scatter(p.arr, p.idx, vals, g, total, axis_len, p.arr.stride(p.axis), clip_mode::wrap, 0, false);
  if (!contiguous_arr) arr.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// masks

ndarray flatnonzero(const ndarray& mask) { return mask_positions(mask, position_layout::flat); }

ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis, const ndarray& out) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  const ndarray pos = flatnonzero(condition);
  return take_impl(a, pos, {.axis = axis, .out = out, .mode = clip_mode::raise}, "compress");
}

ndarray extract(const ndarray& condition, const ndarray& arr) {
  const ndarray pos = flatnonzero(condition);
  return take_impl(arr, pos, {}, "extract");
}

void putmask(const ndarray& a, const ndarray& mask0, const operand& values) {
  require_kernel_dtype(a.dtype(), "putmask");
  require_writeable(a, "putmask");
  if (mask0.size() != a.size()) throw ValueError("putmask: mask and data must be the same size");
  const ndarray vals = flat_values(values, a.dtype());
  if (a.size() == 0) return;
  if (vals.size() == 0) return;  // NumPy: nothing happens with empty values
  const ndarray mask = flat_c(mask0.dtype().is_bool() ? mask0 : astype(mask0, bool_, casting::unsafe));
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const int w = word_bytes(a.itemsize(), {addr(dst), addr(vals)});
  int nw = static_cast<int>(a.itemsize()) / w;
  const detail::kernel_module& m = program_for(w, a.device());
  void* d = dst.data();
  const void* mp = mask.data();
  const void* v = vals.data();
  long long n = a.size(), nv = vals.size();
  void* args[] = {&d, &mp, &v, &n, &nv, &nw};
  detail::launch_1d(m.function(k_putmask), n, args, a.device());
  if (!a.is_c_contiguous()) a.assign(dst);
}

void place(const ndarray& arr, const ndarray& mask, const operand& vals0) {
  require_kernel_dtype(arr.dtype(), "place");
  require_writeable(arr, "place");
  if (mask.size() != arr.size()) throw ValueError("place: mask and data must be the same size");
  const ndarray vals = flat_values(vals0, arr.dtype());
  const ndarray pos = flatnonzero(mask);
  if (pos.size() == 0) return;
  if (vals.size() == 0) throw ValueError("Cannot insert from an empty array!");
  const ndarray dst = arr.is_c_contiguous() ? arr : arr.copy();
  geom g;
  fill_geom(g, pos.shape());
  g.s1[0] = 8;
  scatter(flat_c(dst), pos, vals, g, pos.size(), arr.size(), static_cast<std::int64_t>(arr.itemsize()),
          clip_mode::wrap, vals.size(), true);
  if (!arr.is_c_contiguous()) arr.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// choose, select

ndarray choose(const ndarray& a, std::span<const ndarray> choices, const ndarray& out, clip_mode mode) {
  if (choices.empty()) throw ValueError("0-length sequence.");
  detail::require_index_dtype(a.dtype(), "choose");
  std::vector<dtype> types;
  std::vector<shape_t> shapes{shape_t(a.shape().begin(), a.shape().end())};
  for (const ndarray& c : choices) {
    require_kernel_dtype(c.dtype(), "choose");
    types.push_back(c.dtype());
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  const dtype type = result_type(std::span<const dtype>(types));
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  if (!out.is_null()) {
    const auto os = out.shape();
    if (!std::equal(os.begin(), os.end(), shape.begin(), shape.end()))
      throw ValueError("choose: invalid shape for output array.");
    require_writeable(out, "choose");
  }
  // The choices broadcast and stacked: (n, *shape), C-contiguous.
  std::vector<ndarray> views;
  for (const ndarray& c : choices) views.push_back(broadcast_to(c, shape));
  const ndarray stacked = stack(std::span<const ndarray>(views), {.axis = 0, .dtype = type});
  const ndarray idx = broadcast_to(as_intp(a, "choose"), shape);
  ndarray result = empty(shape, type);
  geom g;
  fill_geom(g, shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = stacked.stride(d + 1);
    g.s1[d] = idx.stride(d);
  }
  const std::int64_t n = static_cast<std::int64_t>(choices.size());
  if (gather(result, stacked, idx, g, n, stacked.stride(0), mode == clip_mode::raise ? 3 : mode_int(mode))) {
    throw ValueError("invalid entry in choice array");
  }
  if (!out.is_null()) {
    copyto(out, result, casting::same_kind);
    return out;
  }
  return result;
}

ndarray choose(const ndarray& a, std::initializer_list<ndarray> choices, const ndarray& out, clip_mode mode) {
  return choose(a, std::span<const ndarray>(choices.begin(), choices.size()), out, mode);
}

ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const weak_scalar& default_value) {
  if (condlist.size() != choicelist.size())
    throw ValueError("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw ValueError("select with an empty condition list is not possible");
  std::vector<dtype> types;
  std::vector<shape_t> shapes;
  for (const ndarray& c : choicelist) {
    types.push_back(c.dtype());
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  const weak_scalar dv[] = {default_value};
  const dtype type = result_type(std::span<const dtype>(types), std::span<const weak_scalar>(dv));
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    if (!condlist[i].dtype().is_bool())
      throw TypeError("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
    shapes.emplace_back(condlist[i].shape().begin(), condlist[i].shape().end());
  }
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  ndarray result = full(shape, default_value, type);
  for (std::size_t i = condlist.size(); i-- > 0;)
    copyto(result, choicelist[i], casting::unsafe, broadcast_to(condlist[i], shape));
  return result;
}

// ---------------------------------------------------------------------------------------------
// fill_diagonal

void fill_diagonal(const ndarray& a, const operand& val, bool wrap) {
  if (a.ndim() < 2) throw ValueError("array must be at least 2-d");
  require_writeable(a, "fill_diagonal");
  std::int64_t step = 0, end = a.size();
  if (a.ndim() == 2) {
    step = a.shape(1) + 1;
    if (!wrap) end = std::min(a.size(), a.shape(1) * a.shape(1));
  } else {
    for (int d = 1; d < a.ndim(); ++d)
      if (a.shape(d) != a.shape(0)) throw ValueError("All dimensions of input must be of equal length");
    std::int64_t acc = 1, sum = 0;
    for (int d = 0; d + 1 < a.ndim(); ++d) {
      acc *= a.shape(d);
      sum += acc;
    }
    step = 1 + sum;
    (void)sum;
  }
  if (a.size() == 0) return;
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const ndarray diag = flat_c(dst)(slice(0, end, step));
  if (!val.is_array()) {
    diag.fill(val.scalar());
  } else {
    // NumPy's flat assignment repeats the values.
    const ndarray v = flat_values(val, a.dtype());
    if (v.size() == 0) return;
    const ndarray pos = arange(diag.size());
    diag.assign(take(v, pos, {.mode = clip_mode::wrap}));
  }
  if (!a.is_c_contiguous()) a.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// unravel_index, ravel_multi_index, ix_

std::vector<ndarray> unravel_index(const ndarray& indices, std::span<const std::int64_t> shape, order memory_order) {
  if (!indices.dtype().is_integer() && !indices.dtype().is_bool())
    throw TypeError("only int indices permitted");
  if (memory_order != order::C && memory_order != order::F) throw ValueError("only 'C' or 'F' order is permitted");
  for (auto d : shape)
    if (d < 0) throw ValueError("dimensions must be non-negative");
  const std::int64_t size = layout::checked_size(shape);
  const ndarray idx = flat_c(as_intp(indices, "unravel_index", true));
  const std::int64_t n = idx.size(), nd = static_cast<std::int64_t>(shape.size());
  ndarray out = empty({nd, n}, int64);
  if (n > 0 && nd > 0) {
    geom g;
    fill_geom(g, shape);
    const detail::kernel_module& m = program_for(8, idx.device());
    const void* ip = idx.data();
    long long nn = n, sz = size;
    int ord = memory_order == order::C ? 0 : 1;
    void* op = out.data();
    raising_call end = begin_raising(m, idx.device());
    void* args[] = {&ip, &nn, &sz, &g, &ord, &op, end.counter_arg(), end.word_arg()};
    detail::launch_1d(m.function(k_unravel), n, args, idx.device());
    if (const auto bad = read_state(m, idx.device(), end))
      throw ValueError("index " + std::to_string(bad->first) + " is out of bounds for array with size " +
                       std::to_string(size));
  } else if (n > 0) {
    // shape (): every index but 0 is out of bounds... NumPy: size 1, index 0 -> empty tuple.
  }
  std::vector<ndarray> result;
  for (std::int64_t d = 0; d < nd; ++d) result.push_back(out(d).reshape(indices.shape()));
  return result;
}

std::vector<ndarray> unravel_index(const ndarray& indices, std::initializer_list<std::int64_t> shape,
                                   order memory_order) {
  return unravel_index(indices, std::span<const std::int64_t>(shape.begin(), shape.size()), memory_order);
}

ndarray ravel_multi_index(std::span<const ndarray> multi_index, std::span<const std::int64_t> dims,
                          std::span<const clip_mode> modes, order memory_order) {
  const std::size_t nd = dims.size();
  if (multi_index.size() != nd)
    throw ValueError("parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (!modes.empty() && modes.size() != 1 && modes.size() != nd)
    throw ValueError("mode must be a single mode or a sequence of length " + std::to_string(nd));
  if (memory_order != order::C && memory_order != order::F) throw ValueError("only 'C' or 'F' order is permitted");
  if (nd > geom_dims) throw ValueError("ravel_multi_index: more than 64 dimensions");
  geom g;
  fill_geom(g, dims);
  // Multipliers.
  __extension__ typedef __int128 int128;
  int128 s = 1;
  for (std::size_t j = 0; j < nd; ++j) {
    const std::size_t d = memory_order == order::C ? nd - 1 - j : j;
    if (dims[d] < 0) throw ValueError("dimensions must be non-negative");
    g.s0[d] = static_cast<long long>(s);
    s *= dims[d];
    if (s > static_cast<int128>(std::numeric_limits<std::int64_t>::max()))
      throw ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.");
  }
  for (std::size_t d = 0; d < nd; ++d) {
    const clip_mode m = modes.empty() ? clip_mode::raise : modes[modes.size() == 1 ? 0 : d];
    g.s1[d] = m == clip_mode::raise ? 3 : mode_int(m);
    if (m != clip_mode::raise && dims[d] == 0)
      throw ValueError("cannot unravel if shape has zero entries (is empty).");
  }
  std::vector<shape_t> shapes;
  for (const ndarray& c : multi_index) {
    if (!c.dtype().is_integer() && !c.dtype().is_bool())
      throw TypeError("Cannot cast array data from dtype('" + c.dtype().name() +
                      "') to dtype('int64') according to the rule 'safe'");
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  if (nd == 0) throw ValueError("parameter multi_index must be a sequence of length 0");
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  std::vector<ndarray> views;
  for (const ndarray& c : multi_index) views.push_back(broadcast_to(as_intp(c, "ravel_multi_index", true), shape));
  const ndarray coords = stack(std::span<const ndarray>(views), {.axis = 0, .dtype = int64});
  ndarray out = empty(shape, int64);
  const std::int64_t n = out.size();
  if (n == 0) return out;
  const detail::kernel_module& m = program_for(8, out.device());
  const void* cp = coords.data();
  long long nn = n;
  void* op = out.data();
  const bool any_raise = std::any_of(&g.s1[0], &g.s1[nd], [](long long v) { return v == 3; });
  raising_call end = any_raise ? begin_raising(m, out.device()) : raising_call();
  void* args[] = {&cp, &nn, &g, &op, end.counter_arg(), end.word_arg()};
  detail::launch_1d(m.function(k_ravel), n, args, out.device());
  if (any_raise && read_state(m, out.device(), end)) throw ValueError("invalid entry in coordinates array");
  return out;
}

std::vector<ndarray> ix_(std::span<const ndarray> args) {
  std::vector<ndarray> out;
  const std::int64_t nd = static_cast<std::int64_t>(args.size());
  for (std::int64_t k = 0; k < nd; ++k) {
    ndarray a = args[k];
    if (a.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (!a.dtype().is_integer() && !a.dtype().is_bool())
      throw ValueError("arrays used as indices must be of integer (or boolean) type");
    if (a.dtype().is_bool()) a = flatnonzero(a);
    shape_t shape(static_cast<std::size_t>(nd), 1);
    shape[k] = a.size();
    out.push_back(a.reshape(shape));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// nonzero, argwhere

std::vector<ndarray> nonzero(const ndarray& a) {
  if (a.is_null()) throw ValueError("nonzero: the ndarray is a null handle (default-constructed)");
  if (a.ndim() == 0)
    throw ValueError(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. If the context of "
        "this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  const ndarray rows = mask_positions(a, position_layout::rows);
  std::vector<ndarray> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows(d));
  return out;
}

ndarray argwhere(const ndarray& a) {
  if (a.is_null()) throw ValueError("argwhere: the ndarray is a null handle (default-constructed)");
  if (a.ndim() == 0) {
    require_kernel_dtype(a.dtype(), "argwhere");
    const bool truth = astype(a, bool_, casting::unsafe).item<bool>();
    return empty({truth ? 1 : 0, 0}, int64);
  }
  return mask_positions(a, position_layout::columns);
}

// ---------------------------------------------------------------------------------------------
// advanced indexing: getitem, setitem, ufunc.at

namespace {

using detail::index_term;

// The items described for the planner, with the device arrays they index with.
struct prepared_items {
  std::vector<index_term> terms;
  std::vector<ndarray> arrays;  // per item: the int64 index array, or a mask's nonzero rows (k, count)
};

prepared_items prepare_items(std::span<const array_index_item> items) {
  prepared_items p;
  for (const array_index_item& item : items) {
    index_term t;
    ndarray arr;
    if (const auto* i = std::get_if<std::int64_t>(&item)) {
      t.kind = index_term::integer;
      t.value = *i;
    } else if (const auto* s = std::get_if<slice>(&item)) {
      t.kind = index_term::range;
      t.range_value = *s;
    } else if (std::holds_alternative<newaxis_t>(item)) {
      t.kind = index_term::new_axis;
    } else if (std::holds_alternative<ellipsis_t>(item)) {
      t.kind = index_term::dots;
    } else if (const bool* b = std::get_if<bool>(&item)) {
      t.kind = index_term::bool_scalar;
      t.value = *b ? 1 : 0;
    } else {
      const ndarray& x = std::get<ndarray>(item);
      if (x.is_null()) throw ValueError("index: an index array is a null handle (default-constructed)");
      if (x.dtype().is_bool()) {
        if (x.ndim() == 0) {
          t.kind = index_term::bool_scalar;
          t.value = x.item<bool>() ? 1 : 0;
        } else {
          t.kind = index_term::bool_array;
          t.shape.assign(x.shape().begin(), x.shape().end());
          arr = x;
        }
      } else if (x.dtype().is_integer()) {
        if (x.ndim() == 0) {
          t.kind = index_term::integer;
          t.value = x.item<std::int64_t>();
        } else {
          t.kind = index_term::int_array;
          t.shape.assign(x.shape().begin(), x.shape().end());
          arr = x.dtype() == int64 ? x : astype(x, int64, casting::unsafe);
        }
      } else {
        throw IndexError("arrays used as indices must be of integer (or boolean) type");
      }
    }
    p.terms.push_back(std::move(t));
    p.arrays.push_back(std::move(arr));
  }
  return p;
}

// Each mask's nonzero rows (one compaction per mask) and its true count.
void compute_mask_rows(prepared_items& p) {
  for (std::size_t i = 0; i < p.terms.size(); ++i) {
    if (p.terms[i].kind != index_term::bool_array) continue;
    p.arrays[i] = mask_positions(p.arrays[i], position_layout::rows);
    p.terms[i].count = p.arrays[i].shape(1);
  }
}

detail::index_plan plan_items(const ndarray& a, prepared_items& p) {
  detail::plan_index(a.shape(), p.terms, /*check_only=*/true);  // errors before any device work
  compute_mask_rows(p);
  return detail::plan_index(a.shape(), p.terms);
}

// a(mask) with a mask of a's whole shape: validated as the planner would (its shape messages).
const ndarray* whole_mask(const ndarray& a, std::span<const array_index_item> items) {
  if (items.size() != 1 || a.ndim() == 0) return nullptr;
  const ndarray* m = std::get_if<ndarray>(&items[0]);
  if (m == nullptr || m->is_null() || !m->dtype().is_bool() || m->ndim() != a.ndim()) return nullptr;
  index_term t;
  t.kind = index_term::bool_array;
  t.shape.assign(m->shape().begin(), m->shape().end());
  detail::plan_index(a.shape(), std::span<const index_term>(&t, 1));
  return m;
}

[[noreturn]] void throw_first_bad(const detail::index_plan& plan, const prepared_items& p, const ndarray& v) {
  // NumPy checks the index arrays one after another: the first bad value of the first bad array.
  for (const detail::advanced_axis& ax : plan.axes) {
    if (p.terms[ax.term].kind != index_term::int_array) continue;
    const std::int64_t n = v.shape(ax.view_axis);
    for (const std::int64_t x : p.arrays[ax.term].to_vector<std::int64_t>())
      if (x < -n || x >= n) throw_out_of_bounds(x, ax.array_axis, n);
  }
  throw IndexError("index out of bounds");
}

// The byte offsets (int64, C-contiguous over plan.broadcast) the advanced indices select in the
// basic view v, plus `base`. Bounds are checked first (IndexError; nothing is written). `bits`
// gets every stride and constant the offsets are made of (for the word size).
ndarray advanced_offsets(const detail::index_plan& plan, const prepared_items& p, const ndarray& v,
                         std::int64_t base, std::int64_t& bits) {
  const shape_t& b_shape = plan.broadcast;
  const std::int64_t total = layout::checked_size(b_shape);
  std::int64_t init = base;
  bits = base;
  std::vector<const detail::advanced_axis*> arrays;
  for (const detail::advanced_axis& ax : plan.axes) {
    const index_term& t = p.terms[ax.term];
    if (t.kind == index_term::bool_scalar) continue;
    bits |= v.stride(ax.view_axis);
    if (t.kind == index_term::integer) {
      const std::int64_t n = v.shape(ax.view_axis);
      init += (t.value < 0 ? t.value + n : t.value) * v.stride(ax.view_axis);
    } else {
      arrays.push_back(&ax);
    }
  }
  bits |= init;
  ndarray off = empty(b_shape, int64);
  if (total == 0) return off;
  if (arrays.empty()) {
    off.fill(weak_scalar(init));
    return off;
  }
  const int device = v.device();
  const detail::kernel_module& m = program_for(8, device);
  const bool checked = std::any_of(arrays.begin(), arrays.end(), [&](const detail::advanced_axis* ax) {
    return p.terms[ax->term].kind == index_term::int_array;
  });
  raising_call none, end = checked ? begin_raising(m, device) : raising_call();  // ended by the last launch
  for (std::size_t j = 0; j < arrays.size(); ++j) {
    const detail::advanced_axis& ax = *arrays[j];
    const index_term& t = p.terms[ax.term];
    const ndarray idx = t.kind == index_term::int_array ? p.arrays[ax.term] : p.arrays[ax.term](ax.dim);
    const ndarray bi = broadcast_to(idx, b_shape);
    geom g;
    fill_geom(g, b_shape);
    for (int d = 0; d < g.ndim; ++d) g.s1[d] = bi.stride(d);
    int md = t.kind == index_term::int_array ? 0 : 4;
    raising_call& e = j + 1 == arrays.size() ? end : none;
    long long tot = total, n = v.shape(ax.view_axis), st = v.stride(ax.view_axis), in = init;
    int acc = j > 0 ? 1 : 0;
    void* op = off.data();
    const void* ip = bi.data();
    void* args[] = {&op, &ip, &g, &tot, &n, &st, &md, &in, &acc, e.counter_arg(), e.word_arg()};
    detail::launch_1d(m.function(k_offsets), total, args, device);
  }
  if (checked && read_state(m, device, end)) throw_first_bad(plan, p, v);
  return off;
}

// The result's dims: s0 = the basic view's strides on the dims it keeps, s1 = the offsets'
// strides on the broadcast dims.
void map_result_dims(const detail::index_plan& plan, const ndarray& v, const ndarray& off, geom& g) {
  std::vector<int> rest;
  for (int d = 0; d < v.ndim(); ++d) {
    const bool indexed = std::any_of(plan.axes.begin(), plan.axes.end(),
                                     [&](const detail::advanced_axis& a) { return a.view_axis == d; });
    if (!indexed) rest.push_back(d);
  }
  fill_geom(g, plan.result_shape);
  const int nb = static_cast<int>(plan.broadcast.size()), at = plan.insert_at;
  for (int d = 0; d < g.ndim; ++d) {
    if (d >= at && d < at + nb) {
      g.s1[d] = off.stride(d - at);
    } else {
      g.s0[d] = v.stride(rest[d < at ? d : d - nb]);
    }
  }
}

// Writes vals (C-contiguous over g's shape, or nv > 0 elements repeated) at the positions
// o0 + off into the C-contiguous dst; duplicates: the last position in C order wins.
void scatter_offsets(const ndarray& dst, const ndarray& off, const ndarray& vals, geom& g, std::int64_t nv,
                     std::int64_t bits) {
  std::int64_t total = 1;
  for (int d = 0; d < g.ndim; ++d) total *= g.shape[d];
  if (total == 0 || dst.size() == 0) return;
  for (int d = 0; d < g.ndim; ++d) bits |= g.s0[d] | g.s2[d];
  const int w = word_bytes(dst.itemsize(), {addr(dst), addr(vals), bits});
  int nw = static_cast<int>(dst.itemsize()) / w;
  const int device = dst.device();
  const detail::kernel_module& m = program_for(w, device);
  const void* i = off.data();
  long long t = total, n = 1, as = 1, nvv = nv;
  int md = 4;
  const ndarray win = zeros({dst.size()}, uint64);
  void* wv = win.data();
  {
    void* args[] = {&wv, &i, &g, &t, &n, &as, &md, &nw};
    detail::launch_1d(m.function(k_win), total, args, device);
  }
  const unsigned long long* wp = static_cast<const unsigned long long*>(win.data());
  void* d = dst.data();
  const void* v = vals.data();
  unsigned* no_signal = nullptr;
  void* args[] = {&d, &v, &wp, &i, &g, &t, &n, &as, &md, &nw, &nvv, &no_signal, &no_signal};
  detail::launch_1d(m.function(k_write), total, args, device);
}

// values broadcast to `shape` as NumPy's setitem does (extra leading length-1 dims dropped).
ndarray strip_leading_ones(ndarray v, std::size_t ndim) {
  while (static_cast<std::size_t>(v.ndim()) > ndim && v.shape(0) == 1) v = v(0);
  return v;
}

[[noreturn]] void throw_cast(const dtype& from, const dtype& to, const char* rule) {
  throw TypeError("Cannot cast array data from dtype('" + from.name() + "') to dtype('" + to.name() +
                  "') according to the rule '" + rule + "'");
}

// The shared part of setitem and ufunc.at: the working array (a, or a C-order copy written back at
// the end), the basic view, and the checked offsets.
struct write_target {
  ndarray work, view, off;
  detail::index_plan plan;
  prepared_items items;
  std::int64_t bits = 0;
};

write_target prepare_write(const ndarray& a, std::span<const array_index_item> items, const char* routine) {
  write_target t;
  t.items = prepare_items(items);
  t.plan = plan_items(a, t.items);
  if (!t.plan.advanced) return t;
  require_kernel_dtype(a.dtype(), routine);
  t.work = a.is_c_contiguous() ? a : a.copy();
  t.view = t.work.index(t.plan.basic);
  t.off = advanced_offsets(t.plan, t.items, t.view, t.view.offset() - t.work.offset(), t.bits);
  return t;
}

void setitem_impl(const ndarray& a, std::span<const array_index_item> items, const ndarray* values,
                  const weak_scalar* value) {
  if (a.is_null()) throw ValueError("assignment: the ndarray is a null handle (default-constructed)");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (values && !can_cast(values->dtype(), a.dtype(), casting::same_kind))
    throw_cast(values->dtype(), a.dtype(), "same_kind");
  // a(mask) = scalar over a contiguous a: one putmask pass.
  if (const ndarray* m = whole_mask(a, items);
      m && a.is_c_contiguous() && (value || (values->size() == 1 && values->ndim() <= 1))) {
    const ndarray one = value ? scalar(*value, a.dtype()) : values->copy();  // it may be one of a's elements
    putmask(a, *m, one);
    return;
  }
  write_target t = prepare_write(a, items, "assignment");
  if (!t.plan.advanced) {
    const ndarray v = a.index(t.plan.basic);
    if (value) v.fill(*value);
    else v.assign(*values);
    return;
  }
  const shape_t& r = t.plan.result_shape;
  if (layout::checked_size(r) == 0) return;
  ndarray vals;
  std::int64_t nv = 0;
  if (value) {
    vals = scalar(*value, a.dtype()).reshape({1});
    nv = 1;
  } else {
    const ndarray src = strip_leading_ones(*values, r.size());
    if (src.size() == 1 && src.dtype() == a.dtype() && static_cast<std::size_t>(src.ndim()) <= r.size()) {
      vals = flat_c(src).copy();  // it may be one of the elements written
      nv = 1;
    } else {
      vals = empty(r, a.dtype());
      copyto(vals, src, casting::same_kind);
    }
  }
  geom g;
  map_result_dims(t.plan, t.view, t.off, g);
  if (nv == 0)
    for (int d = 0; d < g.ndim; ++d) g.s2[d] = vals.stride(d);
  scatter_offsets(t.work, t.off, vals, g, nv, t.bits);
  if (!a.is_c_contiguous()) a.assign(t.work);
}

// ---- ufunc.at with atomics: one NVRTC program per (op, dtype).
//
// Every op below on every dtype it has a form for updates each element with one atomic read-modify-
// write, so repeated indices accumulate as NumPy's unbuffered loop does. Native atomics where the
// hardware has them (atomicAdd on int32/uint32/int64/uint64/float32/float64 and on the parts of a
// complex number; atomicMin/atomicMax and atomicAnd/Or/Xor on 32- and 64-bit integers); otherwise
// a compare-and-swap loop that computes the op as NumPy's loop does: on the element's own word (4
// or 8 bytes), or for 1- and 2-byte dtypes on the aligned 32-bit word that holds the element,
// replacing only its bytes. Integer results are NumPy's whatever the order (wrapping arithmetic,
// min, max and the bitwise ops are associative and commutative). float16 and bfloat16 compute in
// float32 and round once per update (NumPy's loops); float additions happen in an unspecified order.

struct at_op {
  const char* name;
  const char* expr;      // of the current value a and the operand b (integers: in W, unsigned)
  const char* float_expr;
  bool ints_only;
};
constexpr at_op at_ops[] = {
    {"add", "(W)a + (W)b", "a + b", false},
    {"subtract", "(W)a - (W)b", "a - b", false},
    {"multiply", "(W)a * (W)b", "a * b", false},
    {"minimum", "(a < b ? a : b)", "(a != a ? a : (b != b ? b : (a < b ? a : b)))", false},
    {"maximum", "(a > b ? a : b)", "(a != a ? a : (b != b ? b : (a > b ? a : b)))", false},
    {"fmin", "(a < b ? a : b)", "(b != b ? a : (a != a ? b : (a < b ? a : b)))", false},
    {"fmax", "(a > b ? a : b)", "(b != b ? a : (a != a ? b : (a > b ? a : b)))", false},
    {"bitwise_and", "(a & b)", "", true},
    {"bitwise_or", "(a | b)", "", true},
    {"bitwise_xor", "(a ^ b)", "", true},
};

const at_op* find_at_op(std::string_view name) {
  for (const at_op& o : at_ops)
    if (name == o.name) return &o;
  return nullptr;
}

// The element type the program names for a dtype; null for none (bool, structured).
const char* at_type(const dtype& t) {
  switch (t.id()) {
    case type_id::int8: return "signed char";
    case type_id::uint8: return "unsigned char";
    case type_id::int16: return "short";
    case type_id::uint16: return "unsigned short";
    case type_id::int32: return "int";
    case type_id::uint32: return "unsigned int";
    case type_id::int64: return "long long";
    case type_id::uint64: return "unsigned long long";
    case type_id::float16: return "__half";
    case type_id::bfloat16: return "__nv_bfloat16";
    case type_id::float32: return "float";
    case type_id::float64: return "double";
    case type_id::complex64: return "cupp::dev::complex<float>";
    case type_id::complex128: return "cupp::dev::complex<double>";
    default: return nullptr;
  }
}

// Whether (op, dtype) has an atomic form: every op on the integers, every op but the bitwise ones
// on the real floats, add and subtract on complex (a native atomicAdd per part), and multiply on
// complex64 (a 64-bit compare-and-swap; complex128 needs 16 bytes: rounds).
bool at_supported(const at_op& o, const dtype& t) {
  if (at_type(t) == nullptr) return false;
  if (o.ints_only && !t.is_integer()) return false;
  if (t.is_complex()) {
    const std::string_view n = o.name;
    return n == "add" || n == "subtract" || (n == "multiply" && t.id() == type_id::complex64);
  }
  return true;
}

}  // namespace

namespace detail {

routine_program ufunc_at_program(std::string_view op, const dtype& type) {
  const at_op* found = find_at_op(op);
  if (found == nullptr || !at_supported(*found, type))
    throw ValueError("ufunc_at_program: no atomic form for " + std::string(op) + " on " + type.name());
  const std::string_view name = found->name;
  const bool is_int = type.is_integer();
  const bool is_half = type.id() == type_id::float16 || type.id() == type_id::bfloat16;
  const bool is_complex = type.is_complex();
  const std::size_t size = type.itemsize();
  const bool add_like = name == "add" || name == "subtract";
  const bool min_max = name == "minimum" || name == "maximum" || name == "fmin" || name == "fmax";
  std::string src;
  if (is_half || is_complex) src += "#include <cupp/dev/prelude.cuh>\n";
  src += "using T = " + std::string(at_type(type)) + ";\n";
  // W: the integers' arithmetic type (unsigned, so overflow wraps as NumPy's does, with no UB).
  src += std::string("using W = ") + (size == 8 ? "unsigned long long" : "unsigned int") + ";\n";
  // The op on values (what one update computes).
  std::string expr;
  if (is_half) {
    src += "#define CUPP_AT_HALF 1\n";
    expr = found->float_expr;
  } else if (is_complex) {
    src += "#define CUPP_AT_COMPLEX 1\n";
    expr = name == "add" ? "a + b" : name == "subtract" ? "a - b" : "a * b";
  } else {
    expr = is_int ? found->expr : found->float_expr;
  }
  src += "#define CUPP_AT_EXPR " + expr + "\n";
  // The form of the update.
  const bool native_int = is_int && size >= 4;
  const bool int64_bits = type.id() == type_id::int64;  // its native atomics take unsigned long long
  if (is_complex && add_like) {
    src += "#define CUPP_AT_COMPLEX_PARTS 1\n";
    if (name == "subtract") src += "#define CUPP_AT_SUBTRACT 1\n";
  } else if (add_like && (native_int || type.id() == type_id::float32 || type.id() == type_id::float64)) {
    src += "#define CUPP_AT_NATIVE_ADD 1\n";
    if (name == "subtract") src += "#define CUPP_AT_SUBTRACT 1\n";
    if (is_int) src += "#define CUPP_AT_INTEGER 1\n";
    if (int64_bits) src += "#define CUPP_AT_INT64 1\n";
  } else if (native_int && min_max) {
    const bool is_min = name == "minimum" || name == "fmin";
    src += std::string("#define CUPP_AT_NATIVE_MINMAX 1\n#define CUPP_AT_ATOMIC ") +
           (is_min ? "atomicMin" : "atomicMax") + "\n";
  } else if (native_int && found->ints_only) {
    const char* f = name == "bitwise_and" ? "atomicAnd" : name == "bitwise_or" ? "atomicOr" : "atomicXor";
    src += std::string("#define CUPP_AT_NATIVE_BITWISE 1\n#define CUPP_AT_ATOMIC ") + f + "\n";
    if (int64_bits) src += "#define CUPP_AT_INT64 1\n";
  } else if (size >= 4) {
    src += "#define CUPP_AT_CAS_WORD 1\n#define CUPP_AT_WORD " + std::to_string(size) + "\n";
  } else {
    src += "#define CUPP_AT_CAS_SUBWORD 1\n#define CUPP_AT_SIZE " + std::to_string(size) + "\n";
  }
  src += "#include <cupp/dev/routines/ufunc_at.cuh>\n";
  return {"cupp_ufunc_at", std::move(src), {"cupp_ufunc_at"}};
}

}  // namespace detail

namespace {

bool has_atomic_form(const ufunc& f, const ndarray& a, const operand& b) {
  const at_op* found = find_at_op(f.name());
  if (found == nullptr || !at_supported(*found, a.dtype())) return false;
  const operand ins[] = {operand(a), operand::borrow(b)};
  const resolved_loop loop = resolve_loop(f, ins);
  return loop.in.size() == 2 && loop.in[0] == a.dtype() && loop.in[1] == a.dtype() && loop.out.size() == 1 &&
         loop.out[0] == a.dtype();
}

void ufunc_at_atomic(const ufunc& f, write_target& t, const operand& b) {
  const ndarray& dst = t.work;
  const shape_t& r = t.plan.result_shape;
  ndarray vals;
  std::int64_t nv = 0;
  if (!b.is_array()) {
    vals = scalar(b.scalar(), dst.dtype()).reshape({1});
    nv = 1;
  } else {
    const ndarray src = strip_leading_ones(b.array(), r.size());
    vals = empty(r, dst.dtype());
    copyto(vals, src, casting::unsafe);
  }
  geom g;
  map_result_dims(t.plan, t.view, t.off, g);
  if (nv == 0)
    for (int d = 0; d < g.ndim; ++d) g.s2[d] = vals.stride(d);
  const int device = dst.device();
  const std::uint64_t key = (static_cast<std::uint64_t>(std::hash<std::string_view>{}(f.name())) << 8) ^
                            static_cast<std::uint64_t>(dst.dtype().id());
  const detail::kernel_module& m = detail::routine_module(
      device, {"indexing:ufunc_at", key}, [&] { return detail::ufunc_at_program(f.name(), dst.dtype()); });
  void* d = dst.data();
  const void* o = t.off.data();
  const void* v = vals.data();
  long long total = layout::checked_size(r), nvv = nv;
  void* args[] = {&d, &o, &v, &g, &total, &nvv};
  detail::launch_1d(m.function(0), total, args, device);
}

// Any ufunc: the positions are applied in rounds, each round holding at most one occurrence of
// every position (the k-th occurrences in round k), so repeated indices accumulate in order.
void ufunc_at_rounds(const ufunc& f, const ndarray& a, std::span<const array_index_item> items, write_target& t,
                     const operand* b) {
  const ndarray& dst = t.work;
  const ndarray flat = dst.reshape({-1});
  const ndarray positions = getitem(arange(dst.size()).reshape(dst.shape()), items);
  const std::vector<std::int64_t> pos = flat_c(positions).to_vector<std::int64_t>();
  ndarray bflat;
  if (b && b->is_array()) {
    const ndarray src = strip_leading_ones(b->array(), t.plan.result_shape.size());
    bflat = flat_c(broadcast_to(src, t.plan.result_shape));
  }
  std::unordered_map<std::int64_t, std::size_t> seen;
  std::vector<std::vector<std::int64_t>> rounds;  // element numbers k of the result
  for (std::size_t k = 0; k < pos.size(); ++k) {
    const std::size_t r = seen[pos[k]]++;
    if (r == rounds.size()) rounds.emplace_back();
    rounds[r].push_back(static_cast<std::int64_t>(k));
  }
  for (const std::vector<std::int64_t>& ks : rounds) {
    std::vector<std::int64_t> p(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i) p[i] = pos[static_cast<std::size_t>(ks[i])];
    const ndarray pr = asarray(p);
    const ndarray cur = take(flat, pr);
    if (b == nullptr) {
      const operand ins[] = {operand(cur)};
      f.call(ins, {.out = cur});
    } else if (!b->is_array()) {
      const operand ins[] = {operand(cur), operand(b->scalar())};
      f.call(ins, {.out = cur});
    } else {
      const ndarray br = take(bflat, asarray(ks));
      const operand ins[] = {operand(cur), operand(br)};
      f.call(ins, {.out = cur});
    }
    put(flat, pr, cur, clip_mode::wrap);
  }
  (void)a;
}

void ufunc_at_impl(const ufunc& f, const ndarray& a, std::span<const array_index_item> items, const operand* b) {
  if (a.is_null()) throw ValueError("ufunc.at: the ndarray is a null handle (default-constructed)");
  if (f.nout() != 1) throw ValueError("ufunc.at does not support ufuncs with more than one output");
  if (f.nin() > 2) throw ValueError("Only unary and binary ufuncs supported at this time");
  if (f.nin() == 2 && b == nullptr) throw ValueError("second operand needed for ufunc");
  if (f.nin() == 1 && b != nullptr) throw ValueError("second operand provided when ufunc is unary");
  if (!a.writeable()) throw ValueError("ufunc.at: assignment destination is read-only");
  write_target t = prepare_write(a, items, "ufunc.at");
  if (!t.plan.advanced) {
    // Basic items: a view, each element once: the ufunc in place.
    const ndarray v = a.index(t.plan.basic);
    if (b == nullptr) {
      const operand ins[] = {operand(v)};
      f.call(ins, {.out = v});
    } else {
      const operand ins[] = {operand(v), operand::borrow(*b)};
      f.call(ins, {.out = v});
    }
    return;
  }
  if (layout::checked_size(t.plan.result_shape) == 0) return;
  if (b != nullptr && has_atomic_form(f, a, *b)) {
    ufunc_at_atomic(f, t, *b);
  } else {
    ufunc_at_rounds(f, a, items, t, b);
  }
  if (!a.is_c_contiguous()) a.assign(t.work);
}

}  // namespace

ndarray getitem(const ndarray& a, std::span<const array_index_item> items) {
  if (a.is_null()) throw ValueError("index: the ndarray is a null handle (default-constructed)");
  if (const ndarray* m = whole_mask(a, items)) {
    require_kernel_dtype(a.dtype(), "index");
    return mask_select(a, *m);
  }
  prepared_items p = prepare_items(items);
  const detail::index_plan plan = plan_items(a, p);
  if (!plan.advanced) return a.index(plan.basic);
  require_kernel_dtype(a.dtype(), "index");
  const ndarray v = a.index(plan.basic);
  // One index array: take's gather kernel.
  if (plan.axes.size() == 1 && p.terms[plan.axes[0].term].kind == index_term::int_array) {
    const detail::advanced_axis& ax = plan.axes[0];
    return take_impl(v, p.arrays[ax.term], {.axis = ax.view_axis}, "index", ax.array_axis);
  }
  ndarray out = empty(plan.result_shape, a.dtype());
  std::int64_t bits = 0;
  const ndarray off = advanced_offsets(plan, p, v, 0, bits);
  if (out.size() == 0) return out;
  geom g;
  map_result_dims(plan, v, off, g);
  gather(out, v, off, g, 1, 1, 4, bits);
  return out;
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const ndarray& values) {
  if (values.is_null()) throw ValueError("assignment: the value is a null handle (default-constructed)");
  setitem_impl(a, items, &values, nullptr);
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const weak_scalar& value) {
  setitem_impl(a, items, nullptr, &value);
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const host_array& values) {
  const ndarray v = asarray(values);
  setitem_impl(a, items, &v, nullptr);
}

void ufunc::at(const ndarray& a, std::span<const array_index_item> indices) const {
  ufunc_at_impl(*this, a, indices, nullptr);
}

void ufunc::at(const ndarray& a, std::span<const array_index_item> indices, const operand& b) const {
  ufunc_at_impl(*this, a, indices, &b);
}

void ufunc::at(const ndarray& a, const ndarray& indices) const {
  const array_index_item items[] = {indices};
  ufunc_at_impl(*this, a, items, nullptr);
}

void ufunc::at(const ndarray& a, const ndarray& indices, const operand& b) const {
  const array_index_item items[] = {indices};
  ufunc_at_impl(*this, a, items, &b);
}

std::span<const routine_info> indexing_routines() noexcept {
  static const routine_info table[] = {
      {"take", "take(a, indices, axis=None, out=None, mode='raise')", "elements along an axis (one gather kernel)"},
      {"take_along_axis", "take_along_axis(arr, indices, axis=-1)", "values at 1-d indices along an axis"},
      {"put", "put(a, ind, v, mode='raise')", "a.flat[ind] = v (last write wins)"},
      {"put_along_axis", "put_along_axis(arr, indices, values, axis)", "write at 1-d indices along an axis"},
      {"compress", "compress(condition, a, axis=None, out=None)", "slices where condition is true"},
      {"extract", "extract(condition, arr)", "elements where condition is true"},
      {"flatnonzero", "flatnonzero(a)", "flat positions of nonzero elements"},
      {"nonzero", "nonzero(a)", "coordinates of nonzero elements, one array per dimension"},
      {"argwhere", "argwhere(a)", "(count, ndim) coordinates of nonzero elements"},
      {"choose", "choose(a, choices, out=None, mode='raise')", "an array from an index array and choices"},
      {"select", "select(condlist, choicelist, default=0)", "the first true condition's choice"},
      {"putmask", "putmask(a, mask, values)", "a.flat[n] = values[n] where mask"},
      {"place", "place(arr, mask, vals)", "vals in order where mask"},
      {"fill_diagonal", "fill_diagonal(a, val, wrap=False)", "fill the main diagonal in place"},
      {"unravel_index", "unravel_index(indices, shape, order='C')", "flat indices to coordinate arrays"},
      {"ravel_multi_index", "ravel_multi_index(multi_index, dims, mode='raise', order='C')",
       "coordinate arrays to flat indices"},
      {"ix_", "ix_(*args)", "an open mesh from sequences"},
  };
  return table;
}

}  // namespace cupp
