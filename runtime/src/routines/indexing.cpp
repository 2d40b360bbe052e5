// NumPy's indexing routines (cupp/indexing.hpp). One small NVRTC program per element word size
// (the kernels move bytes, so every dtype shares it), found in the kernel cache under the key
// ("indexing:move", word bytes). Data-dependent errors go through the program's error state, a
// __device__ array read once at the end of a raising call: [0] set when an index was bad, [1] one
// bad index value, [2] ~(the first bad position) (atomicMax of the complement gives the minimum;
// 0 means none). The state is all zero between calls (it is cleared when it is read set).
#include "cupp/indexing.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "array/layout.hpp"
#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"

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

const char* word_type(int w) {
  switch (w) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long long";
    default: return "cupp_word16";
  }
}

detail::indexing_program make_program(int w) {
  detail::indexing_program p;
  p.name = "cupp_indexing_move";
  std::string src = "struct __align__(16) cupp_word16 { unsigned long long lo, hi; };\n";
  src += "using W = " + std::string(word_type(w)) + ";\n";
  src += R"(
#define CUPP_GRID_LOOP(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); \
  i += (long long)gridDim.x * blockDim.x)
#define CUPP_DIMS 64
struct cupp_geom {
  int ndim, pad;
  long long shape[CUPP_DIMS], s0[CUPP_DIMS], s1[CUPP_DIMS], s2[CUPP_DIMS];
};
// [0] an index was bad, [1] one bad value, [2] ~(first bad position).
extern "C" __device__ unsigned long long cupp_index_state[3];

__device__ inline void cupp_report(long long value, long long pos) {
  cupp_index_state[0] = 1ull;
  cupp_index_state[1] = (unsigned long long)value;
  atomicMax(&cupp_index_state[2], ~(unsigned long long)pos);
}
// Normalises x against n: mode 0 raise (negative counts from the end once; false when out of
// bounds, reported), 1 wrap, 2 clip (negative -> 0), 3 raise without negative indices.
__device__ inline bool cupp_fix(long long& x, long long n, int mode, long long pos) {
  if (mode == 0 || mode == 3) {
    const long long orig = x;
    if (mode == 0 && x < 0) x += n;
    if (x < 0 || x >= n) { cupp_report(orig, pos); return false; }
  } else if (mode == 1) {
    x %= n;
    if (x < 0) x += n;
  } else {
    x = x < 0 ? 0 : (x >= n ? n - 1 : x);
  }
  return true;
}
// Offsets of element k of the geometry's shape in the three stride sets.
__device__ inline void cupp_offsets(const cupp_geom& g, long long k, long long& o0, long long& o1, long long& o2) {
  if (g.ndim == 1) { o0 = k * g.s0[0]; o1 = k * g.s1[0]; o2 = k * g.s2[0]; return; }
  o0 = o1 = o2 = 0;
  long long rem = k;
  for (int d = g.ndim - 1; d >= 0; --d) {
    const long long n = g.shape[d];
    const long long q = rem / n, c = rem - q * n;
    rem = q;
    o0 += c * g.s0[d]; o1 += c * g.s1[d]; o2 += c * g.s2[d];
  }
}
__device__ inline void cupp_move(char* dst, const char* src, int nw) {
  W* d = reinterpret_cast<W*>(dst);
  const W* s = reinterpret_cast<const W*>(src);
  for (int q = 0; q < nw; ++q) d[q] = s[q];
}

// out (C-contiguous, total elements of g's shape) = src[s0 offset + x * axis_stride], with
// x = the int64 index at s1 offset normalised by mode.
extern "C" __global__ void cupp_gather(char* out, const char* src, const char* idx, cupp_geom g, long long total,
                                       long long axis_len, long long axis_stride, int mode, int nw) {
  const long long eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, total) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (!cupp_fix(x, axis_len, mode, k)) continue;
    cupp_move(out + k * eb, src + o0 + x * axis_stride, nw);
  }
}

