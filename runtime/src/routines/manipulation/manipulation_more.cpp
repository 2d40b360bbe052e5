// The manipulation routines that compute (cupp/manipulation.hpp): pad, clip, where, round/around,
// nan_to_num, angle, trim_zeros, interp, convolve and correlate. Shapes, widths, modes and dtypes
// are checked on the host first; then one kernel does the work:
//   - clip, where and nan_to_num run on the ufunc engine (NEP 50 resolution, broadcasting, out=,
//     order K) through op_specs defined here (manipulation_kernels.hpp says why not spec files);
//   - pad gathers every output element from per-axis source index maps made on the host (one
//     kernel for constant/edge/reflect/symmetric/wrap; constant pads take the value of the last
//     axis that pads them); linear_ramp, the statistic modes and reflect_type='odd' follow
//     NumPy's axis-by-axis algorithm on views of the output (linspace, max/min/mean/median over
//     the edge regions, 2 * edge - chunk), a few kernels per axis and no host loop over elements;
//   - interp binary-searches xp per element of x with NumPy's arithmetic, no fused multiply-add;
//   - convolve/correlate: one thread per output element sums its products directly (O(n*m)).
// round, angle and trim_zeros compose ufuncs, reductions and views as NumPy's Python code does.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/statistics.hpp"
#include "engine/internal.hpp"
#include "engine/loop_resolution.hpp"
#include "routines/manipulation/manipulation_kernels.hpp"

namespace cupp {

namespace {

using std::int64_t;

std::string str(int64_t v) { return std::to_string(v); }

// ---------------------------------------------------------------------------------------------
// element-wise ops without a spec file

// An op_spec with the storage its views point into (built once, never moved or freed: the engine
// keys its tables by the op_spec's address).
struct internal_op {
  std::string name, kernel_name;
  std::vector<std::vector<type_id>> types;  // per loop: inputs, then the output
  std::vector<std::string> bodies;
  std::vector<loop_spec> loops;
  op_spec spec{};
};

struct loop_def {
  std::vector<type_id> types;
  std::string body;
};

std::unique_ptr<internal_op> make_internal_op(std::string name, std::string doc_unused, int nin,
                                              std::vector<loop_def> defs) {
  (void)doc_unused;
  auto op = std::make_unique<internal_op>();
  op->name = std::move(name);
  // ':' never appears in a built-in, loaded or ElementwiseKernel name: this key is the routine's own.
  op->kernel_name = "routine:" + op->name + ":1";
  for (loop_def& d : defs) {
    op->types.push_back(std::move(d.types));
    op->bodies.push_back(std::move(d.body));
  }
  for (std::size_t i = 0; i < op->types.size(); ++i) {
    const std::span<const type_id> all(op->types[i]);
    op->loops.push_back({all.first(static_cast<std::size_t>(nin)), all.subspan(static_cast<std::size_t>(nin)),
                         op->bodies[i], false});
  }
  op->spec = op_spec{op->name, "", nin, 1, {}, "", false, op->loops};
  op->spec.kernel_name = op->kernel_name;
  return op;
}

// NumPy's loop order of the 'all' group (specs/dtypes.yaml).
constexpr type_id all_types[] = {type_id::bool_,   type_id::int8,    type_id::uint8,     type_id::int16,
                                 type_id::uint16,  type_id::int32,   type_id::uint32,    type_id::int64,
                                 type_id::uint64,  type_id::float16, type_id::bfloat16,  type_id::float32,
                                 type_id::float64, type_id::complex64, type_id::complex128};

bool is_complex(type_id t) { return t == type_id::complex64 || t == type_id::complex128; }
bool is_float(type_id t) {
  return t == type_id::float16 || t == type_id::bfloat16 || t == type_id::float32 || t == type_id::float64;
}

const ufunc& clip_ufunc() {
  static const ufunc f = detail::loaded_ufunc(detail::clip_op());
  return f;
}
const ufunc& nan_to_num_ufunc() {
  static const ufunc f = detail::loaded_ufunc(detail::nan_to_num_op());
  return f;
}

// A weak scalar as NumPy's np.asarray(python_scalar) would make it: bool, int64 (uint64 above
// int64's range), float64 or complex128; a 0-d array on the current device.
ndarray default_scalar_array(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_: return scalar(s, bool_);
    case weak_scalar::kind::int_:
      return scalar(s, !s.is_negative() && s.magnitude() > std::uint64_t(std::numeric_limits<int64_t>::max())
                           ? dtype(uint64)
                           : dtype(int64));
    case weak_scalar::kind::float_: return scalar(s, float64);
    default: return scalar(s, complex128);
  }
}

// The same kind with value zero: what result_type needs to know of a weak scalar without its value
// deciding anything (NumPy's where casts the value afterwards, unsafely).
weak_scalar kind_only(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_: return weak_scalar(false);
    case weak_scalar::kind::int_: return weak_scalar(0);
    case weak_scalar::kind::float_: return weak_scalar(0.0);
    default: return weak_scalar(std::complex<double>(0.0, 0.0));
  }
}

// finfo(type).max of a real floating dtype.
double finfo_max(type_id t) {
  switch (t) {
    case type_id::float16: return 65504.0;
    case type_id::bfloat16: return 3.3895313892515355e38;
    case type_id::float32: return static_cast<double>(FLT_MAX);
    default: return DBL_MAX;
  }
}

ndarray new_c_array(std::span<const int64_t> shape, const dtype& type, int device) {
  return engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<int64_t>(type.itemsize())), type,
                                    device);
}

// ---------------------------------------------------------------------------------------------
// pad

// NumPy's _as_pairs: one pair per axis from one value, one pair, or ndim pairs.
template <class T>
std::vector<std::array<T, 2>> as_pairs(std::span<const std::array<T, 2>> given, bool broadcast, int ndim) {
  const auto n = static_cast<int64_t>(given.size());
  if (broadcast || n == 1) return std::vector<std::array<T, 2>>(static_cast<std::size_t>(ndim), given[0]);
  if (n != ndim)
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: (" +
                     str(n) + ",2)  and requested shape (" + str(ndim) + ",2)");
  return std::vector<std::array<T, 2>>(given.begin(), given.end());
}

// The source index along one axis of length n for relative position r (r < 0: before the
// array, r >= n: after it); -1 / -2 for a constant pad before / after.
int64_t pad_source(std::string_view mode, int64_t r, int64_t n) {
  if (r >= 0 && r < n) return r;
  auto mod = [](int64_t x, int64_t m) { return ((x % m) + m) % m; };
  if (mode == "constant" || mode == "empty") return r < 0 ? -1 : -2;
  if (mode == "edge") return r < 0 ? 0 : n - 1;
  if (mode == "wrap") return mod(r, n);
  if (mode == "reflect") {
    if (n == 1) return 0;  // NumPy extends a singleton axis with its edge
    const int64_t period = 2 * (n - 1), m = mod(r, period);
    return m < n ? m : period - m;
  }
  // symmetric
  const int64_t period = 2 * n, m = mod(r, period);
  return m < n ? m : period - 1 - m;
}

