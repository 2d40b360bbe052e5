// The implementation of cupp/sorting.hpp: sort, argsort, lexsort, partition, argpartition.
//
// Every sort is a stable LSD radix sort over unsigned keys. Each dtype is mapped to order-preserving
// unsigned words by a small NVRTC kernel (signed: the sign bit flipped; floats: the IEEE transform,
// every NaN to the largest key or, when only values are sorted, to the key of its positive twin;
// complex: a NaN class (2 bits) and the real and imaginary keys). The radix sort itself is CUB's
// DeviceRadixSort (accel/cub_sort.cu, compiled by nvcc) when CUPP_ACCELERATORS lists `cub`, else
// cupp's own: 8-bit digits, one histogram kernel, cupp::cumsum for the offsets and a stable
// scatter kernel (warp match + per-warp counts) per pass, all in one NVRTC program whose kernels
// are in the embedded header <cupp/dev/routines/sorting.cuh> (kernel cache key ("sorting", 0)).
//
// Along an axis: the axis is moved last (a contiguous copy), and the rows are sorted together:
// with the row number in the key's high bits when it fits in 64 bits (one pass), else by stable
// passes over the keys (least significant first, through a permutation) and a last stable pass
// by row number.
#include "cupp/sorting.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/accelerators.hpp"
#include "accel/cub_sort.hpp"
#include "array/layout.hpp"
#include "compiler/launch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/config.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/scans.hpp"
#include "cupp/ufunc.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {

namespace {

// ---------------------------------------------------------------------------------------------
// The NVRTC program

// The program of every dtype: its kernels are in the embedded header <cupp/dev/routines/sorting.cuh>.
detail::routine_program make_program() {
  detail::routine_program p;
  p.name = "cupp_sorting";
  p.source = "#include <cupp/dev/routines/sorting.cuh>\n";
  for (const char* w : {"1", "2", "4", "8"})
    for (const char* k : {"cupp_key_w", "cupp_unkey_w", "cupp_unkey64_w", "cupp_pack_w", "cupp_rs_hist_w",
                          "cupp_rs_scatter_w"})
      p.kernels.push_back(std::string(k) + w);
  for (const char* k : {"cupp_rowkey_w4", "cupp_rowkey_w8", "cupp_iota", "cupp_mod", "cupp_key_c64", "cupp_key_c128",
                        "cupp_iota32", "cupp_widen", "cupp_nan_lead_w4", "cupp_nan_lead_w8", "cupp_nan_save_w4",
                        "cupp_nan_save_w8", "cupp_nan_rotate_w4", "cupp_nan_rotate_w8"})
    p.kernels.emplace_back(k);
  return p;
}

// Kernel indices: per width (index of 1/2/4/8 = 0..3) six kernels, then the rest.
enum width_kernel { k_key, k_unkey, k_unkey64, k_pack, k_hist, k_scatter, k_per_width };
enum other_kernel {
  k_rowkey4 = 4 * k_per_width, k_rowkey8, k_iota, k_mod, k_key_c64, k_key_c128, k_iota32, k_widen,
  k_nan_lead4, k_nan_lead8, k_nan_save4, k_nan_save8, k_nan_rotate4, k_nan_rotate8
};

int width_index(int w) { return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3; }
std::size_t wk(int w, width_kernel k) { return static_cast<std::size_t>(width_index(w) * k_per_width + k); }

const detail::kernel_module& program_for(int device) {
  return detail::routine_module(device, {"sorting", 0}, [] { return make_program(); });
}

constexpr unsigned block_threads = 256;
constexpr std::int64_t tile = 4096;

std::atomic<bool> forced_set{false};
std::atomic<bool> forced_value{false};

cuda::stream_handle stream_of(int device) { return cuda::detail::current_stream_handle(device); }

void launch(std::size_t k, std::int64_t n, void** args, int device, std::optional<std::int64_t> blocks = std::nullopt) {
  detail::launch_1d(program_for(device).function(k), n, args, device, blocks, block_threads);
}

dtype word_dtype(int w) { return w == 1 ? uint8 : w == 2 ? uint16 : w == 4 ? uint32 : uint64; }

int bits_for(std::uint64_t v) { return v <= 1 ? (v == 1 ? 1 : 0) : static_cast<int>(std::bit_width(v - 1)); }

// ---------------------------------------------------------------------------------------------
// The radix sort primitive: keys (unsigned words) and optional int64 values, sorted stably by
// bits [begin, end); the handles are rebound to the buffers that hold the result.

void own_radix_sort(ndarray& keys, ndarray* vals, int begin, int end, int device) {
  const std::int64_t n = keys.size();
  const int w = static_cast<int>(keys.itemsize());
  ndarray kalt = empty({n}, keys.dtype());
  ndarray valt = vals ? empty({n}, int64) : ndarray();
  long long nb = (n + tile - 1) / tile, nn = n;
  ndarray counts = empty({256 * nb}, int64);
  for (int shift = begin; shift < end; shift += 8) {
    unsigned dmask = (1u << std::min(8, end - shift)) - 1u;
    {
      const void* kp = keys.data();
      void* cp = counts.data();
      void* args[] = {&kp, &nn, &shift, &dmask, &cp, &nb};
      launch(wk(w, k_hist), n, args, device, nb);
    }
    const ndarray incl = cumsum(counts);
    {
      const void* kin = keys.data();
      void* kout = kalt.data();
      const void* vin = vals ? vals->data() : nullptr;
      void* vout = vals ? valt.data() : nullptr;
      const void* ip = incl.data();
      const void* cp = counts.data();
      void* args[] = {&kin, &kout, &vin, &vout, &nn, &shift, &dmask, &ip, &cp, &nb};
      launch(wk(w, k_scatter), n, args, device, nb);
    }
    std::swap(keys, kalt);
    if (vals) std::swap(*vals, valt);
  }
}

// The key word of one element width for the kernel argument `em`.
struct em_arg {
  std::uint8_t b1;
  std::uint16_t b2;
  std::uint32_t b4;
  std::uint64_t b8;
  void* ptr(int w) { return w == 1 ? static_cast<void*>(&b1) : w == 2 ? static_cast<void*>(&b2) : w == 4 ? static_cast<void*>(&b4) : static_cast<void*>(&b8); }
};

#if CUPP_HAVE_AOT_ACCELERATORS
// CUB's DeviceRadixSort (accel/cub_sort.cu) on the keys (and values), in place.
void cub_radix_sort(ndarray& keys, ndarray* vals, int begin, int end, int device) {
  const std::int64_t n = keys.size();
  ndarray kalt = empty({n}, keys.dtype());
  ndarray valt = vals ? empty({n}, vals->dtype()) : ndarray();
  const auto stream = stream_of(device);
  cuda::Memory temp;
  const detail::accel::temp_alloc alloc = [&](std::size_t bytes) {
    temp = cuda::alloc(bytes, device, stream);
    return temp.ptr();
  };
  void* const kb[2] = {keys.data(), kalt.data()};
  const int w = static_cast<int>(keys.itemsize());
  int sel;
  if (vals && vals->dtype() == int32) {
    std::int32_t* const vb[2] = {static_cast<std::int32_t*>(vals->data()), static_cast<std::int32_t*>(valt.data())};
    sel = detail::accel::cub_sort_pairs_i32(w, kb, vb, n, begin, end, stream, alloc);
  } else if (vals) {
    std::int64_t* const vb[2] = {static_cast<std::int64_t*>(vals->data()), static_cast<std::int64_t*>(valt.data())};
    sel = detail::accel::cub_sort_pairs(w, kb, vb, n, begin, end, stream, alloc);
  } else {
    sel = detail::accel::cub_sort_keys(w, kb, n, begin, end, stream, alloc);
  }
  if (sel == 1) {
    std::swap(keys, kalt);
    if (vals) std::swap(*vals, valt);
  }
}
#endif

// The plain sort of n (2 .. 2^31 - 1) float32 or float64 values by CUB's float order, then the
// negative NaNs it puts first moved to the end: no key transform passes.
ndarray cub_float_sort(const ndarray& flat, int device) {
  const std::int64_t n = flat.size();
  const int w = static_cast<int>(flat.itemsize());
  ndarray out = empty({n}, flat.dtype());
#if CUPP_HAVE_AOT_ACCELERATORS
  const auto stream = stream_of(device);
  cuda::Memory temp;
  const detail::accel::temp_alloc alloc = [&](std::size_t bytes) {
    temp = cuda::alloc(bytes, device, stream);
    return temp.ptr();
  };
  detail::accel::cub_sort_floats(w, flat.data(), out.data(), n, stream, alloc);
  const ndarray lead = empty({1}, int64);
  void* v = out.data();
  void* s = temp.ptr();
  void* l = lead.data();
  long long nn = n;
  em_arg em{0, 0, 0x7F800000u, 0x7FF0000000000000ull};
  {
    void* args[] = {&v, &nn, em.ptr(w), &l};
    launch(w == 4 ? k_nan_lead4 : k_nan_lead8, 1, args, device, 1);
  }
  // Grid-stride over a fixed 1024 blocks: with no NaN to move (the common case) each block only
  // reads the count and ends, where a block per 256 values would cost a launch of n / 256 blocks.
  void* args[] = {&v, &s, &nn, &l};
  launch(w == 4 ? k_nan_save4 : k_nan_save8, n, args, device, std::min<std::int64_t>(1024, (n + 255) / 256));
  launch(w == 4 ? k_nan_rotate4 : k_nan_rotate8, n, args, device, std::min<std::int64_t>(1024, (n + 255) / 256));
#else
  (void)w;
  (void)device;
  throw ValueError("internal: cupp was built without the CUB accelerators");
#endif
  return out;
}

void radix_sort(ndarray& keys, ndarray* vals, int begin, int end) {
  const std::int64_t n = keys.size();
  if (n <= 1 || begin >= end) return;
  const int device = keys.device();
#if CUPP_HAVE_AOT_ACCELERATORS
  if (detail::sort_uses_cub()) {
    cub_radix_sort(keys, vals, begin, end, device);
    return;
  }
#endif
  own_radix_sort(keys, vals, begin, end, device);
}

// ---------------------------------------------------------------------------------------------
// Keys

struct key_column {
  ndarray words;  // contiguous unsigned words, one per element
  int bits = 0;   // significant bits (from 0)
};

enum class key_mode { values = 0, total = 1 };

int kind_code(const dtype& t) {
  if (t.is_bool()) return 3;
  if (t.is_floating()) return 2;
  return t.kind() == 'i' ? 1 : 0;
}
std::uint64_t exp_mask(const dtype& t) {
  switch (t.id()) {
    case type_id::float16: return 0x7C00u;
    case type_id::bfloat16: return 0x7F80u;
    case type_id::float32: return 0x7F800000u;
    case type_id::float64: return 0x7FF0000000000000ull;
    default: return 0;
  }
}


// One key column for a non-complex contiguous flat array.
key_column scalar_key(const ndarray& flat, key_mode mode) {
  const dtype t = flat.dtype();
  const int w = static_cast<int>(t.itemsize());
  key_column c{empty({flat.size()}, word_dtype(w)), t.is_bool() ? 1 : 8 * w};
  const std::uint64_t m = exp_mask(t);
  em_arg em{static_cast<std::uint8_t>(m), static_cast<std::uint16_t>(m), static_cast<std::uint32_t>(m), m};
  const void* in = flat.data();
  void* out = c.words.data();
  long long n = flat.size();
  int kind = kind_code(t), md = static_cast<int>(mode);
  void* args[] = {&in, &out, &n, &kind, &md, em.ptr(w)};
  if (n > 0) launch(wk(w, k_key), n, args, flat.device());
  return c;
}

// Key columns, most significant first, NumPy's total order (mode total).
std::vector<key_column> total_keys(const ndarray& flat) {
  const dtype t = flat.dtype();
  long long n = flat.size();
  const void* in = flat.data();
  if (t == complex64) {
    key_column cls{empty({n}, uint8), 2}, ps{empty({n}, uint64), 64};
    void* pp = ps.words.data();
    void* cp = cls.words.data();
    void* args[] = {&in, &pp, &cp, &n};
    if (n > 0) launch(k_key_c64, n, args, flat.device());
    return {cls, ps};
  }
  if (t == complex128) {
    key_column cls{empty({n}, uint8), 2}, prim{empty({n}, uint64), 64}, sec{empty({n}, uint64), 64};
    void* pp = prim.words.data();
    void* sp = sec.words.data();
    void* cp = cls.words.data();
    void* args[] = {&in, &pp, &sp, &cp, &n};
    if (n > 0) launch(k_key_c128, n, args, flat.device());
    return {cls, prim, sec};
  }
  return {scalar_key(flat, key_mode::total)};
}

ndarray iota(std::int64_t n, int device) {
  ndarray out = empty({n}, int64);
  void* p = out.data();
  long long nn = n;
  void* args[] = {&p, &nn};
  if (n > 0) launch(k_iota, n, args, device);
  return out;
}

// The stable permutation (flat positions) that sorts `rows` rows of `cols` elements of a
// contiguous array by the key columns (most significant first) within each row.
ndarray stable_permutation(std::vector<key_column> keys, std::int64_t rows, std::int64_t cols, int device) {
  const std::int64_t n = rows * cols;
  long long nn = n, cc = cols;
  const int rowbits = rows > 1 ? bits_for(static_cast<std::uint64_t>(rows)) : 0;
  const bool one_pass = keys.size() == 1 && (rowbits == 0 || keys[0].bits + rowbits <= 64);
  if (one_pass) {
    // One pass, the row number above the key when there are rows. With CUB and n < 2^31 the
    // values are int32 (half the bytes moved per pass), widened at the end.
    const bool narrow = n <= std::numeric_limits<std::int32_t>::max() && detail::sort_uses_cub();
    ndarray perm = empty({n}, narrow ? int32 : int64);
    {
      void* p = perm.data();
      void* args[] = {&p, &nn};
      launch(narrow ? k_iota32 : k_iota, n, args, device);
    }
    if (rowbits == 0) {
      radix_sort(keys[0].words, &perm, 0, keys[0].bits);
    } else {
      const int w = static_cast<int>(keys[0].words.itemsize());
      ndarray packed = empty({n}, uint64);
      const void* kp = keys[0].words.data();
      void* pp = packed.data();
      int kb = 8 * w;
      void* args[] = {&kp, &pp, &nn, &cc, &kb};
      launch(wk(w, k_pack), n, args, device);
      radix_sort(packed, &perm, 0, 8 * w + rowbits);
    }
    if (!narrow) return perm;
    ndarray wide = empty({n}, int64);
    const void* ip = perm.data();
    void* op = wide.data();
    void* args[] = {&ip, &op, &nn};
    launch(k_widen, n, args, device);
    return wide;
  }
  ndarray perm = iota(n, device);
  for (std::size_t j = keys.size(); j-- > 0;) {
    ndarray k = j + 1 == keys.size() ? keys[j].words : take(keys[j].words, perm, {.mode = clip_mode::clip});
    radix_sort(k, &perm, 0, keys[j].bits);
  }
  if (rowbits > 0) {
    const bool narrow = rowbits <= 32;
    ndarray rk = empty({n}, narrow ? uint32 : uint64);
    const void* pp = perm.data();
    void* rp = rk.data();
    void* args[] = {&pp, &rp, &nn, &cc};
    launch(narrow ? k_rowkey4 : k_rowkey8, n, args, device);
    radix_sort(rk, &perm, 0, rowbits);
  }
  return perm;
}

// ---------------------------------------------------------------------------------------------
// Shared steps of the routines

void require_sortable(const dtype& t, std::string_view routine) {
  detail::require_not_structured(t, routine);
  if (!t.is_builtin())
    throw TypeError(std::string(routine) + ": dtype " + t.name() + " is not supported (a numeric or bool dtype is needed)");
}

// a with `axis` moved last, C-contiguous; axis nullopt flattens. `moved_shape` is its shape.
struct moved_array {
  ndarray data;  // C-contiguous, the axis last
  int axis = 0;  // the normalised axis of the source (-1: flattened)
  std::int64_t rows = 0, cols = 0;
};

moved_array move_axis_last(const ndarray& a, std::optional<int> axis) {
  moved_array m;
  if (!axis) {
    m.data = ascontiguousarray(a).reshape({-1});
    m.axis = -1;
  } else {
    m.axis = layout::normalize_axis(*axis, a.ndim());
    const ndarray v = m.axis == a.ndim() - 1 ? a : a.moveaxis(m.axis, -1);
    m.data = v.is_c_contiguous() ? v : ascontiguousarray(v);
  }
  m.cols = m.data.ndim() == 0 ? 1 : m.data.shape(-1);
  m.rows = m.cols == 0 ? 0 : m.data.size() / m.cols;
  return m;
}

// The result laid out in moved order (C-contiguous, moved shape) put back in the source order.
ndarray move_back(const ndarray& r, const moved_array& m, int ndim) {
  if (m.axis < 0 || m.axis == ndim - 1) return r;
  return ascontiguousarray(r.moveaxis(-1, m.axis));
}

ndarray flat_of(const ndarray& c) { return c.reshape({-1}); }

ndarray argsort_impl(const ndarray& a, std::optional<int> axis, const char* routine) {
  require_sortable(a.dtype(), routine);
  // NumPy: a 0-d array is sorted as one element, giving [0].
  const ndarray src = a.ndim() == 0 && axis ? a.reshape({1}) : a;
  if (axis) layout::normalize_axis(*axis, src.ndim());  // AxisError before any device work
  detail::device_scope scope(a.device());
  const moved_array m = move_axis_last(src, axis);
  ndarray perm;
  if (m.data.size() == 0) {
    perm = empty(m.data.shape(), int64);
  } else {
    perm = stable_permutation(total_keys(flat_of(m.data)), m.rows, m.cols, a.device());
    if (m.rows > 1) {
      void* p = perm.data();
      long long nn = perm.size(), cc = m.cols;
      void* args[] = {&p, &nn, &cc};
      launch(k_mod, nn, args, a.device());
    }
    perm = perm.reshape(m.data.shape());
  }
  return move_back(perm, m, src.ndim());
}

bool is_stable_request(const sort_options& o) {
  if (o.stable) return *o.stable;
  if (o.kind && !o.kind->empty()) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>((*o.kind)[0])));
    return c == 's' || c == 'm';
  }
  return false;
}

