// The indexing routines' shared core (cupp/indexing.hpp; the routines are split by job over the
// files of this folder, indexing_internal.hpp says which): the move program, one small NVRTC
// program per element word size (<cupp/dev/routines/indexing.cuh>: the kernels move bytes, so
// every dtype shares it), found in the kernel cache under the key ("indexing:move", word bytes);
// its error state and report word; the gather and scatter every routine builds on; the index
// checks; and the routine table. Data-dependent errors go through the program's error state, a
// __device__ array read at the end of a raising call when set: [0] set when an index was bad,
// [1] one bad index value, [2] ~(the first bad position) (atomicMax of the complement gives the
// minimum; 0 means none). A report also sets a word of mapped pinned host memory, so a call
// without bad indices learns so from its kernel's end signal alone, with no copy. The state and
// the word are zero between calls (they are cleared when read set), and the calls that may report
// take turns on them (compiler/report_word.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "array/layout.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {

namespace {

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

}  // namespace

namespace indexing_internal {

// The program for word size w on `device`. Its report word is installed by the first
// call that may report (reporting_call); until then cupp_report finds the pointer null and
// skips the host word, so a launch that cannot report needs no install.
const detail::kernel_module& program_for(int w, int device) {
  return detail::routine_module(device, {"indexing:move", static_cast<std::uint64_t>(w)},
                                [&] { return make_program(w); });
}

raising_call begin_raising(const detail::kernel_module& m, int device) {
  detail::device_scope scope(device);
  return raising_call(m, device, "cupp_index_flag");
}

// Waits for the raising kernels, the last launched with `call`'s signal; when one reported a bad
// index (the report word is set), reads and clears the error state and returns {value, first pos}.
std::optional<std::pair<std::int64_t, std::int64_t>> read_state(const detail::kernel_module& m, int device,
                                                                 raising_call& call) {
  unsigned long long host[3] = {};
  if (!detail::read_reported_state(m, device, call, "cupp_index_state", host)) return std::nullopt;
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
ndarray as_intp(const ndarray& idx, std::string_view routine, bool uint64_ok) {
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
                                                            int md, std::optional<std::int64_t> offset_bits) {
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
                                                             std::optional<std::int64_t> offset_bits) {
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

}  // namespace indexing_internal

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

// indexing_routines(), the table `cupp ops` lists: generated from specs/routines/indexing.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
