// The fft module's transform engine (transform.hpp): NumPy 2's dtypes and norm factors, the
// layout analysis that maps an array's strides onto cuFFT's advanced layout (plan dimensions,
// one batch dimension, a loop over the rest), and the c2c / r2c / c2r transforms with their
// zero-padding, cropping (a view), out= and scaling (the norm factor in cupp's store callback where
// the layout pays for it, else one pass; nothing when the factor is 1).
#include "transform.hpp"

#include "callbacks.hpp"
#include "columns.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <numeric>

#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/float16.hpp"
#include "cupp/promotion.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::fft::detail {

namespace {

constexpr int forward_direction = -1;  // CUFFT_FORWARD
constexpr int inverse_direction = 1;   // CUFFT_INVERSE

double round_to(double v, dtype t) {
  switch (t.id()) {
    case type_id::float16: return static_cast<double>(float16_t(v));
    case type_id::bfloat16: return static_cast<double>(bfloat16_t(v));
    case type_id::float32: return static_cast<double>(static_cast<float>(v));
    default: return v;
  }
}

std::vector<index_item> full_slices(int ndim) { return std::vector<index_item>(ndim, slice()); }

bool is_complex(dtype t) { return t == complex64 || t == complex128; }

// With cuFFT callbacks current, a transform must be one cuFFT execution.
void require_one_execution(bool one, const char* what) {
  if (!one && current_callbacks() != nullptr)
    throw ValueError(std::string("cuFFT callbacks need a transform that runs as one cuFFT execution (up to three axes "
                                 "whose strides nest, the others in one batch dimension); this one ") + what);
}

// The element strides of x (bytes / itemsize).
std::vector<std::int64_t> element_strides(const ndarray& x) {
  std::vector<std::int64_t> s(x.strides().begin(), x.strides().end());
  for (auto& v : s) v /= static_cast<std::int64_t>(x.itemsize());
  return s;
}

// Whether `group` (outer to inner) nests in x's layout: each outer stride a whole multiple of the
// next one, at least that axis' extent.
bool nests(const ndarray& x, std::span<const int> group) {
  const auto st = element_strides(x);
  for (std::size_t i = 1; i < group.size(); ++i) {
    const std::int64_t outer = st[group[i - 1]], inner = st[group[i]];
    if (inner <= 0 || outer % inner != 0 || outer / inner < x.shape()[group[i]]) return false;
  }
  return true;
}

bool shares_memory(const ndarray& a, const ndarray& b) { return a.base() && a.base() == b.base(); }

bool same_view(const ndarray& a, const ndarray& b) {
  return a.data() == b.data() && std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end()) &&
         std::equal(a.strides().begin(), a.strides().end(), b.strides().begin(), b.strides().end());
}

std::vector<std::int64_t> shape_of(const ndarray& a) { return {a.shape().begin(), a.shape().end()}; }

void scale_in_place(const ndarray& x, double scale) {
  if (scale == 1.0 || x.size() == 0) return;
  multiply(x, weak_scalar(scale), {.out = x});
}

// Where the result goes: out itself when it has the computed dtype, a usable layout and no
// memory shared with the input (or is the input's very view, for in place); else a new array.
ndarray destination(const ndarray& out, const ndarray& src, bool src_owned, dtype type,
                    std::span<const std::int64_t> shape, bool in_place_ok) {
  if (!out.is_null() && out.dtype() == type && out.writeable() && usable_layout(out, type.itemsize())) {
    if (!shares_memory(out, src) || (in_place_ok && same_view(out, src))) return out;
  }
  if (in_place_ok && src_owned && src.dtype() == type) return src;
  return empty(shape, type);
}

ndarray finish(const ndarray& result, const ndarray& out) {
  if (out.is_null() || same_view(result, out)) return result;
  copyto(out, result, casting::same_kind);
  return out;
}