// constant_values as an array of `type`, two per axis (before, after), cast as NumPy's
// assignment of its NumPy scalars does (unsafely).
ndarray pad_constants(const std::vector<std::array<weak_scalar, 2>>& pairs, const dtype& type) {
  bool any_complex = false, any_float = false, any_int = false, big = false;
  for (const auto& p : pairs) {
    for (const weak_scalar& s : p) {
      any_complex |= s.scalar_kind() == weak_scalar::kind::complex_;
      any_float |= s.scalar_kind() == weak_scalar::kind::float_;
      any_int |= s.scalar_kind() == weak_scalar::kind::int_;
      big |= s.scalar_kind() == weak_scalar::kind::int_ && !s.is_negative() &&
             s.magnitude() > std::uint64_t(std::numeric_limits<int64_t>::max());
    }
  }
  ndarray host_values;
  if (pairs.empty()) {
    host_values = asarray(std::vector<std::int64_t>{0});
  } else if (any_complex || any_float) {
    std::vector<std::complex<double>> v;
    for (const auto& p : pairs)
      for (const weak_scalar& s : p) v.emplace_back(s.real(), s.imag());
    host_values = asarray(v);
    if (!any_complex) host_values = astype(host_values, float64);
  } else if (any_int) {
    if (big) {
      std::vector<std::uint64_t> v;
      for (const auto& p : pairs)
        for (const weak_scalar& s : p) v.push_back(s.is_negative() ? std::uint64_t(0) - s.magnitude() : s.magnitude());
      host_values = asarray(v);
    } else {
      std::vector<std::int64_t> v;
      for (const auto& p : pairs)
        for (const weak_scalar& s : p)
          v.push_back(static_cast<int64_t>(s.is_negative() ? std::uint64_t(0) - s.magnitude() : s.magnitude()));
      host_values = asarray(v);
    }
  } else {
    std::vector<bool> v;
    for (const auto& p : pairs)
      for (const weak_scalar& s : p) v.push_back(s.magnitude() != 0);
    host_values = asarray(v);
  }
  return astype(host_values, type, casting::unsafe);
}

constexpr std::string_view pad_modes[] = {"constant", "edge",    "linear_ramp", "maximum", "mean", "median",
                                          "minimum",  "reflect", "symmetric",   "wrap",    "empty"};

// NumPy's allowed_kwargs of pad: the one keyword each mode takes (none for edge, wrap, empty).
std::string_view pad_keyword_of(std::string_view mode) {
  if (mode == "constant") return "constant_values";
  if (mode == "linear_ramp") return "end_values";
  if (mode == "maximum" || mode == "minimum" || mode == "mean" || mode == "median") return "stat_length";
  if (mode == "reflect" || mode == "symmetric") return "reflect_type";
  return {};
}

// `v` indexed by `s` along `axis` (every other axis whole): NumPy's _slice_at_axis.
ndarray along(const ndarray& v, int axis, const slice& s) {
  std::vector<index_item> items(static_cast<std::size_t>(v.ndim()), slice());
  items[static_cast<std::size_t>(axis)] = s;
  return v.index(items);
}

// linear_ramp's end values as linspace's start operands, made as NumPy's _as_pairs makes them:
// np.array(end_values) gives one dtype for all (bool, int64 (uint64 beyond it), float64 or
// complex128); one value or one pair stay NumPy scalars of it (strong 0-d arrays here), ndim
// pairs become Python numbers of its kind (weak scalars). The default is np.int64(0).
// Complex end values for an integer array: TypeError (NumPy's floor of the complex ramp), raised
// after the shape check and before any device work.
std::vector<std::array<operand, 2>> ramp_starts(const pad_values& given, int nd, const dtype& type) {
  if (!given.given()) {
    if (nd == 0) return {};
    const operand zero(scalar(weak_scalar(0), int64));
    return std::vector<std::array<operand, 2>>(static_cast<std::size_t>(nd), {zero, zero});
  }
  const std::vector<std::array<weak_scalar, 2>> pairs = as_pairs(given.pairs(), given.broadcast(), nd);
  weak_scalar::kind k = weak_scalar::kind::bool_;
  bool big = false, negative = false;
  for (const auto& p : given.pairs()) {
    for (const weak_scalar& v : p) {
      k = std::max(k, v.scalar_kind());
      negative |= v.is_negative();
      big |= v.scalar_kind() == weak_scalar::kind::int_ && !v.is_negative() &&
             v.magnitude() > std::uint64_t(std::numeric_limits<int64_t>::max());
    }
  }
  auto as_kind = [k](const weak_scalar& v) -> weak_scalar {
    switch (k) {
      case weak_scalar::kind::complex_: return weak_scalar(std::complex<double>(v.real(), v.imag()));
      case weak_scalar::kind::float_: return weak_scalar(v.real());
      case weak_scalar::kind::int_:
        if (v.scalar_kind() != weak_scalar::kind::bool_) return v;
        return weak_scalar(static_cast<int64_t>(v.magnitude()));
      default: return v;
    }
  };
  if (k == weak_scalar::kind::complex_ && type.is_integer() && nd > 0)
    throw TypeError("ufunc 'floor' not supported for the input types, and the inputs could not be safely coerced "
                    "to any supported types according to the casting rule ''safe''");
  const bool strong = given.pairs().size() == 1;
  dtype strong_type = bool_;
  if (k == weak_scalar::kind::complex_) strong_type = complex128;
  else if (k == weak_scalar::kind::float_) strong_type = float64;
  else if (k == weak_scalar::kind::int_) strong_type = big && !negative ? uint64 : int64;
  std::vector<std::array<operand, 2>> out;
  for (const auto& p : pairs) {
    std::array<operand, 2> pair{operand(0), operand(0)};
    for (std::size_t side = 0; side < 2; ++side)
      pair[side] = strong ? operand(scalar(as_kind(p[side]), strong_type)) : operand(as_kind(p[side]));
    out.push_back(std::move(pair));
  }
  return out;
}

// The modes NumPy computes axis by axis from the array padded so far (values, not positions).
enum class pad_step { gather, linear_ramp, maximum, minimum, mean, median, reflect_odd };

pad_step pad_step_of(std::string_view mode, bool odd) {
  if (mode == "linear_ramp") return pad_step::linear_ramp;
  if (mode == "maximum") return pad_step::maximum;
  if (mode == "minimum") return pad_step::minimum;
  if (mode == "mean") return pad_step::mean;
  if (mode == "median") return pad_step::median;
  if ((mode == "reflect" || mode == "symmetric") && odd) return pad_step::reflect_odd;
  return pad_step::gather;
}

