// cupp::testing's ULP comparisons: assert_array_almost_equal_nulp (spacing-based, as NumPy's) and
// assert_array_max_ulp (the distance between the two values' ordered integer representations),
// both in the operands' common floating type.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <cmath>
#include <string>
#include <vector>

#include "cupp/float16.hpp"
#include "cupp/promotion.hpp"
#include "cupp/testing.hpp"
#include "elements.hpp"
#include "format.hpp"

namespace cupp::testing {
namespace {

using detail::float_kind;
using detail::value;

// The pair's common floating type, as numpy.common_type: integers and bool count as float64.
struct common {
  float_kind kind = float_kind::f64;
  bool complex = false;
};

common common_type(const host_array& x, const host_array& y) {
  const dtype t = promote_types(x.dtype(), y.dtype());
  if (!t.is_inexact()) return {};
  return {detail::kind_of(t), t.is_complex()};
}

// The distance from |v| (representable in kind) to the next larger value of kind: numpy.spacing.
double spacing(double v, float_kind kind) {
  if (!std::isfinite(v)) return std::nan("");
  switch (kind) {
    case float_kind::f64: return std::nextafter(v, INFINITY) - v;
    case float_kind::f32: {
      const float f = static_cast<float>(v);
      return static_cast<double>(std::nextafter(f, INFINITY)) - static_cast<double>(f);
    }
    case float_kind::f16: {
      const float16_t h(v);
      return static_cast<double>(float16_t::from_bits(static_cast<std::uint16_t>(h.bits() + 1))) - v;
    }
    case float_kind::bf16: {
      const bfloat16_t h(v);
      return static_cast<double>(static_cast<float>(bfloat16_t::from_bits(static_cast<std::uint16_t>(h.bits() + 1)))) -
             v;
    }
  }
  return 0;
}

// numpy.testing's integer_repr: the bits of v in kind as a signed integer, negative values mirrored
// so that the integers are ordered as the floats are (-0.0 and 0.0 both 0); NaN is NumPy's one NaN.
detail::int128 ordered_bits(double v, float_kind kind) {
  std::int64_t bits = 0, lowest = 0;
  switch (kind) {
    case float_kind::f64:
      bits = std::bit_cast<std::int64_t>(std::isnan(v) ? std::nan("") : v);
      lowest = std::numeric_limits<std::int64_t>::min();
      break;
    case float_kind::f32:
      bits = std::bit_cast<std::int32_t>(std::isnan(v) ? std::nanf("") : static_cast<float>(v));
      lowest = std::numeric_limits<std::int32_t>::min();
      break;
    case float_kind::f16:
      bits = static_cast<std::int16_t>(std::isnan(v) ? std::uint16_t{0x7e00} : float16_t(v).bits());
      lowest = std::numeric_limits<std::int16_t>::min();
      break;
    case float_kind::bf16:
      bits = static_cast<std::int16_t>(std::isnan(v) ? std::uint16_t{0x7fc0} : bfloat16_t(v).bits());
      lowest = std::numeric_limits<std::int16_t>::min();
      break;
  }
  return bits < 0 ? static_cast<detail::int128>(lowest) - bits : static_cast<detail::int128>(bits);
}

// The broadcast operands, read.
struct pair_values {
  shape_t shape;
  std::vector<std::int64_t> xmap, ymap;
  std::vector<value> x, y;
};

pair_values read_pair(const host_array& x, const host_array& y, const std::string& header, std::string_view function) {
  detail::require_numeric(x, function);
  detail::require_numeric(y, function);
  const auto shape = detail::broadcast_shapes(x.shape(), y.shape());
  if (!shape) {
    throw AssertionError(detail::build_message(
        header, {}, "\n(shapes " + detail::shape_str(x.shape()) + ", " + detail::shape_str(y.shape()) + " mismatch)", x,
        y));
  }
  pair_values p{*shape, detail::broadcast_map(x.shape(), *shape), detail::broadcast_map(y.shape(), *shape), {}, {}};
  const auto n = p.xmap.size();
  p.x.resize(n);
  p.y.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    p.x[i] = detail::read(x, p.xmap[i]);
    p.y[i] = detail::read(y, p.ymap[i]);
  }
  return p;
}

double ulp_distance(const value& a, const value& b, float_kind kind) {
  const double x = detail::round_to(a.as_complex().real(), kind), y = detail::round_to(b.as_complex().real(), kind);
  const detail::int128 d = ordered_bits(x, kind) - ordered_bits(y, kind);
  return std::fabs(detail::round_to(static_cast<double>(d), kind));
}

// cupp's addition to NumPy's one-line ULP messages: which elements fail, then both arrays.
std::string ulp_remarks(const pair_values& p, const std::vector<std::int64_t>& bad, const host_array& x,
                        const host_array& y) {
  const std::size_t n = p.x.size();
  std::string r = "\nMismatched elements: " + std::to_string(bad.size()) + " / " + std::to_string(n) + " (" +
                  detail::g_format(100.0 * static_cast<double>(bad.size()) / static_cast<double>(n), 3) + "%)";
  if (!p.shape.empty()) {
    r += bad.size() == 1   ? "\nMismatch at index:"
         : bad.size() <= 5 ? "\nMismatch at indices:"
                           : "\nFirst 5 mismatches are at indices:";
    for (std::size_t k = 0; k < std::min<std::size_t>(bad.size(), 5); ++k) {
      const auto i = static_cast<std::size_t>(bad[k]);
      r += "\n " + detail::index_str(bad[k], p.shape) + ": " + detail::element_str(x, p.xmap[i]) + " (ACTUAL), " +
           detail::element_str(y, p.ymap[i]) + " (DESIRED)";
    }
  }
  return r;
}

}  // namespace