std::atomic<int> norm_callback_mode{-1};
std::atomic<std::int64_t> norm_min_option{engine_options{}.norm_callback_min_elements};
std::atomic<std::int64_t> tile_bytes_option{engine_options{}.column_tile_bytes};
std::atomic<std::int64_t> tile_min_option{engine_options{}.column_tile_min};
std::atomic<int> norm_form_option{engine_options{}.norm_callback_form};
// CUPP_FFT_COLUMN_KERNEL=0 to 4 in the environment: engine_options::column_kernel at the start.
int column_kernel_default() {
  const char* v = std::getenv("CUPP_FFT_COLUMN_KERNEL");
  return v && v[0] >= '0' && v[0] <= '4' && v[1] == '\0' ? v[0] - '0' : engine_options{}.column_kernel;
}
// A positive integer from the environment (else the default): the axis four-step's study knobs.
std::int64_t positive_env(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 10);
  return end && *end == '\0' && x > 0 ? x : fallback;
}
std::atomic<int> column_kernel_option{column_kernel_default()};
std::atomic<std::int64_t> column_min_n_option{engine_options{}.column_kernel_min_n};
std::atomic<std::int64_t> column_min_blocks_option{engine_options{}.column_kernel_min_blocks};
std::atomic<int> column_width_option{engine_options{}.column_kernel_width};
// CUPP_FFT_ROW_KERNEL=0, 1 or 2: engine_options::norm_row_kernel at the start.
int row_kernel_default() {
  const char* v = std::getenv("CUPP_FFT_ROW_KERNEL");
  return v && v[0] >= '0' && v[0] <= '2' && v[1] == '\0' ? v[0] - '0' : engine_options{}.norm_row_kernel;
}
std::atomic<int> row_kernel_option{row_kernel_default()};
// CUPP_FFT_LONG_KERNEL=0, 1 or 2: engine_options::long_kernel at the start.
int long_kernel_default() {
  const char* v = std::getenv("CUPP_FFT_LONG_KERNEL");
  return v && v[0] >= '0' && v[0] <= '2' && v[1] == '\0' ? v[0] - '0' : engine_options{}.long_kernel;
}
std::atomic<int> long_kernel_option{long_kernel_default()};
std::atomic<std::int64_t> long_min_n_option{engine_options{}.long_kernel_min_n};
std::atomic<std::int64_t> axis_slab_option{positive_env("CUPP_FFT_AXIS_SLAB_KIB", engine_options{}.axis_slab_bytes >> 10) << 10};
std::atomic<int> axis_blocks_option{static_cast<int>(positive_env("CUPP_FFT_AXIS_BLOCKS_PER_SM", 0))};

}  // namespace

engine_options get_engine_options() noexcept {
  return {.norm_callback = norm_callback_mode.load(std::memory_order_relaxed),
          .norm_callback_min_elements = norm_min_option.load(std::memory_order_relaxed),
          .column_tile_bytes = tile_bytes_option.load(std::memory_order_relaxed),
          .column_tile_min = tile_min_option.load(std::memory_order_relaxed),
          .norm_callback_form = norm_form_option.load(std::memory_order_relaxed),
          .column_kernel = column_kernel_option.load(std::memory_order_relaxed),
          .column_kernel_min_n = column_min_n_option.load(std::memory_order_relaxed),
          .column_kernel_min_blocks = column_min_blocks_option.load(std::memory_order_relaxed),
          .column_kernel_width = column_width_option.load(std::memory_order_relaxed),
          .norm_row_kernel = row_kernel_option.load(std::memory_order_relaxed),
          .long_kernel = long_kernel_option.load(std::memory_order_relaxed),
          .long_kernel_min_n = long_min_n_option.load(std::memory_order_relaxed),
          .axis_slab_bytes = axis_slab_option.load(std::memory_order_relaxed),
          .axis_blocks_per_sm = axis_blocks_option.load(std::memory_order_relaxed)};
}

