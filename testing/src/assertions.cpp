// cupp::testing's comparisons that follow numpy.testing's assert_array_compare: assert_allclose,
// assert_array_equal, assert_array_almost_equal and assert_array_less (shape rule, NaN and inf
// positions, the elementwise test and NumPy 2's failure remarks), plus assert_equal for shapes and
// dtypes and tolerance_for.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "cupp/promotion.hpp"
#include "cupp/testing.hpp"
#include "elements.hpp"
#include "format.hpp"

namespace cupp::testing {
namespace {

using detail::value;

enum class test { close, equal, almost, less };

struct comparison {
  test kind = test::equal;
  double rtol = 0, atol = 0;  // close
  double threshold = 0;       // almost: |x - y| < threshold
  bool equal_nan = true;
  bool equal_inf = true;
  bool strict = false;
  std::string header;
  std::string_view err_msg;
  std::string_view name_x = "ACTUAL", name_y = "DESIRED";
};

bool passes(const comparison& c, const value& x, const value& y) {
  switch (c.kind) {
    case test::equal: return detail::equal(x, y);
    case test::less: {
      if (x.is_int && y.is_int) return x.i < y.i;
      const auto a = x.as_complex(), b = y.as_complex();  // NumPy orders complex lexicographically
      return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    }
    case test::close: return detail::abs_diff(x, y) <= c.atol + c.rtol * detail::magnitude(y);
    case test::almost: return detail::abs_diff(x, y) < c.threshold;
  }
  return false;
}

[[noreturn]] void fail(const comparison& c, const std::string& remarks, const host_array& x, const host_array& y) {
  throw AssertionError(detail::build_message(c.header, c.err_msg, remarks, x, y, c.name_x, c.name_y));
}

double nan_max(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
}

// "Max absolute/relative difference among violations" as NumPy prints them: in the dtype of
// x - y (integers exactly; two bool arrays cannot be subtracted, so NumPy prints neither line).
std::string difference_remarks(const host_array& x, const host_array& y, const std::vector<value>& xv,
                               const std::vector<value>& yv, const std::vector<std::int64_t>& bad) {
  if (x.dtype().is_bool() && y.dtype().is_bool()) return {};
  const dtype diff_type = promote_types(x.dtype(), y.dtype());
  std::string abs_text, rel_text;
  double max_rel = -1;
  bool any_rel = false;
  const auto kind = detail::kind_of(diff_type);
  if (diff_type.is_integer()) {
    detail::int128 max_abs = 0;
    for (const auto i : bad) {
      const auto& a = xv[static_cast<std::size_t>(i)];
      const auto& b = yv[static_cast<std::size_t>(i)];
      const detail::int128 d = a.i > b.i ? a.i - b.i : b.i - a.i;
      max_abs = std::max(max_abs, d);
      if (b.i != 0) {
        const double rel = static_cast<double>(d) / detail::magnitude(b);
        max_rel = any_rel ? nan_max(max_rel, rel) : rel;
        any_rel = true;
      }
    }
    abs_text = detail::int128_str(max_abs);
    rel_text =
        detail::array2string(any_rel ? max_rel : std::numeric_limits<double>::infinity(), detail::float_kind::f64);
  } else {
    double max_abs = 0;
    bool first = true;
    for (const auto i : bad) {
      const auto& a = xv[static_cast<std::size_t>(i)];
      const auto& b = yv[static_cast<std::size_t>(i)];
      const double d = detail::round_to(detail::abs_diff(a, b), kind);
      max_abs = first ? d : nan_max(max_abs, d);
      first = false;
      if (b.as_complex() != std::complex<double>(0)) {
        const double rel = detail::round_to(d / detail::magnitude(b), kind);
        max_rel = any_rel ? nan_max(max_rel, rel) : rel;
        any_rel = true;
      }
    }
    abs_text = detail::array2string(max_abs, kind);
    rel_text = detail::array2string(any_rel ? max_rel : std::numeric_limits<double>::infinity(), kind);
  }
  return "\nMax absolute difference among violations: " + abs_text +
         "\nMax relative difference among violations: " + rel_text;
}

void compare(const comparison& c, const host_array& x, const host_array& y, std::string_view function) {
  detail::require_numeric(x, function);
  detail::require_numeric(y, function);
  const bool same_shape = x.shape() == y.shape();
  const bool shape_ok = c.strict ? same_shape && x.dtype() == y.dtype() : x.ndim() == 0 || y.ndim() == 0 || same_shape;
  if (!shape_ok) {
    const std::string reason =
        !same_shape ? "\n(shapes " + detail::shape_str(x.shape()) + ", " + detail::shape_str(y.shape()) + " mismatch)"
                    : "\n(dtypes " + x.dtype().name() + ", " + y.dtype().name() + " mismatch)";
    fail(c, reason, x, y);
  }
  const shape_t shape = x.ndim() == 0 ? y.shape() : x.shape();
  const auto n = static_cast<std::size_t>(detail::element_count(shape));
  const auto xmap = detail::broadcast_map(x.shape(), shape);
  const auto ymap = detail::broadcast_map(y.shape(), shape);
  std::vector<value> xv(n), yv(n);
  for (std::size_t i = 0; i < n; ++i) {
    xv[i] = detail::read(x, xmap[i]);
    yv[i] = detail::read(y, ymap[i]);
  }

  std::vector<char> flagged(n, 0);  // NaN or inf at the same place on both sides: not compared
  if (c.equal_nan) {
    for (std::size_t i = 0; i < n; ++i) {
      if (xv[i].is_nan() != yv[i].is_nan()) fail(c, "\nnan location mismatch:", x, y);
      flagged[i] = xv[i].is_nan() ? 1 : 0;
    }
  }
  if (c.equal_inf) {
    std::vector<char> infs(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const bool xi = xv[i].is_inf() && flagged[i] == 0, yi = yv[i].is_inf() && flagged[i] == 0;
      if (xi != yi) fail(c, "\ninf location mismatch:", x, y);
      infs[i] = xi ? 1 : 0;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (infs[i] != 0 && !detail::equal(xv[i], yv[i])) fail(c, "\ninf values mismatch:", x, y);
      flagged[i] = static_cast<char>(flagged[i] | infs[i]);
    }
  }

  std::vector<std::int64_t> bad;  // positions (in `shape`, C order) that fail the test
  for (std::size_t i = 0; i < n; ++i) {
    if (flagged[i] == 0 && !passes(c, xv[i], yv[i])) bad.push_back(static_cast<std::int64_t>(i));
  }
  if (bad.empty()) return;

  std::string remarks = "\nMismatched elements: " + std::to_string(bad.size()) + " / " + std::to_string(n) + " (" +
                        detail::g_format(100.0 * static_cast<double>(bad.size()) / static_cast<double>(n), 3) + "%)";
  if (!shape.empty()) {
    remarks += bad.size() == 1   ? "\nMismatch at index:"
               : bad.size() <= 5 ? "\nMismatch at indices:"
                                 : "\nFirst 5 mismatches are at indices:";
    for (std::size_t k = 0; k < std::min<std::size_t>(bad.size(), 5); ++k) {
      const auto i = static_cast<std::size_t>(bad[k]);
      remarks += "\n " + detail::index_str(bad[k], shape) + ": " + detail::element_str(x, xmap[i]) + " (" +
                 std::string(c.name_x) + "), " + detail::element_str(y, ymap[i]) + " (" + std::string(c.name_y) + ")";
    }
  }
  remarks += difference_remarks(x, y, xv, yv, bad);
  fail(c, remarks, x, y);
}

}  // namespace

void assert_allclose(const operand& actual, const operand& desired, const allclose_options& options) {
  comparison c;
  c.kind = test::close;
  c.rtol = options.rtol;
  c.atol = options.atol;
  c.equal_nan = options.equal_nan;
  c.strict = options.strict;
  c.err_msg = options.err_msg;
  c.header =
      "Not equal to tolerance rtol=" + detail::g_format(options.rtol) + ", atol=" + detail::g_format(options.atol);
  compare(c, actual.array(), desired.array(), "assert_allclose");
}

void assert_array_equal(const operand& actual, const operand& desired, const compare_options& options) {
  comparison c;
  c.kind = test::equal;
  c.strict = options.strict;
  c.err_msg = options.err_msg;
  c.header = "Arrays are not equal";
  compare(c, actual.array(), desired.array(), "assert_array_equal");
}

void assert_array_less(const operand& x, const operand& y, const compare_options& options) {
  comparison c;
  c.kind = test::less;
  c.equal_inf = false;
  c.strict = options.strict;
  c.err_msg = options.err_msg;
  c.header = "Arrays are not strictly ordered `x < y`";
  c.name_x = "x";
  c.name_y = "y";
  compare(c, x.array(), y.array(), "assert_array_less");
}

void assert_array_almost_equal(const operand& actual, const operand& desired, const almost_equal_options& options) {
  comparison c;
  c.kind = test::almost;
  c.threshold = 1.5 * std::pow(10.0, -options.decimal);
  c.err_msg = options.err_msg;
  c.header = "Arrays are not almost equal to " + std::to_string(options.decimal) + " decimals";
  compare(c, actual.array(), desired.array(), "assert_array_almost_equal");
}

namespace {
[[noreturn]] void items_not_equal(std::string_view err_msg, const std::string& actual, const std::string& desired) {
  std::string msg = "Items are not equal:";
  if (!err_msg.empty()) {
    if (err_msg.find('\n') == std::string_view::npos && err_msg.size() + msg.size() < 79)
      msg += " " + std::string(err_msg);
    else msg += "\n" + std::string(err_msg);
  }
  throw AssertionError(msg + "\n ACTUAL: " + actual + "\n DESIRED: " + desired);
}

std::string dtype_repr(const dtype& t) {
  return t.is_structured() ? "dtype(" + t.name() + ")" : "dtype('" + t.name() + "')";
}
}  // namespace

void assert_equal(const shape_t& actual, const shape_t& desired, std::string_view err_msg) {
  if (actual != desired) items_not_equal(err_msg, detail::shape_str(actual), detail::shape_str(desired));
}

void assert_equal(std::span<const std::int64_t> actual, std::span<const std::int64_t> desired,
                  std::string_view err_msg) {
  assert_equal(shape_t(actual.begin(), actual.end()), shape_t(desired.begin(), desired.end()), err_msg);
}

void assert_equal(const dtype& actual, const dtype& desired, std::string_view err_msg) {
  if (!(actual == desired)) items_not_equal(err_msg, dtype_repr(actual), dtype_repr(desired));
}

double tolerance_for(const dtype& type, const tolerances& table) {
  switch (type.id()) {
    case type_id::float16: return table.float16;
    case type_id::bfloat16: return table.bfloat16;
    case type_id::float32:
    case type_id::complex64: return table.float32;
    case type_id::float64:
    case type_id::complex128: return table.float64;
    default: return 0.0;
  }
}

}  // namespace cupp::testing
