// numpy.pad (cupp/manipulation.hpp). Widths and modes are checked on the host; then pad gathers
// every output element from per-axis source index maps made on the host (one kernel for
// constant/edge/reflect/symmetric/wrap; constant pads take the value of the last axis that pads
// them); linear_ramp, the statistic modes and reflect_type='odd' follow NumPy's axis-by-axis
// algorithm on views of the output (linspace, max/min/mean/median over the edge regions,
// 2 * edge - chunk), a few kernels per axis and no host loop over elements.
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

using std::int64_t;
using detail::is_complex_type;
using detail::new_c_array;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

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

}  // namespace

namespace detail {

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

}  // namespace cupp