void set_engine_options(const engine_options& options) noexcept {
  norm_callback_mode.store(options.norm_callback, std::memory_order_relaxed);
  norm_min_option.store(options.norm_callback_min_elements, std::memory_order_relaxed);
  tile_bytes_option.store(options.column_tile_bytes, std::memory_order_relaxed);
  tile_min_option.store(std::max<std::int64_t>(1, options.column_tile_min), std::memory_order_relaxed);
  norm_form_option.store(std::clamp(options.norm_callback_form, 0, 2), std::memory_order_relaxed);
  column_kernel_option.store(std::clamp(options.column_kernel, 0, 4), std::memory_order_relaxed);
  column_min_n_option.store(options.column_kernel_min_n, std::memory_order_relaxed);
  column_min_blocks_option.store(options.column_kernel_min_blocks, std::memory_order_relaxed);
  column_width_option.store(options.column_kernel_width, std::memory_order_relaxed);
  row_kernel_option.store(std::clamp(options.norm_row_kernel, 0, 2), std::memory_order_relaxed);
  long_kernel_option.store(std::clamp(options.long_kernel, 0, 2), std::memory_order_relaxed);
  long_min_n_option.store(options.long_kernel_min_n, std::memory_order_relaxed);
  axis_slab_option.store(std::max<std::int64_t>(1, options.axis_slab_bytes), std::memory_order_relaxed);
  axis_blocks_option.store(std::max(0, options.axis_blocks_per_sm), std::memory_order_relaxed);
}

int column_width(std::int64_t n, std::int64_t itemsize, int forced) noexcept {
  if (n < 32 || n > 4096 || (n & (n - 1)) != 0 || (itemsize != 8 && itemsize != 16)) return 0;
  auto fits = [&](std::int64_t w) {
    return w >= 2 && (w & (w - 1)) == 0 && n / 16 * w <= 1024 && n * w * itemsize <= (128 << 10);
  };
  if (fits(forced)) return forced;
  std::int64_t w = std::max<std::int64_t>(32 / itemsize, std::min<std::int64_t>(128 / itemsize, (64 << 10) / (n * itemsize)));
  while (!fits(w) && w > 2) w /= 2;
  return static_cast<int>(w);
}

int pair_width(std::int64_t n, std::int64_t itemsize, int forced) noexcept {
  if (n < 64 || n > 4096 || (n & (n - 1)) != 0 || (itemsize != 8 && itemsize != 16)) return 0;
  auto fits = [&](std::int64_t w) {
    return w >= 2 && (w & (w - 1)) == 0 && n / 32 * w <= 1024 && n / 2 * w * itemsize <= (128 << 10) &&
           w * itemsize <= 128;
  };
  if (fits(forced)) return forced;
  std::int64_t w = 128 / itemsize;
  while (!fits(w) && w > 2) w /= 2;
  return static_cast<int>(w);
}

std::int64_t column_tile(std::int64_t n, std::int64_t batch, std::int64_t itemsize, std::int64_t tile_bytes,
                         std::int64_t min_columns) noexcept {
  if (tile_bytes <= 0 || n < 2 || min_columns < 1) return 0;
  std::int64_t t = min_columns;
  if (t * n * itemsize > tile_bytes || batch * n * itemsize <= tile_bytes) return 0;  // too big / one tile
  while (2 * t * n * itemsize <= tile_bytes && 2 * t <= batch / 2) t *= 2;
  while (t >= min_columns && batch % t != 0) t /= 2;
  return t >= min_columns && batch / t >= 2 ? t : 0;
}

transform_dtypes dtypes_of(dtype input) {
  if (!input.is_builtin() || input.kind() == 'V')
    throw TypeError("ufunc 'fft' did not contain a loop with signature matching types (dtype " + input.name() + ")");
  const dtype complex_type = result_type(input, weak_scalar(std::complex<double>(0.0, 1.0)));
  const dtype real_type = complex_type == complex128 ? float64 : float32;
  const dtype real_part = input == complex64 ? float32 : input == complex128 ? float64 : input;
  return {complex_type, real_type, result_type(real_part, weak_scalar(1.0))};
}

double norm_factor(norm_kind kind, std::int64_t n, dtype factor_type) {
  const double nt = round_to(static_cast<double>(n), factor_type);  // NumPy's n in that dtype first
  switch (kind) {
    case norm_kind::backward: return 1.0;
    case norm_kind::ortho: return round_to(1.0 / round_to(std::sqrt(nt), factor_type), factor_type);
    case norm_kind::forward: return round_to(1.0 / nt, factor_type);
  }
  return 1.0;
}