ndarray sort_impl(const ndarray& a, const sort_options& o) {
  detail::check_sort_kind(o);
  require_sortable(a.dtype(), "sort");
  if (o.axis) layout::normalize_axis(*o.axis, a.ndim());  // AxisError before any device work
  detail::device_scope scope(a.device());
  const moved_array m = move_axis_last(a, o.axis);
  const ndarray flat = flat_of(m.data);
  const std::int64_t n = flat.size();
  const dtype t = a.dtype();
  ndarray out;
  if (n == 0 || m.cols <= 1) {
    out = m.data.copy();
  } else if (t.is_complex() || (t.is_floating() && is_stable_request(o))) {
    // Through the stable permutation (complex keys; -0.0 and 0.0 kept in input order).
    const ndarray perm = stable_permutation(total_keys(flat), m.rows, m.cols, a.device());
    out = take(flat, perm, {.mode = clip_mode::clip});
  } else {
    // Keys only: sort the keys and map them back.
    const int w = static_cast<int>(t.itemsize());
    key_column k = scalar_key(flat, key_mode::values);
    out = empty({n}, t);
    long long nn = n;
    int kind = kind_code(t);
    void* op = out.data();
    const int rowbits = m.rows > 1 ? bits_for(static_cast<std::uint64_t>(m.rows)) : 0;
    if (rowbits == 0 && (t == float32 || t == float64) && n <= std::numeric_limits<std::int32_t>::max() &&
        detail::sort_uses_cub()) {
      out = cub_float_sort(flat, a.device());
    } else if (rowbits == 0) {
      radix_sort(k.words, nullptr, 0, k.bits);
      const void* kp = k.words.data();
      void* args[] = {&kp, &op, &nn, &kind};
      launch(wk(w, k_unkey), n, args, a.device());
    } else if (8 * w + rowbits <= 64) {
      ndarray packed = empty({n}, uint64);
      const void* kp = k.words.data();
      void* pp = packed.data();
      long long cc = m.cols;
      int kb = 8 * w;
      {
        void* args[] = {&kp, &pp, &nn, &cc, &kb};
        launch(wk(w, k_pack), n, args, a.device());
      }
      radix_sort(packed, nullptr, 0, 8 * w + rowbits);
      const void* sp = packed.data();
      void* args[] = {&sp, &op, &nn, &kind};
      launch(wk(w, k_unkey64), n, args, a.device());
    } else {
      std::vector<key_column> keys{k};
      const ndarray perm = stable_permutation(std::move(keys), m.rows, m.cols, a.device());
      out = take(flat, perm, {.mode = clip_mode::clip});
    }
  }
  return move_back(out.reshape(m.data.shape()), m, a.ndim());
}