// The statistic of `chunk` along `axis` (kept), rounded half to even when the padded array is of
// an integer dtype and the statistic is not (NumPy's _round_if_needed).
ndarray pad_statistic(pad_step step, const ndarray& chunk, int axis, const dtype& type) {
  ndarray s;
  switch (step) {
    case pad_step::maximum: s = cupp::max(chunk, {.axis = axis, .keepdims = true}); break;
    case pad_step::minimum: s = cupp::min(chunk, {.axis = axis, .keepdims = true}); break;
    case pad_step::mean: s = cupp::mean(chunk, {.axis = axis, .keepdims = true}); break;
    default: s = cupp::median(chunk, {.axis = axis, .keepdims = true}); break;
  }
  if (type.is_integer() && s.dtype().is_inexact()) s = rint(s);
  return s;
}

// NumPy's _set_reflect_both with reflect_type='odd' on one axis of `roi` (n: the original
// length, at least 2): chunks reflected about the current edge, 2 * edge - chunk, each chunk at
// most the filled length rounded to whole periods, until both pads are filled.
void reflect_odd_axis(const ndarray& roi, int axis, int64_t left, int64_t right, int64_t n, bool symmetric) {
  const int64_t total = roi.shape(axis);
  while (left > 0 || right > 0) {
    int64_t old = total - right - left;
    const int64_t edge_offset = symmetric ? 1 : 0;
    old = symmetric ? old / n * n : (old - 1) / (n - 1) * (n - 1);
    if (left > 0) {
      const int64_t chunk = std::min(old, left), stop = left - edge_offset;
      const ndarray reflected = along(roi, axis, slice(stop + chunk, stop, -1));
      const ndarray values = subtract(multiply(2, along(roi, axis, slice(left, left + 1))), reflected);
      engine::copy_into(along(roi, axis, slice(left - chunk, left)), values);
      left -= chunk;
    }
    if (right > 0) {
      const int64_t chunk = std::min(old, right), start = total - right + edge_offset - 2, stop = start - chunk;
      const ndarray reflected =
          along(roi, axis, slice(start, stop >= 0 ? std::optional<int64_t>(stop) : std::nullopt, -1));
      const ndarray values =
          subtract(multiply(2, along(roi, axis, slice(total - right - 1, total - right))), reflected);
      engine::copy_into(along(roi, axis, slice(total - right, total - right + chunk)), values);
      right -= chunk;
    }
  }
}