bool usable_layout(const ndarray& x, std::size_t alignment) {
  if (reinterpret_cast<std::uintptr_t>(x.data()) % alignment != 0) return false;
  const auto item = static_cast<std::int64_t>(x.itemsize());
  for (int d = 0; d < x.ndim(); ++d) {
    if (x.shape()[d] <= 1) continue;
    if (x.strides()[d] <= 0 || x.strides()[d] % item != 0) return false;
  }
  return true;
}

std::vector<std::vector<int>> plan_groups(const ndarray& in, const ndarray& out, std::vector<int> axes, bool nd) {
  const auto os = element_strides(out), is = element_strides(in);
  std::stable_sort(axes.begin(), axes.end(), [&](int a, int b) { return os[a] != os[b] ? os[a] > os[b] : is[a] > is[b]; });
  std::vector<std::vector<int>> groups;
  for (int axis : axes) {
    if (nd && !groups.empty() && groups.back().size() < 3) {
      std::vector<int> grown = groups.back();
      grown.push_back(axis);
      if (nests(in, grown) && nests(out, grown)) {
        groups.back() = std::move(grown);
        continue;
      }
    }
    groups.push_back({axis});
  }
  return groups;
}

execution describe(transform_kind kind, int direction, const ndarray& in, const ndarray& out, std::span<const int> axes) {
  const int ndim = out.ndim();
  const auto is = element_strides(in), os = element_strides(out);
  const ndarray& real_side = kind == transform_kind::c2r ? out : in;
  plan_key key;
  key.rank = static_cast<int>(axes.size());
  key.kind = kind;
  key.double_precision = out.dtype() == complex128 || out.dtype() == float64;
  key.direction = direction;
  key.callback = current_callback_identity();
  for (int i = 0; i < key.rank; ++i) {
    key.n[i] = real_side.shape()[axes[i]];
    key.inembed[i] = i == 0 ? in.shape()[axes[0]] : is[axes[i - 1]] / is[axes[i]];
    key.onembed[i] = i == 0 ? out.shape()[axes[0]] : os[axes[i - 1]] / os[axes[i]];
  }
  key.istride = is[axes.back()];
  key.ostride = os[axes.back()];
  // The other dimensions: merge those that nest in both layouts, make the longest the plan's
  // batch and loop over the rest.
  struct dim {
    std::int64_t n, in_stride, out_stride;
  };
  std::vector<dim> dims;
  for (int d = 0; d < ndim; ++d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end() || out.shape()[d] == 1) continue;
    dims.push_back({out.shape()[d], is[d], os[d]});
  }
  std::sort(dims.begin(), dims.end(), [](const dim& a, const dim& b) { return a.out_stride > b.out_stride; });
  std::vector<dim> merged;
  for (const dim& d : dims) {
    if (!merged.empty() && merged.back().in_stride == d.n * d.in_stride && merged.back().out_stride == d.n * d.out_stride) {
      merged.back() = {merged.back().n * d.n, d.in_stride, d.out_stride};
    } else {
      merged.push_back(d);
    }
  }
  std::vector<dim> loops;
  if (merged.empty()) {
    key.batch = 1;
    key.idist = is[axes[0]] * in.shape()[axes[0]];
    key.odist = os[axes[0]] * out.shape()[axes[0]];
  } else {
    // The real side of r2c/c2r must stay aligned to its complex counterpart in every pointer cupp
    // passes (cuFFT offsets its batches itself): a dimension with an odd real stride is the batch.
    auto real_stride = [&](const dim& d) { return kind == transform_kind::r2c ? d.in_stride : d.out_stride; };
    auto rank_of = [&](const dim& d) { return (kind != transform_kind::c2c && real_stride(d) % 2 != 0 ? (std::int64_t{1} << 62) : 0) + d.n; };
    auto longest = std::max_element(merged.begin(), merged.end(), [&](const dim& a, const dim& b) { return rank_of(a) < rank_of(b); });
    key.batch = longest->n;
    key.idist = longest->in_stride;
    key.odist = longest->out_stride;
    merged.erase(longest);
    loops = std::move(merged);
    bool tiled = false;
    // Strided columns (cuFFT reads them in two passes over memory for long axes): tiles of
    // adjacent columns, each transformed by one execution of a plan of the tile's batch, so the
    // second pass finds the tile in L2. Not with user callbacks (their offsets would be a tile's).
    if (key.rank == 1 && key.idist == 1 && key.odist == 1 && key.istride > 1 && key.ostride > 1 &&
        current_callbacks() == nullptr) {
      const std::int64_t item = static_cast<std::int64_t>(std::max(in.itemsize(), out.itemsize()));
      const engine_options opt = get_engine_options();
      if (const std::int64_t t = column_tile(key.n[0], key.batch, item, opt.column_tile_bytes, opt.column_tile_min);
          t > 0 && (kind == transform_kind::c2c || t % 2 == 0)) {  // (real rows stay complex-aligned)
        loops.push_back({key.batch / t, t, t});  // innermost: the tiles of one loop index run together
        key.batch = t;
        tiled = true;
      }
    }
    // Not tiled: cupp's column kernel where it applies (engine_options), one pass over memory.
    const engine_options opt = get_engine_options();
    if (!tiled && opt.column_kernel != 0 && kind == transform_kind::c2c && key.rank == 1 && key.idist == 1 && key.odist == 1 &&
        key.istride > 1 && key.ostride > 1 && current_callbacks() == nullptr && key.n[0] >= opt.column_kernel_min_n) {
      const bool paired = opt.column_kernel == 3;
      const auto item = static_cast<std::int64_t>(out.itemsize());
      if (opt.column_kernel == 4 && axis_four_step_split(key.n[0], item).n1 != 0 &&
          axis_slab_columns(key.n[0], key.batch, item, opt.axis_slab_bytes) > 0) {
        key.engine = 6;  // the axis four-step transform (no block count minimum: its grid loops)
        key.width = axis_four_step_split(key.n[0], item).w1;
      }
      const int w = paired ? pair_width(key.n[0], item, opt.column_kernel_width)
                           : column_width(key.n[0], item, opt.column_kernel_width);
      std::int64_t blocks = (paired ? 2 : 1) * ((key.batch + w - 1) / std::max(w, 1));
      for (const dim& d : loops) blocks *= d.n;
      if (key.engine == 0 && w > 0 && blocks >= opt.column_kernel_min_blocks) {
        key.engine = paired ? 3 : 1;
        key.width = w;
      }
    }
  }
  // Every pointer pair of the loop dimensions.
  std::vector<exec_pointers> runs;
  std::int64_t count = 1;
  for (const dim& d : loops) count *= d.n;
  runs.reserve(static_cast<std::size_t>(count));
  std::vector<std::int64_t> index(loops.size(), 0);
  char* in_base = static_cast<char*>(in.data());
  char* out_base = static_cast<char*>(out.data());
  const std::int64_t in_item = static_cast<std::int64_t>(in.itemsize()), out_item = static_cast<std::int64_t>(out.itemsize());
  for (std::int64_t r = 0; r < count; ++r) {
    std::int64_t ioff = 0, ooff = 0;
    for (std::size_t k = 0; k < loops.size(); ++k) {
      ioff += index[k] * loops[k].in_stride;
      ooff += index[k] * loops[k].out_stride;
    }
    runs.push_back({in_base + ioff * in_item, out_base + ooff * out_item});
    for (std::size_t k = loops.size(); k-- > 0;) {
      if (++index[k] < loops[k].n) break;
      index[k] = 0;
    }
  }
  execution e{key, std::move(runs), true};
  if (kind != transform_kind::c2c) {
    const bool real_in = kind == transform_kind::r2c;
    const std::uintptr_t align = 2 * (real_in ? in.itemsize() : out.itemsize());
    for (const exec_pointers& r : e.runs)
      if (reinterpret_cast<std::uintptr_t>(real_in ? r.in : r.out) % align != 0) e.aligned = false;
  }
  return e;
}