// Checks kth against the axis length of a (after axis normalisation) for partition.
void check_kth(const ndarray& a, std::span<const std::int64_t> kth, std::optional<int> axis) {
  if (a.size() == 0) return;
  std::int64_t len = a.size();
  if (axis) len = a.shape(layout::normalize_axis(*axis, a.ndim()));
  detail::normalize_kth(kth, len);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// detail

namespace detail {

void set_sort_accelerator(std::optional<bool> use_cub) noexcept {
  forced_value.store(use_cub.value_or(false), std::memory_order_relaxed);
  forced_set.store(use_cub.has_value(), std::memory_order_release);
}

bool sort_uses_cub() noexcept {
  if (!CUPP_HAVE_AOT_ACCELERATORS) return false;  // built without the nvcc-compiled CUB object
  if (forced_set.load(std::memory_order_acquire)) return forced_value.load(std::memory_order_relaxed);
  return accel::cub_enabled();  // detail::set_cub_accelerators, else CUPP_ACCELERATORS
}

std::uint64_t cub_sort_launches() noexcept {
#if CUPP_HAVE_AOT_ACCELERATORS
  return accel::cub_launch_count();
#else
  return 0;
#endif
}

void check_sort_kind(const sort_options& o) {
  if (o.kind && o.stable)
    throw ValueError("`kind` and `stable` parameters can't be provided at the same time. Use only one of them.");
  if (o.kind) {
    const std::string& k = *o.kind;
    const char c = k.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(k[0])));
    if (c != 'q' && c != 'h' && c != 'm' && c != 's')
      throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k + "')");
  }
}