// Scatter, step 1 (mode raise only): report bad indices and the first bad position.
extern "C" __global__ void cupp_scatter_check(const char* idx, cupp_geom g, long long total, long long axis_len, int mode) {
  CUPP_GRID_LOOP(k, total) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    cupp_fix(x, axis_len, mode, k);
  }
}
__device__ inline long long cupp_limit(long long total) {
  const unsigned long long s = cupp_index_state[2];
  return s ? (long long)~s : total;
}
// Step 2: for positions before the first bad one, the last position writing each destination
// element (dst is C-contiguous; win has one slot per destination element, zeroed).
extern "C" __global__ void cupp_scatter_win(unsigned long long* win, const char* idx, cupp_geom g, long long total,
                                            long long axis_len, long long axis_stride, int mode, int nw) {
  const long long limit = cupp_limit(total), eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, limit) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (mode == 0) { if (x < 0) x += axis_len; } else cupp_fix(x, axis_len, mode, k);
    atomicMax(&win[(o0 + x * axis_stride) / eb], (unsigned long long)k + 1ull);
  }
}
// Step 3: the winners write. vals at s2 offsets, or (nv > 0) element k % nv of a contiguous
// vals. win null: every position writes (indices known distinct).
extern "C" __global__ void cupp_scatter_write(char* dst, const char* vals, const unsigned long long* win,
                                              const char* idx, cupp_geom g, long long total, long long axis_len,
                                              long long axis_stride, int mode, int nw, long long nv) {
  const long long limit = cupp_limit(total), eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, limit) {
    long long o0, o1, o2;
    cupp_offsets(g, k, o0, o1, o2);
    long long x = *reinterpret_cast<const long long*>(idx + o1);
    if (mode == 0) { if (x < 0) x += axis_len; } else cupp_fix(x, axis_len, mode, k);
    const long long d = o0 + x * axis_stride;
    if (win && win[d / eb] != (unsigned long long)k + 1ull) continue;
    cupp_move(dst + d, nv > 0 ? vals + (k % nv) * eb : vals + o2, nw);
  }
}

// putmask over n contiguous elements: dst[k] = vals[k % nv] where mask[k].
extern "C" __global__ void cupp_putmask(char* dst, const unsigned char* mask, const char* vals, long long n,
                                        long long nv, int nw) {
  const long long eb = (long long)nw * sizeof(W);
  CUPP_GRID_LOOP(k, n) if (mask[k]) cupp_move(dst + k * eb, vals + (k % nv) * eb, nw);
}

// Mask compaction over a contiguous bool mask, tiles of 4096 elements per 256-thread block.
#define CUPP_TILE 4096
extern "C" __global__ void cupp_mask_count(const unsigned char* m, long long n, unsigned long long* counts) {
  __shared__ unsigned int part[256];
  const long long base = (long long)blockIdx.x * CUPP_TILE;
  unsigned int c = 0;
  for (int t = threadIdx.x; t < CUPP_TILE; t += 256) {
    const long long i = base + t;
    if (i < n && m[i]) ++c;
  }
  part[threadIdx.x] = c;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) counts[blockIdx.x] = part[0];
}
extern "C" __global__ void cupp_mask_positions(const unsigned char* m, long long n, const unsigned long long* offsets,
                                               long long* out) {
  __shared__ unsigned int warp_total[8];
  __shared__ unsigned long long running;
  if (threadIdx.x == 0) running = offsets[blockIdx.x];
  __syncthreads();
  const long long base = (long long)blockIdx.x * CUPP_TILE;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  for (int t0 = 0; t0 < CUPP_TILE; t0 += 256) {
    const long long i = base + t0 + threadIdx.x;
    const bool f = i < n && m[i];
    const unsigned ballot = __ballot_sync(0xffffffffu, f);
    if (lane == 0) warp_total[warp] = __popc(ballot);
    __syncthreads();
    unsigned before = 0, all = 0;
    for (unsigned w = 0; w < 8; ++w) {
      if (w < warp) before += warp_total[w];
      all += warp_total[w];
    }
    if (f) out[running + before + __popc(ballot & ((1u << lane) - 1u))] = i;
    __syncthreads();
    if (threadIdx.x == 0) running += all;
    __syncthreads();
  }
}