int row_width(std::int64_t n) noexcept {
  if (n < 256 || n > 4096 || (n & (n - 1)) != 0) return 0;
  return static_cast<int>(4096 / n);
}

bool four_step_applies(const plan_key& key, const engine_options& opt) noexcept {
  const std::int64_t n = key.n[0];
  return key.kind == transform_kind::c2c && key.rank == 1 && key.callback == 0 && key.istride == 1 &&
         key.ostride == 1 && (key.batch == 1 || (key.idist == n && key.odist == n)) && n >= opt.long_kernel_min_n &&
         four_step_split(n, key.double_precision ? 16 : 8).n1 != 0;
}

plan_key scaled_key(const execution& e, double scale, const engine_options& opt, bool user_callbacks) {
  plan_key key = e.key;
  // The four-step long transform: the factor in its second pass's stores (long_kernel 1), or
  // wherever it applies (2).
  if (!user_callbacks && key.engine == 0 && (opt.long_kernel == 2 || (opt.long_kernel == 1 && scale != 1.0)) &&
      four_step_applies(key, opt)) {
    key.engine = 5;
    key.width = four_step_split(key.n[0], key.double_precision ? 16 : 8).w1;
    key.scale = scale;
    key.scale_form = 0;
    return key;
  }
  // column_kernel 1: complex64 without a factor stays with cuFFT's strided plan (measured a tie).
  if (key.engine == 1 && opt.column_kernel == 1 && !key.double_precision && (scale == 1.0 || user_callbacks)) {
    key.engine = 0;
    key.width = 0;
  }
  if (scale == 1.0 || user_callbacks) return key;
  if (key.engine == 1 || key.engine == 3 || key.engine == 6) {  // the column kernels apply the factor in their stores, whatever norm_callback says
    key.scale = scale;
    key.scale_form = 0;
    return key;
  }
  std::int64_t points = key.batch * static_cast<std::int64_t>(e.runs.size());
  for (int i = 0; i < key.rank; ++i) points *= key.n[i];
  // Strided transforms keep the pass: axis 0 of 4096^2 complex64 with the callback took 0.435 ms
  // against 0.143 ms without it (the pass adds about 0.07 ms).
  const bool batched_rows =
      key.batch >= 2 && points >= opt.norm_callback_min_elements && key.istride == 1 && key.ostride == 1;
  if (opt.norm_callback == -1 && opt.norm_row_kernel != 0 && batched_rows && key.kind == transform_kind::c2c &&
      key.rank == 1 && row_width(key.n[0]) > 0) {
    key.engine = opt.norm_row_kernel == 2 ? 4 : 2;  // cupp's row kernel (4: pipelined): the factor in its stores
    key.width = row_width(key.n[0]);
    key.scale = scale;
    key.scale_form = 0;
  } else if (opt.norm_callback == 1 || (opt.norm_callback == -1 && batched_rows)) {
    key.scale = scale;
    key.scale_form = opt.norm_callback_form;
  }
  return key;
}