// pad for the modes NumPy computes from values (linear_ramp, the statistics, reflect_type='odd'):
// the original array copied into the middle, then per axis, in order, the pads of the region
// NumPy's _view_roi gives (every earlier axis whole, the later ones their original part).
ndarray pad_by_axes(const ndarray& array, const shape_t& shape, const std::vector<std::array<int64_t, 2>>& widths,
                    pad_step step, bool symmetric, const std::vector<std::array<operand, 2>>& starts,
                    const std::vector<std::array<int64_t, 2>>& lengths) {
  const int nd = array.ndim();
  const dtype type = array.dtype();
  ndarray out = new_c_array(shape, type, array.device());
  std::vector<index_item> original;
  for (int d = 0; d < nd; ++d) {
    const int64_t b = widths[static_cast<std::size_t>(d)][0];
    original.emplace_back(slice(b, b + array.shape(d)));
  }
  engine::copy_into(out.index(original), array);
  for (int d = 0; d < nd; ++d) {
    std::vector<index_item> items = original;
    for (int e = 0; e <= d; ++e) items[static_cast<std::size_t>(e)] = slice();
    const ndarray roi = out.index(items);
    const int64_t left = widths[static_cast<std::size_t>(d)][0], right = widths[static_cast<std::size_t>(d)][1];
    const int64_t n = array.shape(d), total = roi.shape(d);
    const ndarray left_pad = along(roi, d, slice(0, left)), right_pad = along(roi, d, slice(total - right, total));
    switch (step) {
      case pad_step::linear_ramp: {
        // np.linspace(end_value, edge, width, endpoint=False, dtype=array.dtype, axis=axis); the
        // right ramp reversed.
        const std::array<int, 1> axis{d};
        const ndarray left_edge = along(roi, d, slice(left, left + 1)).squeeze(axis);
        const ndarray right_edge = along(roi, d, slice(total - right - 1, total - right)).squeeze(axis);
        const linspace_options o{.endpoint = false, .dtype = type, .axis = d};
        const auto& s = starts[static_cast<std::size_t>(d)];
        if (left > 0) engine::copy_into(left_pad, linspace(s[0], left_edge, left, o));
        if (right > 0) {
          const ndarray r = linspace(s[1], right_edge, right, o);
          engine::copy_into(right_pad, along(r, d, slice(std::nullopt, std::nullopt, -1)));
        }
        break;
      }
      case pad_step::reflect_odd:
        if (left == 0 && right == 0) break;
        if (n == 1) {  // NumPy's legacy rule for a singleton axis: its edge (no reflection)
          engine::copy_into(left_pad, along(roi, d, slice(left, left + 1)));
          engine::copy_into(right_pad, along(roi, d, slice(left, left + 1)));
          break;
        }
        reflect_odd_axis(roi, d, left, right, n, symmetric);
        break;
      default: {
        // NumPy's _get_stats: the first / last stat_length (at most n) elements of the original
        // part of the axis. A side without pad needs no statistic (its errors were raised before).
        const int64_t left_length = lengths[static_cast<std::size_t>(d)][0];
        const int64_t right_length = lengths[static_cast<std::size_t>(d)][1];
        if (left > 0)
          engine::copy_into(left_pad, pad_statistic(step, along(roi, d, slice(left, left + left_length)), d, type));
        if (right > 0)
          engine::copy_into(right_pad, pad_statistic(step, along(roi, d, slice(left + n - right_length, left + n)),
                                                     d, type));
        break;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// convolve / correlate

enum class corr_mode { valid = 0, same = 1, full = 2 };

// NumPy 2's names, exactly (NumPy 1 also took any case and 0/1/2).
corr_mode parse_corr_mode(std::string_view mode) {
  if (mode == "valid") return corr_mode::valid;
  if (mode == "same") return corr_mode::same;
  if (mode == "full") return corr_mode::full;
  throw ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
}

// NumPy's _pyarray_correlate for 1-d a1 (length n1 >= n2) and a2 of the result dtype:
// out[k] = sum_j a1[k - n_left + j] * a2[j].
ndarray correlate_core(const ndarray& a1, const ndarray& a2, corr_mode mode) {
  const int64_t n1 = a1.shape(0), n2 = a2.shape(0);
  int64_t length = n1, n_left = 0;
  switch (mode) {
    case corr_mode::valid: length = n1 - n2 + 1; break;
    case corr_mode::same: n_left = n2 / 2; break;
    case corr_mode::full: n_left = n2 - 1; length = n1 + n2 - 1; break;
  }
  const ndarray& a = a1;
  const std::vector<ndarray> r = detail::correlate_kernel(a1.dtype()).call({a, a2, n1, n2, n_left}, length);
  return r.front();
}

// A 1-d input of correlate (exactly 1-d: NumPy's PyArray_FromAny(op, type, 1, 1)).
void require_1d(const ndarray& a) {
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// the kernels

namespace detail {

const op_spec& clip_op() {
  static const std::unique_ptr<internal_op> op = [] {
    std::vector<loop_def> loops;
    for (type_id t : all_types) {
      std::string body;
      if (is_complex(t)) {
        // NumPy's _NPY_MAX/_NPY_MIN for complex: a NaN part of the first operand keeps it; else
        // the lexicographic order (PyArray_CGE / PyArray_CLE).
        body =
            "const auto t_ = (::isnan(in0.re) || ::isnan(in0.im) || in0.re > in1.re || "
            "(in0.re == in1.re && in0.im >= in1.im)) ? in0 : in1;\n"
            "out0 = (::isnan(t_.re) || ::isnan(t_.im) || t_.re < in2.re || (t_.re == in2.re && t_.im <= in2.im)) "
            "? t_ : in2;";
      } else if (is_float(t)) {
        body =
            "const auto x_ = cupp::dev::up(in0), lo_ = cupp::dev::up(in1), hi_ = cupp::dev::up(in2);\n"
            "const auto t_ = ::isnan(x_) ? x_ : (x_ > lo_ ? x_ : lo_);\n"
            "out0 = cupp::dev::down<out0_t>(::isnan(t_) ? t_ : (t_ < hi_ ? t_ : hi_));";
      } else {
        body = "const in0_t t_ = in0 > in1 ? in0 : in1;\nout0 = t_ < in2 ? t_ : in2;";
      }
      loops.push_back({{t, t, t, t}, std::move(body)});
    }
    return make_internal_op("clip", "", 3, std::move(loops));
  }();
  return op->spec;
}

const op_spec& where_op() {
  static const std::unique_ptr<internal_op> op = [] {
    std::vector<loop_def> loops;
    for (type_id t : all_types) loops.push_back({{type_id::bool_, t, t, t}, "out0 = in0 ? in1 : in2;"});
    return make_internal_op("where", "", 3, std::move(loops));
  }();
  return op->spec;
}

const op_spec& nan_to_num_op() {
  static const std::unique_ptr<internal_op> op = [] {
    std::vector<loop_def> loops;
    for (type_id t : all_types) {
      if (is_float(t)) {
        loops.push_back({{t, type_id::float64, type_id::complex128, t},
                         "const auto x_ = cupp::dev::up(in0);\n"
                         "out0 = ::isnan(x_) ? cupp::dev::cast<out0_t>(in1)\n"
                         "     : ::isinf(x_) ? cupp::dev::cast<out0_t>(x_ > 0 ? in2.re : in2.im) : in0;"});
      } else if (is_complex(t)) {
        loops.push_back({{t, type_id::float64, type_id::complex128, t},
                         "using R_ = decltype(in0.re);\n"
                         "const auto fix_ = [&](R_ p) -> R_ {\n"
                         "  return ::isnan(p) ? static_cast<R_>(in1) : ::isinf(p) ? static_cast<R_>(p > R_(0) ? in2.re "
                         ": in2.im) : p;\n"
                         "};\n"
                         "out0 = out0_t(fix_(in0.re), fix_(in0.im));"});
      }
    }
    return make_internal_op("nan_to_num", "", 3, std::move(loops));
  }();
  return op->spec;
}

const ElementwiseKernel& pad_kernel() {
  // info: ndim, then the output's extents, the source's C-order element strides and each axis's
  // offset into the maps, then the maps (per axis, per output position: the source index, or -1 /
  // -2 for the constant before / after). vals: the constants, two per axis.
  static const ElementwiseKernel k("raw T a, raw int64 info, raw T vals", "T y",
                                   "const long long nd_ = info[0];\n"
                                   "long long k_ = i, src_ = 0, which_ = -1;\n"
                                   "for (long long d_ = nd_ - 1; d_ >= 0; --d_) {\n"
                                   "  const long long extent_ = info[1 + d_];\n"
                                   "  const long long c_ = k_ % extent_;\n"
                                   "  k_ /= extent_;\n"
                                   "  const long long s_ = info[info[1 + 2 * nd_ + d_] + c_];\n"
                                   "  if (s_ < 0) { if (which_ < 0) which_ = 2 * d_ + (s_ == -1 ? 0 : 1); }\n"
                                   "  else src_ += s_ * info[1 + nd_ + d_];\n"
                                   "}\n"
                                   "y = which_ >= 0 ? vals[which_] : a[src_];",
                                   "cupp_pad");
  return k;
}

const ElementwiseKernel& correlate_kernel(dtype type) {
  // Each output element k sums a1[k - n_left + j] * a2[j] over the j where both exist, in j's
  // order, as NumPy's dot functions do.
  static const std::string head =
      "const long long k_ = i;\n"
      "long long j0_ = n_left - k_;\n"
      "if (j0_ < 0) j0_ = 0;\n"
      "long long j1_ = n1 + n_left - k_;\n"
      "if (j1_ > n2) j1_ = n2;\n";
  static const std::string loop = "for (long long j_ = j0_; j_ < j1_; ++j_) ";
  static const std::string x = "a[k_ - n_left + j_]";
  const std::string params = "raw T a, raw T v, int64 n1, int64 n2, int64 n_left";
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ElementwiseKernel>> kernels;
  std::string category, body;
  const type_id t = type.id();
  if (t == type_id::bool_) {
    category = "bool";
    body = head + "bool acc_ = false;\n" + loop + "{ if (" + x + " && v[j_]) { acc_ = true; break; } }\nc = acc_;";
  } else if (t == type_id::float16 || t == type_id::bfloat16) {
    category = "half";
    body = head + "float acc_ = 0.0f;\n" + loop + "acc_ = __fadd_rn(acc_, __fmul_rn(cupp::dev::cast<float>(" + x +
           "), cupp::dev::cast<float>(v[j_])));\nc = cupp::dev::cast<T>(acc_);";
  } else if (t == type_id::float32 || t == type_id::float64) {
    category = "float";
    body = head + "T acc_ = T(0);\n" + loop + "acc_ = acc_ + cupp::dev::mul_rn(" + x + ", v[j_]);\nc = acc_;";
  } else if (is_complex(t)) {
    category = "complex";
    body = head + "T acc_ = T(0);\n" + loop + "acc_ = acc_ + " + x + " * v[j_];\nc = acc_;";
  } else {
    category = "integer";
    // Wrapping sums, as NumPy's (long) accumulators cast back to the dtype.
    body = head + "unsigned long long acc_ = 0;\n" + loop +
           "acc_ += static_cast<unsigned long long>(static_cast<long long>(" + x +
           ")) * static_cast<unsigned long long>(static_cast<long long>(v[j_]));\nc = static_cast<T>(acc_);";
  }
  const std::lock_guard lock(mutex);
  std::unique_ptr<ElementwiseKernel>& k = kernels[category];
  if (!k) k = std::make_unique<ElementwiseKernel>(params, "T c", body, "cupp_correlate_" + category);
  return *k;
}

const ElementwiseKernel& interp_kernel(bool complex_fp) {
  // NumPy's arr_interp / arr_interp_complex (compiled_base.c): binary_search_with_guess gives the
  // last j with xp[j] <= x (-1 below xp[0], len above xp[-1]); products and sums are rounded on
  // their own, as NumPy's C code computes them.
  static const std::string search =
      "const long long n_ = xp.size();\n"
      "long long j_ = 0;\n"
      "if (x > xp[n_ - 1]) j_ = n_;\n"
      "else if (x < xp[0]) j_ = -1;\n"
      "else {\n"
      "  long long lo_ = 0, hi_ = n_;\n"
      "  while (lo_ < hi_) {\n"
      "    const long long mid_ = lo_ + ((hi_ - lo_) >> 1);\n"
      "    if (x >= xp[mid_]) lo_ = mid_ + 1; else hi_ = mid_;\n"
      "  }\n"
      "  j_ = lo_ - 1;\n"
      "}\n";
  if (!complex_fp) {
    static const ElementwiseKernel k(
        "float64 x, raw float64 xp, raw float64 fp, float64 left, float64 right", "float64 y",
        "if (xp.size() == 1) {\n"
        "  y = x < xp[0] ? left : (x > xp[0] ? right : fp[0]);\n"
        "} else if (::isnan(x)) {\n"
        "  y = x;\n"
        "} else {\n" +
            search +
            "  if (j_ == -1) y = left;\n"
            "  else if (j_ == n_) y = right;\n"
            "  else if (j_ == n_ - 1) y = fp[j_];\n"
            "  else if (xp[j_] == x) y = fp[j_];\n"
            "  else {\n"
            "    const double slope_ = (fp[j_ + 1] - fp[j_]) / (xp[j_ + 1] - xp[j_]);\n"
            "    double r_ = __dadd_rn(__dmul_rn(slope_, x - xp[j_]), fp[j_]);\n"
            "    if (::isnan(r_)) {\n"
            "      r_ = __dadd_rn(__dmul_rn(slope_, x - xp[j_ + 1]), fp[j_ + 1]);\n"
            "      if (::isnan(r_) && fp[j_] == fp[j_ + 1]) r_ = fp[j_];\n"
            "    }\n"
            "    y = r_;\n"
            "  }\n"
            "}",
        "cupp_interp");
    return k;
  }
  static const ElementwiseKernel k(
      "float64 x, raw float64 xp, raw complex128 fp, complex128 left, complex128 right", "complex128 y",
      "if (xp.size() == 1) {\n"
      "  y = x < xp[0] ? left : (x > xp[0] ? right : fp[0]);\n"
      "} else if (::isnan(x)) {\n"
      "  y = cupp::dev::complex<double>(x, 0.0);\n"
      "} else {\n" +
          search +
          "  if (j_ == -1) y = left;\n"
          "  else if (j_ == n_) y = right;\n"
          "  else if (j_ == n_ - 1) y = fp[j_];\n"
          "  else if (xp[j_] == x) y = fp[j_];\n"
          "  else {\n"
          "    const double inv_dx_ = 1.0 / (xp[j_ + 1] - xp[j_]);\n"
          "    const double sr_ = (fp[j_ + 1].re - fp[j_].re) * inv_dx_;\n"
          "    const double si_ = (fp[j_ + 1].im - fp[j_].im) * inv_dx_;\n"
          "    double re_ = __dadd_rn(__dmul_rn(sr_, x - xp[j_]), fp[j_].re);\n"
          "    if (::isnan(re_)) {\n"
          "      re_ = __dadd_rn(__dmul_rn(sr_, x - xp[j_ + 1]), fp[j_ + 1].re);\n"
          "      if (::isnan(re_) && fp[j_].re == fp[j_ + 1].re) re_ = fp[j_].re;\n"
          "    }\n"
          "    double im_ = __dadd_rn(__dmul_rn(si_, x - xp[j_]), fp[j_].im);\n"
          "    if (::isnan(im_)) {\n"
          "      im_ = __dadd_rn(__dmul_rn(si_, x - xp[j_ + 1]), fp[j_ + 1].im);\n"
          "      if (::isnan(im_) && fp[j_].im == fp[j_ + 1].im) im_ = fp[j_].im;\n"
          "    }\n"
          "    y = cupp::dev::complex<double>(re_, im_);\n"
          "  }\n"
          "}",
      "cupp_interp_complex");
  return k;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// pad

ndarray pad(const ndarray& array, const pad_widths& pad_width, const pad_options& options) {
  detail::require_array(array, "pad");
  const int nd = array.ndim();
  if (pad_width.pairs().empty()) throw ValueError("pad_width must not be empty");
  for (const auto& p : pad_width.pairs())
    if (p[0] < 0 || p[1] < 0) throw ValueError("index can't contain negative values");
  std::vector<std::array<int64_t, 2>> widths = as_pairs(pad_width.pairs(), pad_width.broadcast(), nd);
  const std::string_view mode = options.mode;
  if (std::find(std::begin(pad_modes), std::end(pad_modes), mode) == std::end(pad_modes))
    throw ValueError("mode '" + std::string(mode) + "' is not supported");
  {
    // NumPy's allowed_kwargs: the keywords given that the mode does not take, as a Python set.
    const std::string_view allowed = pad_keyword_of(mode);
    std::string unsupported;
    const std::pair<std::string_view, bool> given[] = {{"constant_values", options.constant_values.given()},
                                                       {"end_values", options.end_values.given()},
                                                       {"stat_length", options.stat_length.given()},
                                                       {"reflect_type", !options.reflect_type.empty()}};
    for (const auto& [name, is_given] : given)
      if (is_given && name != allowed) unsupported += (unsupported.empty() ? "'" : ", '") + std::string(name) + "'";
    if (!unsupported.empty())
      throw ValueError("unsupported keyword arguments for mode '" + std::string(mode) + "': {" + unsupported + "}");
  }
  std::vector<std::array<weak_scalar, 2>> values;
  if (mode == "constant" && options.constant_values.given())
    values = as_pairs(options.constant_values.pairs(), options.constant_values.broadcast(), nd);
  if (array.size() == 0 && mode != "constant" && mode != "empty") {
    for (int d = 0; d < nd; ++d) {
      const auto& w = widths[static_cast<std::size_t>(d)];
      if (array.shape(d) == 0 && (w[0] > 0 || w[1] > 0))
        throw ValueError("can't extend empty axis " + str(d) + " using modes other than 'constant' or 'empty'");
    }
  }
  const pad_step step = pad_step_of(mode, options.reflect_type == "odd");
  // NumPy reads end_values and stat_length only for a non-empty array (its array.size == 0
  // branch comes first), and raises their errors at the first axis it pads (none for 0-d).
  std::vector<std::array<operand, 2>> starts;
  std::vector<std::array<int64_t, 2>> lengths;
  if (array.size() != 0 && step == pad_step::linear_ramp) {
    starts = ramp_starts(options.end_values, nd, array.dtype());
  }
  if (array.size() != 0 && step != pad_step::gather && step != pad_step::linear_ramp &&
      step != pad_step::reflect_odd) {
    const pad_widths& given = options.stat_length;
    for (const auto& p : given.pairs())
      if (p[0] < 0 || p[1] < 0) throw ValueError("index can't contain negative values");
    lengths = given.given() ? as_pairs(given.pairs(), given.broadcast(), nd)
                            : std::vector<std::array<int64_t, 2>>(static_cast<std::size_t>(nd), {-1, -1});
    for (int d = 0; d < nd; ++d) {
      for (int64_t& l : lengths[static_cast<std::size_t>(d)])
        if (l < 0 || l > array.shape(d)) l = array.shape(d);  // None, or beyond the axis
      const auto& l = lengths[static_cast<std::size_t>(d)];
      if ((l[0] == 0 || l[1] == 0) && (step == pad_step::maximum || step == pad_step::minimum))
        throw ValueError("stat_length of 0 yields no value for padding");
    }
  }
  shape_t shape;
  for (int d = 0; d < nd; ++d) {
    const auto& w = widths[static_cast<std::size_t>(d)];
    shape.push_back(array.shape(d) + w[0] + w[1]);
  }
  layout::checked_size(shape);
  cuda::DeviceGuard guard(array.device());
  if (nd == 0) return array.copy();
  const int64_t total = layout::checked_size(shape);
  if (mode == "empty" || total == 0) {
    ndarray out = new_c_array(shape, array.dtype(), array.device());
    if (total == 0 || array.size() == 0) return out;
    // The original area; the pads stay uninitialised (NumPy's np.empty).
    std::vector<index_item> items;
    for (int d = 0; d < nd; ++d) {
      const int64_t b = widths[static_cast<std::size_t>(d)][0];
      items.emplace_back(slice(b, b + array.shape(d)));
    }
    engine::copy_into(out.index(items), array);
    return out;
  }
  if (step != pad_step::gather)
    return pad_by_axes(array, shape, widths, step, mode == "symmetric", starts, lengths);
  // info: nd, extents, source strides (C order, elements), map offsets, maps.
  std::vector<int64_t> info{nd};
  info.insert(info.end(), shape.begin(), shape.end());
  std::vector<int64_t> strides(static_cast<std::size_t>(nd), 1);
  for (int d = nd - 2; d >= 0; --d) strides[static_cast<std::size_t>(d)] = strides[static_cast<std::size_t>(d + 1)] * array.shape(d + 1);
  info.insert(info.end(), strides.begin(), strides.end());
  int64_t offset = 1 + 3 * static_cast<int64_t>(nd);
  for (int d = 0; d < nd; ++d) {
    info.push_back(offset);
    offset += shape[static_cast<std::size_t>(d)];
  }
  for (int d = 0; d < nd; ++d) {
    const int64_t before = widths[static_cast<std::size_t>(d)][0], n = array.shape(d);
    for (int64_t p = 0; p < shape[static_cast<std::size_t>(d)]; ++p) info.push_back(pad_source(mode, p - before, n));
  }
  const ndarray info_array = asarray(info);
  std::vector<std::array<weak_scalar, 2>> constant_pairs = values;
  if (constant_pairs.empty())
    constant_pairs.assign(static_cast<std::size_t>(nd), {weak_scalar(0), weak_scalar(0)});
  const ndarray vals = pad_constants(constant_pairs, array.dtype());
  // A source with no elements (constant pads only) still binds T: one element of the dtype.
  const ndarray source = array.size() == 0 ? vals(slice(0, 1)) : array;
  const std::vector<ndarray> r = detail::pad_kernel().call({source, info_array, vals}, total);
  return r.front().reshape(shape);
}

// ---------------------------------------------------------------------------------------------
// clip, where

ndarray clip(const ndarray& a, const std::optional<operand>& a_min, const std::optional<operand>& a_max,
             const ufunc_options& options) {
  detail::require_array(a, "clip");
  std::optional<operand> lo, hi;
  if (a_min) lo = operand::borrow(*a_min);
  if (a_max) hi = operand::borrow(*a_max);
  const type_id t = a.dtype().id();
  const bool integer = a.dtype().is_builtin() && (detail::builtin_kind[static_cast<int>(t)] == 'i' ||
                                                  detail::builtin_kind[static_cast<int>(t)] == 'u');
  if (integer) {
    // NumPy's _clip: a Python int at or beyond the dtype's minimum / maximum is no bound (NEP 50:
    // no value-based promotion).
    const auto int_value = [](const weak_scalar& s) -> long double {
      return s.is_negative() ? -static_cast<long double>(s.magnitude()) : static_cast<long double>(s.magnitude());
    };
    long double type_min = 0, type_max = 0;
    switch (t) {
      case type_id::int8: type_min = -128, type_max = 127; break;
      case type_id::int16: type_min = -32768, type_max = 32767; break;
      case type_id::int32: type_min = -2147483648.0L, type_max = 2147483647.0L; break;
      case type_id::int64: type_min = -9223372036854775808.0L, type_max = 9223372036854775807.0L; break;
      case type_id::uint8: type_max = 255; break;
      case type_id::uint16: type_max = 65535; break;
      case type_id::uint32: type_max = 4294967295.0L; break;
      default: type_max = 18446744073709551615.0L; break;
    }
    const auto python_int = [](const std::optional<operand>& b) {
      return b && !b->is_array() && b->scalar().scalar_kind() == weak_scalar::kind::int_;
    };
    // (long double holds every int64/uint64 value exactly on x86-64; the comparisons are exact.)
    if (python_int(lo) && int_value(lo->scalar()) <= type_min) lo.reset();
    if (python_int(hi) && int_value(hi->scalar()) >= type_max) hi.reset();
  }
  if (!lo && !hi) return positive(a, options);
  if (!lo) return minimum(a, *hi, options);
  if (!hi) return maximum(a, *lo, options);
  const operand inputs[] = {operand(a), operand::borrow(*lo), operand::borrow(*hi)};
  std::vector<ndarray> r = clip_ufunc().call(inputs, options);
  return std::move(r.front());
}

ndarray where(const operand& condition, const operand& x, const operand& y) {
  // The condition as bool (nonzero is true, NaN too), as NumPy's unsafe cast to bool.
  ndarray cond;
  if (condition.is_array()) {
    detail::require_array(condition.array(), "where");
    cond = condition.array().dtype().is_bool() ? condition.array() : astype(condition.array(), bool_);
  } else {
    const weak_scalar& s = condition.scalar();
    cond = scalar(weak_scalar(s.magnitude() != 0 || s.real() != 0.0 || s.imag() != 0.0 || std::isnan(s.real()) ||
                              std::isnan(s.imag())),
                  bool_);
  }
  std::vector<dtype> arrays;
  std::vector<weak_scalar> scalars;
  for (const operand* o : {&x, &y}) {
    if (o->is_array()) {
      detail::require_array(o->array(), "where");
      detail::require_not_structured(o->array().dtype(), "where");
      arrays.push_back(o->array().dtype());
    } else {
      scalars.push_back(kind_only(o->scalar()));
    }
  }
  const dtype common = result_type(arrays, scalars);
  std::optional<cuda::DeviceGuard> guard;
  if (condition.is_array()) guard.emplace(condition.array().device());
  else if (x.is_array()) guard.emplace(x.array().device());
  else if (y.is_array()) guard.emplace(y.array().device());
  // Weak scalars become NumPy's np.asarray(value) and are cast unsafely to the common dtype in the
  // kernel; arrays are cast in the kernel too (no copies).
  const ndarray xs = x.is_array() ? x.array() : default_scalar_array(x.scalar());
  const ndarray ys = y.is_array() ? y.array() : default_scalar_array(y.scalar());
  const op_spec& op = detail::where_op();
  std::size_t loop = 0;
  while (loop < op.loops.size() && op.loops[loop].out[0] != common.id()) ++loop;
  if (loop == op.loops.size())
    throw TypeError("where: no loop for dtype " + engine::dtype_repr(common));
  const operand inputs[] = {operand(cond), operand(xs), operand(ys)};
  std::vector<ndarray> r = engine::execute(op, loop, inputs, {});
  return std::move(r.front());
}

// ---------------------------------------------------------------------------------------------
// round, nan_to_num, angle, trim_zeros

namespace {

// NumPy's power_of_ten (calculation.c).
double power_of_ten(int n) {
  static constexpr double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  if (n < 9) return p10[n];
  double ret = 1e9;
  while (n-- > 9) ret *= 10.;
  return ret;
}

ndarray round_impl(const ndarray& a, int decimals) {
  detail::require_array(a, "round");
  const dtype type = a.dtype();
  if (type.is_complex()) {
    ndarray res = a.copy();
    copyto(res.real(), round_impl(a.real(), decimals), casting::unsafe);
    copyto(res.imag(), round_impl(a.imag(), decimals), casting::unsafe);
    return res;
  }
  const char kind = type.is_builtin() ? detail::builtin_kind[static_cast<int>(type.id())] : 'V';
  const bool integer = kind == 'i' || kind == 'u';
  if (decimals >= 0) {
    if (integer) return a;  // NumPy returns the array itself
    if (decimals == 0) return rint(a);
  }
  const bool negative = decimals < 0;
  const int n = negative ? -decimals : decimals;
  const double f = power_of_ten(n);
  const ndarray out = engine::empty_in_order_of(a.shape(), std::span<const ndarray>(&a, 1),
                                                integer ? dtype(float64) : type, a.device());
  if (negative) divide(a, f, {.out = out});
  else multiply(a, f, {.out = out});
  rint(out, {.out = out});
  if (negative) multiply(out, f, {.out = out});
  else divide(out, f, {.out = out});
  return integer ? astype(out, type, casting::unsafe) : out;
}

}  // namespace

ndarray round(const ndarray& a, int decimals) { return round_impl(a, decimals); }
ndarray around(const ndarray& a, int decimals) { return round_impl(a, decimals); }

ndarray nan_to_num(const ndarray& x, const nan_to_num_options& options) {
  detail::require_array(x, "nan_to_num");
  const dtype type = x.dtype();
  if (!type.is_builtin() || !(type.is_complex() || is_float(type.id()))) return options.copy ? x.copy() : x;
  const type_id real = type.id() == type_id::complex64 ? type_id::float32
                       : type.id() == type_id::complex128 ? type_id::float64
                                                          : type.id();
  const double maxf = finfo_max(real);
  const double posinf = options.posinf.value_or(maxf), neginf = options.neginf.value_or(-maxf);
  cuda::DeviceGuard guard(x.device());
  const ndarray nan_value = scalar(weak_scalar(options.nan), float64);
  const ndarray inf_values = scalar(weak_scalar(std::complex<double>(posinf, neginf)), complex128);
  const operand inputs[] = {operand(x), operand(nan_value), operand(inf_values)};
  ufunc_options o;
  if (!options.copy) {
    detail::require_writeable(x);
    o.out = x;
  }
  std::vector<ndarray> r = nan_to_num_ufunc().call(inputs, o);
  return options.copy ? std::move(r.front()) : x;
}

ndarray angle(const ndarray& z, bool deg) {
  detail::require_array(z, "angle");
  ndarray a = z.dtype().is_complex() ? arctan2(z.imag(), z.real()) : arctan2(0, z);
  if (deg) multiply(a, 180.0 / 3.141592653589793, {.out = a});
  return a;
}

ndarray trim_zeros(const ndarray& filt, std::string_view trim, std::optional<int> axis) {
  detail::require_array(filt, "trim_zeros");
  std::string lower(trim);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower != "fb" && lower != "bf" && lower != "f" && lower != "b")
    throw ValueError("unexpected character(s) in `trim`: '" + lower + "'");
  const int nd = filt.ndim();
  std::optional<int> ax;
  if (axis && nd > 1) ax = layout::normalize_axis(*axis, nd);
  if (axis && nd == 0) layout::normalize_axis(*axis, nd);  // AxisError, as NumPy's normalize_axis_index
  if (nd == 0) return filt.index(std::span<const index_item>());
  const bool front = lower.find('f') != std::string::npos, back = lower.find('b') != std::string::npos;
  cuda::DeviceGuard guard(filt.device());
  const ndarray nonzero = astype(filt, bool_);
  // Per axis, which positions hold a nonzero element (any over the other axes): the bounding box
  // of np.argwhere's min and max.
  std::vector<int64_t> start(static_cast<std::size_t>(nd), 0), stop(static_cast<std::size_t>(nd), 0);
  bool all_zero = false;
  for (int d = 0; d < nd && !all_zero; ++d) {
    std::vector<std::int64_t> others;
    for (int e = 0; e < nd; ++e)
      if (e != d) others.push_back(e);
    const ndarray hit = others.empty() ? nonzero : any(nonzero, {.axis = axes(others)});
    const std::vector<std::uint8_t> h = hit.size() == 0 ? std::vector<std::uint8_t>()
                                                        : ascontiguousarray(hit).view(uint8).to_vector<std::uint8_t>();
    const auto first = std::find(h.begin(), h.end(), std::uint8_t(1));
    if (first == h.end()) {
      all_zero = true;
      break;
    }
    const auto last = std::find(h.rbegin(), h.rend(), std::uint8_t(1));
    start[static_cast<std::size_t>(d)] = first - h.begin();
    stop[static_cast<std::size_t>(d)] = static_cast<int64_t>(h.size()) - (last - h.rbegin());
  }
  std::vector<index_item> items;
  for (int d = 0; d < nd; ++d) {
    const bool trimmed = !ax || *ax == d;
    if (!trimmed) {
      items.emplace_back(slice());
    } else if (all_zero) {
      items.emplace_back(slice(0, 0));
    } else {
      items.emplace_back(slice(front ? std::optional<int64_t>(start[static_cast<std::size_t>(d)]) : std::nullopt,
                               back ? std::optional<int64_t>(stop[static_cast<std::size_t>(d)]) : std::nullopt));
    }
  }
  return filt.index(items);
}

// ---------------------------------------------------------------------------------------------
// interp

ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, const interp_options& options) {
  detail::require_array(x, "interp");
  detail::require_array(xp, "interp");
  detail::require_array(fp, "interp");
  const bool complex_fp = fp.dtype().is_complex();
  const dtype fp_type = complex_fp ? dtype(complex128) : dtype(float64);
  for (const ndarray* a : {&x, &xp}) {
    if (!can_cast(a->dtype(), float64, casting::safe))
      throw TypeError("Cannot cast array data from " + engine::dtype_repr(a->dtype()) +
                      " to dtype('float64') according to the rule 'safe'");
  }
  if (!can_cast(fp.dtype(), fp_type, casting::safe))
    throw TypeError("Cannot cast array data from " + engine::dtype_repr(fp.dtype()) + " to " +
                    engine::dtype_repr(fp_type) + " according to the rule 'safe'");
  if (options.period) {
    if (*options.period == 0) throw ValueError("period must be a non-zero value");
    if (xp.ndim() != 1 || fp.ndim() != 1) throw ValueError("Data points must be 1-D sequences");
    if (xp.shape(0) != fp.shape(0)) throw ValueError("fp and xp are not of the same length");
  }
  if (xp.ndim() != 1 || fp.ndim() != 1)
    throw ValueError(xp.ndim() == 0 || fp.ndim() == 0 ? "object of too small depth for desired array"
                                                      : "object too deep for desired array");
  if (xp.shape(0) == 0) throw ValueError("array of sample points is empty");
  if (fp.shape(0) != xp.shape(0)) throw ValueError("fp and xp are not of the same length.");
  if (!complex_fp && ((options.left && options.left->imag() != 0) || (options.right && options.right->imag() != 0)))
    throw TypeError("must be real number, not complex");
  cuda::DeviceGuard guard(x.device());
  ndarray xs = x, xps = xp, fps = fp;
  std::optional<std::complex<double>> left = options.left, right = options.right;
  if (options.period) {
    const double period = std::fabs(*options.period);
    left.reset();
    right.reset();
    xs = remainder(astype(x, float64, casting::safe, false), period);
    // xp % period sorted (on the host: xp is the small side), fp in the same order, and one
    // point of the neighbouring periods at each end.
    std::vector<double> h = remainder(astype(xp, float64, casting::safe, false), period).to_vector<double>();
    std::vector<std::int64_t> order(h.size());
    std::iota(order.begin(), order.end(), std::int64_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return h[static_cast<std::size_t>(a)] < h[static_cast<std::size_t>(b)];
    });
    if (!h.empty()) {
      std::vector<double> sorted;
      sorted.push_back(h[static_cast<std::size_t>(order.back())] - period);
      for (std::int64_t k : order) sorted.push_back(h[static_cast<std::size_t>(k)]);
      sorted.push_back(h[static_cast<std::size_t>(order.front())] + period);
      std::vector<std::int64_t> take_order;
      take_order.push_back(order.back());
      take_order.insert(take_order.end(), order.begin(), order.end());
      take_order.push_back(order.front());
      xps = asarray(sorted);
      fps = astype(fp, fp_type, casting::safe, false)(asarray(take_order));
    }
  }
  const int64_t n = xps.shape(0);
  fps = astype(fps, fp_type, casting::safe, false);
  xps = astype(xps, float64, casting::safe, false);
  // The defaults fp[0] and fp[-1], read from the device only when needed.
  if (!left || !right) {
    const ndarray ends = fps.index(std::vector<index_item>{slice(0, n, n > 1 ? n - 1 : 1)});
    if (complex_fp) {
      const std::vector<std::complex<double>> e = ends.to_vector<std::complex<double>>();
      if (!left) left = e.front();
      if (!right) right = e.back();
    } else {
      const std::vector<double> e = ends.to_vector<double>();
      if (!left) left = e.front();
      if (!right) right = e.back();
    }
  }
  if (xs.size() == 0) return new_c_array(xs.shape(), fp_type, xs.device());
  // (A 0-d x runs as one element and comes back 0-d.)
  const ndarray xf = astype(xs, float64, casting::safe, false).reshape({xs.size()});
  std::vector<ndarray> r;
  if (complex_fp) {
    r = detail::interp_kernel(true).call({xf, xps, fps, *left, *right});
  } else {
    r = detail::interp_kernel(false).call({xf, xps, fps, left->real(), right->real()});
  }
  return r.front().reshape(xs.shape());
}

// ---------------------------------------------------------------------------------------------
// convolve, correlate

ndarray convolve(const ndarray& a, const ndarray& v, std::string_view mode) {
  detail::require_array(a, "convolve");
  detail::require_array(v, "convolve");
  ndarray x = a.ndim() == 0 ? a.reshape({1}) : a, y = v.ndim() == 0 ? v.reshape({1}) : v;
  if (x.ndim() > 1 || y.ndim() > 1) throw ValueError("object too deep for desired array");
  if (y.shape(0) > x.shape(0)) std::swap(x, y);
  if (x.shape(0) == 0) throw ValueError("a cannot be empty");
  if (y.shape(0) == 0) throw ValueError("v cannot be empty");
  const corr_mode m = parse_corr_mode(mode);
  const dtype type = promote_types(x.dtype(), y.dtype());
  cuda::DeviceGuard guard(x.device());
  const ndarray y_reversed = y(slice(std::nullopt, std::nullopt, -1));
  return correlate_core(astype(x, type, casting::unsafe, false), astype(y_reversed, type, casting::unsafe, false), m);
}

ndarray correlate(const ndarray& a, const ndarray& v, std::string_view mode) {
  detail::require_array(a, "correlate");
  detail::require_array(v, "correlate");
  const corr_mode m = parse_corr_mode(mode);
  const dtype type = promote_types(a.dtype(), v.dtype());
  require_1d(a);
  require_1d(v);
  if (a.shape(0) == 0) throw ValueError("first array argument cannot be empty");
  if (v.shape(0) == 0) throw ValueError("second array argument cannot be empty");
  cuda::DeviceGuard guard(a.device());
  ndarray x = astype(a, type, casting::unsafe, false);
  ndarray y = astype(v, type, casting::unsafe, false);
  if (type.is_complex()) y = conjugate(y);
  // NumPy's correlate2: the longer input goes first, and the output is then reversed.
  const bool inverted = x.shape(0) < y.shape(0);
  if (inverted) std::swap(x, y);
  ndarray r = correlate_core(x, y, m);
  if (inverted) r = r(slice(std::nullopt, std::nullopt, -1)).copy();
  return r;
}

}  // namespace cupp