// unravel_index: idx (n contiguous int64) -> out (ndim rows of n); order 0 C, 1 F.
extern "C" __global__ void cupp_unravel(const long long* idx, long long n, long long size, cupp_geom g, int order,
                                        long long* out) {
  CUPP_GRID_LOOP(k, n) {
    long long x = idx[k];
    if (x < 0 || x >= size) { cupp_report(x, k); continue; }
    for (int j = 0; j < g.ndim; ++j) {
      const int d = order == 0 ? g.ndim - 1 - j : j;
      const long long q = x / g.shape[d];
      out[d * n + k] = x - q * g.shape[d];
      x = q;
    }
  }
}
// ravel_multi_index: coords (ndim rows of n int64) -> out; s0 the multipliers, s1 the modes.
extern "C" __global__ void cupp_ravel_multi(const long long* coords, long long n, cupp_geom g, long long* out) {
  CUPP_GRID_LOOP(k, n) {
    long long r = 0;
    bool ok = true;
    for (int d = 0; d < g.ndim; ++d) {
      long long c = coords[d * n + k];
      if (!cupp_fix(c, g.shape[d], (int)g.s1[d], k)) { ok = false; break; }
      r += c * g.s0[d];
    }
    if (ok) out[k] = r;
  }
}
)";
  p.source = std::move(src);
  p.kernels = {"cupp_gather",  "cupp_scatter_check",  "cupp_scatter_win", "cupp_scatter_write",
               "cupp_putmask", "cupp_mask_count", "cupp_mask_positions", "cupp_unravel", "cupp_ravel_multi"};
  return p;
}

enum kernel_id { k_gather, k_check, k_win, k_write, k_putmask, k_count, k_positions, k_unravel, k_ravel };

const detail::kernel_module& program_for(int w, int device) {
  return detail::kernel_cache::global().get(device, {"indexing:move", static_cast<std::uint64_t>(w)}, [&] {
    detail::indexing_program p = make_program(w);
    return detail::program_source{p.name, p.source, p.kernels, {}};
  });
}

constexpr unsigned block_threads = 256;

struct device_scope {
  std::optional<cuda::DeviceGuard> guard;
  explicit device_scope(int device) {
    if (cuda::current_device() != device) guard.emplace(device);
  }
};

void launch(const detail::kernel_module& m, kernel_id k, std::int64_t n, void** args, int device,
            std::optional<std::int64_t> fixed_blocks = std::nullopt) {
  device_scope scope(device);
  const std::int64_t blocks =
      fixed_blocks ? *fixed_blocks : std::clamp<std::int64_t>((n + block_threads - 1) / block_threads, 1, 1 << 20);
  const dim3 grid(static_cast<unsigned>(blocks)), block(block_threads);
  cuda::detail::check(
      cudaLaunchKernel(m.function(k), grid, block, args, 0, cuda::detail::current_stream_handle(device)),
      "cudaLaunchKernel");
}