bool execute(transform_kind kind, int direction, const ndarray& in, const ndarray& out, std::span<const int> axes,
             double scale, bool* scaled) {
  const execution e = describe(kind, direction, in, out, axes);
  require_one_execution(e.runs.size() == 1, "needs a loop of executions over its other axes");
  if (!e.aligned) return false;
  // The norm factor (engine_options and scaled_key say where): measured on the H200 (docs/fft.md),
  // cupp's store callback costs about a quarter of the transform on large batched rows, where a
  // scaling pass costs about a second transform, but makes one long transform (batch 1) several
  // times slower.
  const plan_key key = scaled_key(e, scale, get_engine_options(), current_callbacks() != nullptr);
  const int device = out.device();
  cupp::detail::device_scope scope(device);
  const std::shared_ptr<plan> p = get_plan(key, device);
  p->execute(e.runs, cuda::detail::current_stream_handle(device));
  if (scaled) *scaled = key.scale != 1.0 && p->scales();  // (false where cuFFT refused the callback plan)
  return true;
}

ndarray resized_copy(const ndarray& a, std::span<const int> axes, std::span<const std::int64_t> sizes, dtype type,
                     bool conjugate) {
  std::vector<std::int64_t> shape = shape_of(a);
  bool pad = false;
  std::vector<index_item> items = full_slices(a.ndim());
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int axis = axes[i];
    pad = pad || sizes[i] > a.shape()[axis];
    items[axis] = slice(0, std::min(sizes[i], a.shape()[axis]));
    shape[axis] = sizes[i];
  }
  ndarray dst = pad ? zeros(shape, type) : empty(shape, type);
  const ndarray part = dst.index(items), from = a.index(items);
  if (part.size() == 0) return dst;
  if (conjugate && is_complex(a.dtype())) cupp::conjugate(from, {.out = part});
  else part.assign(from);
  return dst;
}