std::vector<std::int64_t> normalize_kth(std::span<const std::int64_t> kth, std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t k : kth) {
    const std::int64_t v = k < 0 ? k + n : k;
    if (v < 0 || v >= n)
      throw ValueError("kth(=" + std::to_string(v) + ") out of bounds (" + std::to_string(n) + ")");
    out.push_back(v);
  }
  return out;
}

routine_program sorting_kernel_program() { return make_program(); }

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// The routines

ndarray sort(const ndarray& a, std::optional<int> axis) { return sort_impl(a, {.axis = axis}); }
ndarray sort(const ndarray& a, const sort_options& options) { return sort_impl(a, options); }

ndarray argsort(const ndarray& a, std::optional<int> axis) { return argsort_impl(a, axis, "argsort"); }
ndarray argsort(const ndarray& a, const sort_options& options) {
  detail::check_sort_kind(options);
  return argsort_impl(a, options.axis, "argsort");
}

ndarray lexsort(std::span<const ndarray> keys, int axis) {
  if (keys.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  for (const ndarray& k : keys) {
    require_sortable(k.dtype(), "lexsort");
    if (!std::equal(k.shape().begin(), k.shape().end(), keys[0].shape().begin(), keys[0].shape().end()))
      throw ValueError("all keys need to be the same shape");
  }
  const ndarray& k0 = keys[0];
  if (k0.ndim() > 0) layout::normalize_axis(axis, k0.ndim());  // AxisError before any device work
  detail::device_scope scope(k0.device());
  if (k0.ndim() == 0) return zeros(std::span<const std::int64_t>(), int64);
  std::vector<moved_array> moved;
  for (const ndarray& k : keys) moved.push_back(move_axis_last(k, axis));
  const moved_array& m = moved[0];
  ndarray perm;
  if (m.data.size() == 0) {
    perm = empty(m.data.shape(), int64);
  } else {
    // The last key is the primary one: columns most significant first.
    std::vector<key_column> cols;
    for (std::size_t j = keys.size(); j-- > 0;)
      for (key_column& c : total_keys(flat_of(moved[j].data))) cols.push_back(std::move(c));
    perm = stable_permutation(std::move(cols), m.rows, m.cols, k0.device());
    if (m.rows > 1) {
      void* p = perm.data();
      long long nn = perm.size(), cc = m.cols;
      void* args[] = {&p, &nn, &cc};
      launch(k_mod, nn, args, k0.device());
    }
    perm = perm.reshape(m.data.shape());
  }
  return move_back(perm, m, k0.ndim());
}

ndarray lexsort(std::initializer_list<ndarray> keys, int axis) {
  return lexsort(std::span<const ndarray>(keys.begin(), keys.size()), axis);
}

ndarray lexsort(const ndarray& keys, int axis) {
  if (keys.ndim() == 0) throw TypeError("need sequence of keys with len > 0 in lexsort");
  std::vector<ndarray> list;
  for (std::int64_t i = 0; i < keys.shape(0); ++i) list.push_back(keys(i));
  return lexsort(std::span<const ndarray>(list), axis);
}

ndarray partition(const ndarray& a, std::span<const std::int64_t> kth, std::optional<int> axis) {
  require_sortable(a.dtype(), "partition");
  if (axis && a.ndim() == 0) layout::normalize_axis(*axis, 0);  // AxisError, as NumPy
  check_kth(a, kth, axis);
  return sort_impl(a, {.axis = axis, .stable = true});
}
ndarray partition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return partition(a, std::span<const std::int64_t>(&kth, 1), axis);
}
ndarray partition(const ndarray& a, std::initializer_list<std::int64_t> kth, std::optional<int> axis) {
  return partition(a, std::span<const std::int64_t>(kth.begin(), kth.size()), axis);
}

ndarray argpartition(const ndarray& a, std::span<const std::int64_t> kth, std::optional<int> axis) {
  require_sortable(a.dtype(), "argpartition");
  // NumPy sorts a 0-d array as one element here too (argpartition(array(3), 0) is [0]).
  check_kth(a.ndim() == 0 ? a.reshape({1}) : a, kth, a.ndim() == 0 ? std::optional<int>(0) : axis);
  return argsort_impl(a, axis, "argpartition");
}
ndarray argpartition(const ndarray& a, std::int64_t kth, std::optional<int> axis) {
  return argpartition(a, std::span<const std::int64_t>(&kth, 1), axis);
}
ndarray argpartition(const ndarray& a, std::initializer_list<std::int64_t> kth, std::optional<int> axis) {
  return argpartition(a, std::span<const std::int64_t>(kth.begin(), kth.size()), axis);
}

// sorting_routines(), the table `cupp ops` lists: generated from specs/routines/sorting.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