// Reads the error state (one round trip); when set, clears it and returns {value, first pos}.
std::optional<std::pair<std::int64_t, std::int64_t>> read_state(const detail::kernel_module& m, int device) {
  device_scope scope(device);
  auto* state = static_cast<unsigned long long*>(m.global("cupp_index_state"));
  const auto stream = cuda::detail::current_stream_handle(device);
  unsigned long long host[3] = {};
  cuda::detail::check(cudaMemcpyAsync(host, state, sizeof host, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  if (host[0] == 0) return std::nullopt;
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

// indices as int64 (a view when they already are).
ndarray as_intp(const ndarray& idx, std::string_view routine) {
  detail::require_index_dtype(idx.dtype(), routine);
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
                                                            int md) {
  if (out.size() == 0) return std::nullopt;
  std::int64_t stride_bits = axis_stride;
  for (int d = 0; d < g.ndim; ++d) stride_bits |= g.s0[d];
  const int w = word_bytes(src.itemsize(), {addr(out), addr(src), stride_bits});
  int nw = static_cast<int>(src.itemsize()) / w;
  const detail::kernel_module& m = program_for(w, src.device());
  void* o = out.data();
  const void* s = src.data();
  const void* i = idx.data();
  long long total = out.size(), n = axis_len, as = axis_stride;
  void* args[] = {&o, &s, &i, &g, &total, &n, &as, &md, &nw};
  launch(m, k_gather, total, args, src.device());
  if (md == 0 || md == 3) return read_state(m, src.device());
  return std::nullopt;
}

// The scatter into a C-contiguous dst: check (mode raise), winners (unless unique), write.
std::optional<std::pair<std::int64_t, std::int64_t>> scatter(const ndarray& dst, const ndarray& idx, const ndarray& vals,
                                                             geom& g, std::int64_t total, std::int64_t axis_len,
                                                             std::int64_t axis_stride, clip_mode mode,
                                                             std::int64_t nv, bool unique) {
  if (total == 0 || dst.size() == 0) return std::nullopt;
  std::int64_t stride_bits = axis_stride;
  for (int d = 0; d < g.ndim; ++d) stride_bits |= g.s0[d] | g.s2[d];
  const int w = word_bytes(dst.itemsize(), {addr(dst), addr(vals), stride_bits});
  int nw = static_cast<int>(dst.itemsize()) / w;
  const int device = dst.device();
  const detail::kernel_module& m = program_for(w, device);
  const void* i = idx.data();
  long long t = total, n = axis_len, as = axis_stride, nvv = nv;
  int md = mode_int(mode);
  if (mode == clip_mode::raise) {
    void* args[] = {&i, &g, &t, &n, &md};
    launch(m, k_check, total, args, device);
  }
  ndarray win;
  const unsigned long long* wp = nullptr;
  if (!unique) {
    win = zeros({dst.size()}, uint64);
    void* wv = win.data();
    void* args[] = {&wv, &i, &g, &t, &n, &as, &md, &nw};
    launch(m, k_win, total, args, device);
    wp = static_cast<const unsigned long long*>(win.data());
  }
  void* d = dst.data();
  const void* v = vals.data();
  void* args[] = {&d, &v, &wp, &i, &g, &t, &n, &as, &md, &nw, &nvv};
  launch(m, k_write, total, args, device);
  if (mode == clip_mode::raise) return read_state(m, device);
  return std::nullopt;
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

indexing_program indexing_kernel_program(int word) {
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

ndarray take_impl(const ndarray& a0, const ndarray& indices, const take_options& options, const char* routine) {
  require_kernel_dtype(a0.dtype(), routine);
  const ndarray a = options.axis ? a0 : a0.reshape({-1});
  const int ax = options.axis ? layout::normalize_axis(*options.axis, a.ndim()) : 0;
  const ndarray idx = as_intp(indices, routine);
  const shape_t shape = detail::take_shape(a.shape(), idx.shape(), ax);
  const std::int64_t axis_len = a.shape(ax);
  if (layout::checked_size(shape) > 0 && axis_len == 0 && idx.size() > 0)
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
    throw_out_of_bounds(bad->first, ax, axis_len);
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
  detail::require_index_dtype(indices.dtype(), routine);
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
  p.idx = as_intp(indices, routine);
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
    void* args[] = {&i, &g, &t, &n, &md};
    launch(m, k_check, total, args, device);
    if (const auto bad = read_state(m, device)) throw_out_of_bounds(bad->first, axis ? p.axis : 0, axis_len);
  }
  scatter(p.arr, p.idx, vals, g, total, axis_len, p.arr.stride(p.axis), clip_mode::wrap, 0, false);
  if (!contiguous_arr) arr.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// masks

ndarray flatnonzero(const ndarray& mask0) {
  const ndarray mask = flat_c(mask0.dtype().is_bool() ? mask0 : astype(mask0, bool_, casting::unsafe));
  const std::int64_t n = mask.size();
  if (n == 0) return empty({0}, int64);
  constexpr std::int64_t tile = 4096;
  const std::int64_t blocks = (n + tile - 1) / tile;
  const int device = mask.device();
  const detail::kernel_module& m = program_for(8, device);
  ndarray counts = empty({blocks}, uint64);
  const void* mp = mask.data();
  long long nn = n;
  void* cp = counts.data();
  {
    void* args[] = {&mp, &nn, &cp};
    launch(m, k_count, n, args, device, blocks);
  }
  std::vector<std::uint64_t> host(static_cast<std::size_t>(blocks));
  {
    device_scope scope(device);
    const auto stream = cuda::detail::current_stream_handle(device);
    cuda::detail::check(cudaMemcpyAsync(host.data(), counts.data(), host.size() * 8, cudaMemcpyDeviceToHost, stream),
                        "cudaMemcpyAsync");
    cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  std::uint64_t total = 0;
  for (auto& c : host) {
    const std::uint64_t x = c;
    c = total;
    total += x;
  }
  ndarray out = empty({static_cast<std::int64_t>(total)}, int64);
  if (total == 0) return out;
  const ndarray offsets = asarray(std::span<const std::uint64_t>(host), {.blocking = true});
  const void* op = offsets.data();
  void* outp = out.data();
  void* args[] = {&mp, &nn, &op, &outp};
  launch(m, k_positions, n, args, device, blocks);
  return out;
}

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
  launch(m, k_putmask, n, args, a.device());
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
  const ndarray idx = flat_c(as_intp(indices, "unravel_index"));
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
    void* args[] = {&ip, &nn, &sz, &g, &ord, &op};
    launch(m, k_unravel, n, args, idx.device());
    if (const auto bad = read_state(m, idx.device()))
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
  for (const ndarray& c : multi_index) views.push_back(broadcast_to(as_intp(c, "ravel_multi_index"), shape));
  const ndarray coords = stack(std::span<const ndarray>(views), {.axis = 0, .dtype = int64});
  ndarray out = empty(shape, int64);
  const std::int64_t n = out.size();
  if (n == 0) return out;
  const detail::kernel_module& m = program_for(8, out.device());
  const void* cp = coords.data();
  long long nn = n;
  void* op = out.data();
  void* args[] = {&cp, &nn, &g, &op};
  launch(m, k_ravel, n, args, out.device());
  const bool any_raise = std::any_of(&g.s1[0], &g.s1[nd], [](long long v) { return v == 3; });
  if (any_raise && read_state(m, out.device())) throw ValueError("invalid entry in coordinates array");
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

std::span<const routine_info> indexing_routines() noexcept {
  static const routine_info table[] = {
      {"take", "take(a, indices, axis=None, out=None, mode='raise')", "elements along an axis (one gather kernel)"},
      {"take_along_axis", "take_along_axis(arr, indices, axis=-1)", "values at 1-d indices along an axis"},
      {"put", "put(a, ind, v, mode='raise')", "a.flat[ind] = v (last write wins)"},
      {"put_along_axis", "put_along_axis(arr, indices, values, axis)", "write at 1-d indices along an axis"},
      {"compress", "compress(condition, a, axis=None, out=None)", "slices where condition is true"},
      {"extract", "extract(condition, arr)", "elements where condition is true"},
      {"flatnonzero", "flatnonzero(a)", "flat positions of nonzero elements"},
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