void check_out_shape(const ndarray& out, std::span<const std::int64_t> shape) {
  if (out.is_null()) return;
  if (!std::equal(out.shape().begin(), out.shape().end(), shape.begin(), shape.end()))
    throw ValueError("output array has wrong shape.");
}

ndarray c2c(const ndarray& a, std::vector<int> axes, std::vector<std::int64_t> sizes, int direction, double scale,
            const ndarray& out, bool owned) {
  // A repeated axis: NumPy transforms it again; run the axes one by one, the last first.
  std::vector<int> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    require_one_execution(false, "repeats an axis");
    ndarray x = a;
    bool x_owned = owned;
    for (std::size_t i = axes.size(); i-- > 0;) {
      x = c2c(x, {axes[i]}, {sizes[i]}, direction, i == 0 ? scale : 1.0, i == 0 ? out : ndarray(), x_owned);
      x_owned = true;
    }
    return x;
  }
  const transform_dtypes t = dtypes_of(a.dtype());
  std::vector<std::int64_t> shape = shape_of(a);
  bool pad = false;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    pad = pad || sizes[i] > shape[axes[i]];
    shape[axes[i]] = sizes[i];
  }
  check_out_shape(out, shape);
  ndarray src = a;
  bool src_owned = owned;
  if (a.dtype() != t.complex_type || pad) {
    src = resized_copy(a, axes, sizes, t.complex_type);
    src_owned = true;
  } else if (shape != shape_of(a)) {  // cropping only: a view
    std::vector<index_item> items = full_slices(a.ndim());
    for (std::size_t i = 0; i < axes.size(); ++i) items[axes[i]] = slice(0, sizes[i]);
    src = a.index(items);
  }
  if (!usable_layout(src, t.complex_type.itemsize())) {
    src = ascontiguousarray(src);
    src_owned = true;
  }
  ndarray dst = destination(out, src, src_owned, t.complex_type, shape, true);
  if (dst.size() == 0) return finish(dst, out);
  // A 1-point transform is the identity: such axes join no plan (their strides can be anything).
  std::vector<int> planned;
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (sizes[i] > 1) planned.push_back(axes[i]);
  require_one_execution(!planned.empty(), "is 1-point along every axis (no cuFFT kernel runs)");
  if (planned.empty()) {
    if (!same_view(dst, src)) dst.assign(src);
  } else {
    const auto groups = plan_groups(src, dst, planned, config::get_enable_nd_planning());
    require_one_execution(groups.size() == 1, "needs several plans");
    for (std::size_t g = 0; g < groups.size(); ++g) {
      bool scaled = false;  // the factor goes into the last plan's store callback where it pays
      execute(transform_kind::c2c, direction, g == 0 ? src : dst, dst, groups[g], g + 1 == groups.size() ? scale : 1.0,
              &scaled);
      if (scaled) scale = 1.0;
    }
  }
  scale_in_place(dst, scale);
  return finish(dst, out);
}