void assert_array_almost_equal_nulp(const operand& actual, const operand& desired, int nulp) {
  const host_array& x = actual.array();
  const host_array& y = desired.array();
  const common t = common_type(x, y);
  std::string header = "Arrays are not equal to " + std::to_string(nulp) + " ULP";
  const pair_values p = read_pair(x, y, header, "assert_array_almost_equal_nulp");
  std::vector<std::int64_t> bad;
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double ax = detail::round_to(detail::magnitude(p.x[i]), t.kind);
    const double ay = detail::round_to(detail::magnitude(p.y[i]), t.kind);
    const double ref = detail::round_to(nulp * spacing(ax > ay ? ax : ay, t.kind), t.kind);
    const double diff = detail::round_to(detail::abs_diff(p.x[i], p.y[i]), t.kind);
    if (!(diff <= ref)) bad.push_back(static_cast<std::int64_t>(i));
  }
  if (bad.empty()) return;
  if (!t.complex) {
    double max_ulp = 0;
    for (std::size_t i = 0; i < p.x.size(); ++i) max_ulp = std::max(max_ulp, ulp_distance(p.x[i], p.y[i], t.kind));
    header += " (max is " + detail::g_format(max_ulp) + ")";
  }
  throw AssertionError(detail::build_message(header, {}, ulp_remarks(p, bad, x, y), x, y));
}

host_array assert_array_max_ulp(const operand& a, const operand& b, double maxulp) {
  const host_array& x = a.array();
  const host_array& y = b.array();
  const common t = common_type(x, y);
  if (t.complex) {
    throw cupp::TypeError(
        "cupp::testing::assert_array_max_ulp: ULP distances are not defined for complex arrays "
        "(NumPy raises NotImplementedError)");
  }
  std::string header = "Arrays are not almost equal up to " + detail::g_format(maxulp) + " ULP";
  const pair_values p = read_pair(x, y, header, "assert_array_max_ulp");
  host_array result(cupp::float64, p.shape);
  std::vector<std::int64_t> bad;
  double max_ulp = 0;
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double d = ulp_distance(p.x[i], p.y[i], t.kind);
    std::memcpy(result.data() + i * sizeof(double), &d, sizeof d);
    max_ulp = std::max(max_ulp, d);
    if (!(d <= maxulp)) bad.push_back(static_cast<std::int64_t>(i));
  }
  if (bad.empty()) return result;
  header += " (max difference is " + detail::g_format(max_ulp) + " ULP)";
  throw AssertionError(detail::build_message(header, {}, ulp_remarks(p, bad, x, y), x, y));
}

}  // namespace cupp::testing