ndarray r2c(const ndarray& a, int axis, std::int64_t n, double scale, const ndarray& out) {
  if (is_complex(a.dtype()))
    throw TypeError(std::string("ufunc '") + (n % 2 == 0 ? "rfft_n_even" : "rfft_n_odd") +
                    "' did not contain a loop with signature matching types (" + a.dtype().name() + " input)");
  const transform_dtypes t = dtypes_of(a.dtype());
  std::vector<std::int64_t> shape = shape_of(a);
  shape[axis] = n / 2 + 1;
  check_out_shape(out, shape);
  const int axes[] = {axis};
  const std::int64_t sizes[] = {n};
  ndarray src = a;
  if (a.dtype() != t.real_type || n > a.shape()[axis]) {
    src = resized_copy(a, axes, sizes, t.real_type);
  } else if (n < a.shape()[axis]) {
    std::vector<index_item> items = full_slices(a.ndim());
    items[axis] = slice(0, n);
    src = a.index(items);
  }
  if (!usable_layout(src, 2 * t.real_type.itemsize())) src = ascontiguousarray(src);
  if (!usable_layout(src, 2 * t.real_type.itemsize())) src = src.copy();  // (a 0-offset C copy is aligned)
  ndarray dst = destination(out, src, false, t.complex_type, shape, false);
  if (dst.size() > 0) {
    require_one_execution(n > 1, "is 1-point (no cuFFT kernel runs)");
    if (n == 1) {
      dst.assign(src);  // the identity (cuFFT plans no 1-point transform)
    } else if (bool scaled = false; execute(transform_kind::r2c, forward_direction, src, dst, axes, scale, &scaled)) {
      if (scaled) scale = 1.0;
    } else {
      require_one_execution(false, "reads real rows cuFFT cannot take where they lie");
      // Loops over real rows that are not aligned for cuFFT: transform a copy with the axis last.
      const ndarray moved = ascontiguousarray(src.moveaxis(axis, -1));
      std::vector<std::int64_t> moved_shape = shape_of(moved);
      moved_shape.back() = n / 2 + 1;
      const ndarray result = empty(moved_shape, t.complex_type);
      const int last[] = {moved.ndim() - 1};
      bool moved_scaled = false;
      execute(transform_kind::r2c, forward_direction, moved, result, last, scale, &moved_scaled);
      if (moved_scaled) scale = 1.0;
      dst.assign(result.moveaxis(-1, axis));
    }
    scale_in_place(dst, scale);
  }
  return finish(dst, out);
}

ndarray c2r(const ndarray& a, int axis, std::int64_t n, double scale, const ndarray& out, bool conjugate, bool owned) {
  const transform_dtypes t = dtypes_of(a.dtype());
  const std::int64_t m = n / 2 + 1;  // the input points used
  std::vector<std::int64_t> shape = shape_of(a);
  shape[axis] = n;
  check_out_shape(out, shape);
  const int axes[] = {axis};
  // cuFFT overwrites a complex-to-real input: the caller's array is copied (cast, conjugated,
  // cropped or zero-padded to m points in the same pass); a temporary of ours is used as it is.
  ndarray src = a;
  const bool reuse = owned && !conjugate && a.dtype() == t.complex_type && a.shape()[axis] == m &&
                     usable_layout(a, t.complex_type.itemsize());
  if (!reuse) {
    const std::int64_t sizes[] = {m};
    src = resized_copy(a, axes, sizes, t.complex_type, conjugate);
  }
  // NumPy's irfft reads only the real parts of the zero and (even n) Nyquist frequencies;
  // cuFFT's result depends on their imaginary parts, so they are zeroed.
  if (src.size() > 0) {
    std::vector<index_item> items = full_slices(src.ndim());
    items[axis] = std::int64_t{0};
    src.index(items).imag().fill(weak_scalar(0));
    if (n % 2 == 0 && m > 1) {
      items[axis] = m - 1;
      src.index(items).imag().fill(weak_scalar(0));
    }
  }
  ndarray dst = destination(out, src, false, t.real_type, shape, false);
  if (dst.size() > 0) {
    require_one_execution(n > 1, "is 1-point (no cuFFT kernel runs)");
    if (n == 1) {
      dst.assign(src.real());  // the identity on the real part
    } else if (bool scaled = false; execute(transform_kind::c2r, inverse_direction, src, dst, axes, scale, &scaled)) {
      if (scaled) scale = 1.0;
    } else {
      require_one_execution(false, "writes real rows cuFFT cannot take where they lie");
      // Real rows of the result not aligned for cuFFT: into a temporary with the axis last.
      const ndarray moved = ascontiguousarray(src.moveaxis(axis, -1));
      std::vector<std::int64_t> moved_shape = shape_of(moved);
      moved_shape.back() = n;
      const ndarray result = empty(moved_shape, t.real_type);
      const int last[] = {moved.ndim() - 1};
      bool moved_scaled = false;
      execute(transform_kind::c2r, inverse_direction, moved, result, last, scale, &moved_scaled);
      if (moved_scaled) scale = 1.0;
      dst.assign(result.moveaxis(-1, axis));
    }
    scale_in_place(dst, scale);
  }
  if (out.is_null() && t.factor_type != t.real_type) return astype(dst, t.factor_type);
  return finish(dst, out);
}

}  // namespace cupp::fft::detail
