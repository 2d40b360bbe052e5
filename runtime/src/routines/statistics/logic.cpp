// The logic routines of cupp/statistics.hpp: isclose, allclose, array_equal, array_equiv. isclose
// of two real arrays with scalar tolerances is one fused ElementwiseKernel (per compute dtype),
// which rounds every step to the dtype NumPy computes it in; any other isclose is NumPy's own
// composition of ufuncs, with Python scalars kept weak: where NumPy computes with two Python
// scalars (abs(b), atol + rtol * abs(b) for a scalar b), the value is computed here on the host
// and stays a weak scalar, so the array operations run in the dtype NumPy picks.
#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/statistics.hpp"
#include "routines/statistics/statistics_internal.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

using kind = weak_scalar::kind;

std::complex<double> value_of(const weak_scalar& s) { return {s.real(), s.imag()}; }

// A weak scalar from a host result: complex when either input was, else float.
weak_scalar weak_result(std::complex<double> v, bool complex) {
  if (complex) return weak_scalar(v);
  return weak_scalar(v.real());
}
bool is_complex(const weak_scalar& s) { return s.scalar_kind() == kind::complex_; }

// Python's abs of a number: |z| (hypot) for complex, a float for float, an int for int.
weak_scalar host_abs(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case kind::complex_: return weak_scalar(std::abs(value_of(s)));
    case kind::float_: return weak_scalar(std::fabs(s.real()));
    default: return weak_scalar(static_cast<std::int64_t>(s.magnitude()));  // bool / int
  }
}

operand op_abs(const operand& x) {
  if (x.is_array()) return operand(absolute(x.array()));
  return operand(host_abs(x.scalar()));
}

// x + y and x * y keeping two Python scalars a Python scalar (float or complex arithmetic).
operand op_add(const operand& x, const operand& y) {
  if (x.is_array() || y.is_array()) return operand(add(x, y));
  const bool c = is_complex(x.scalar()) || is_complex(y.scalar());
  return operand(weak_result(value_of(x.scalar()) + value_of(y.scalar()), c));
}
operand op_mul(const operand& x, const operand& y) {
  if (x.is_array() || y.is_array()) return operand(multiply(x, y));
  const bool c = is_complex(x.scalar()) || is_complex(y.scalar());
  return operand(weak_result(value_of(x.scalar()) * value_of(y.scalar()), c));
}

bool host_isfinite(const weak_scalar& s) { return std::isfinite(s.real()) && std::isfinite(s.imag()); }
bool host_isnan(const weak_scalar& s) { return std::isnan(s.real()) || std::isnan(s.imag()); }

ndarray bool_scalar(bool v) { return full(std::span<const std::int64_t>(), weak_scalar(v), bool_); }

// A routine's array argument: an array, or a Python scalar as np.asarray makes it.
ndarray as_array(const operand& x) {
  if (x.is_array()) {
    if (x.array().is_null()) throw ValueError("the array is null");
    return x.array();
  }
  return full(std::span<const std::int64_t>(), x.scalar());
}

bool can_hold_nan(const dtype& t) { return t.is_inexact(); }

}  // namespace

namespace detail::stats {

const ElementwiseKernel& isclose_kernel(const dtype& compute, bool equal_nan) {
  static std::mutex mutex;
  static std::map<std::pair<int, bool>, std::unique_ptr<ElementwiseKernel>> kernels;
  const std::lock_guard lock(mutex);
  auto& k = kernels[{static_cast<int>(compute.id()), equal_nan}];
  if (!k) {
    // D: result_type(a, y), where x - y and x == y compute; Y: y's inexact dtype, where the
    // tolerance computes. Every step is rounded to its dtype (float16/bfloat16 compute in float32
    // and round), products are not fused into an FMA, as NumPy computes them.
    std::string body = "using D = " + std::string(info(compute.id()).device_type) + ";\n";
    body += R"(const auto xd = cupp::dev::up(x);
    const auto yd = cupp::dev::up(cupp::dev::cast<D>(y));
    auto diff = cupp::dev::up(cupp::dev::down<D>(xd - yd));
    diff = diff < 0 ? -diff : diff;
    auto ay = cupp::dev::up(y);
    ay = ay < 0 ? -ay : ay;
    const auto prod = cupp::dev::up(cupp::dev::down<Y>(cupp::dev::mul_rn(cupp::dev::up(rtol), ay)));
    const auto tol = cupp::dev::up(cupp::dev::down<Y>(cupp::dev::up(atol) + prod));
    bool ok = (diff <= tol && cupp::dev::isfinite_of(y)) || xd == yd;
    )";
    if (equal_nan) body += "ok = ok || (cupp::dev::isnan(x) && cupp::dev::isnan(y));\n    ";
    body += "z = ok;";
    k = std::make_unique<ElementwiseKernel>(compute.name() + " x, Y y, Y atol, Y rtol", "bool z", body,
                                            equal_nan ? "cupp_isclose_nan" : "cupp_isclose");
  }
  return *k;
}

}  // namespace detail::stats

namespace {

bool real_number(const dtype& t) { return t.is_builtin() && !t.is_complex(); }

}  // namespace

ndarray isclose(const operand& a, const operand& b, const isclose_options& options) {
  if (a.is_array() && a.array().is_null()) throw ValueError("isclose: the array is null");
  if (b.is_array() && b.array().is_null()) throw ValueError("isclose: the array is null");
  const auto real_scalar = [](const operand& t) {
    return !t.is_array() && t.scalar().scalar_kind() != weak_scalar::kind::complex_;
  };
  if (a.is_array() && b.is_array() && real_number(a.array().dtype()) && real_number(b.array().dtype()) &&
      real_scalar(options.rtol) && real_scalar(options.atol)) {
    const dtype y_type = result_type(b.array().dtype(), weak_scalar(1.0));
    const ndarray y = b.array().dtype() == y_type ? b.array() : astype(b.array(), y_type);
    const dtype compute = result_type(a.array().dtype(), y_type);
    const operand args[] = {operand(a.array()), operand(y), operand(options.atol.scalar()),
                            operand(options.rtol.scalar())};
    return detail::stats::isclose_kernel(compute, options.equal_nan).call(args)[0];
  }
  return detail::stats::isclose_composed(a, b, options);
}

namespace detail::stats {

ndarray isclose_composed(const operand& a, const operand& b, const isclose_options& options) {
  // y made inexact: result_type(y, 1.0) for an array, float(y) for a Python int (or bool).
  operand y = operand::borrow(b);
  if (b.is_array()) {
    const dtype dt = result_type(b.array().dtype(), weak_scalar(1.0));
    if (b.array().dtype() != dt) y = operand(astype(b.array(), dt));
  } else if (b.scalar().scalar_kind() == kind::int_ || b.scalar().scalar_kind() == kind::bool_) {
    y = operand(weak_scalar(b.scalar().real()));
  }
  const operand& x = a;

  if (!x.is_array() && !y.is_array() && !options.atol.is_array() && !options.rtol.is_array()) {
    // Every operand a Python scalar: Python's arithmetic, a 0-d result.
    const std::complex<double> xv = value_of(x.scalar()), yv = value_of(y.scalar());
    const double tol = options.atol.scalar().real() + options.rtol.scalar().real() * std::abs(yv);
    bool r = (std::abs(xv - yv) <= tol && host_isfinite(y.scalar())) || xv == yv;
    if (options.equal_nan) r = r || (host_isnan(x.scalar()) && host_isnan(y.scalar()));
    return bool_scalar(r);
  }

  // less_equal(abs(x - y), atol + rtol * abs(y)) & isfinite(y) | (x == y)
  const bool any_xy_array = x.is_array() || y.is_array();
  const operand diff = any_xy_array ? operand(absolute(subtract(x, y)))
                                    : operand(weak_scalar(std::abs(value_of(x.scalar()) - value_of(y.scalar()))));
  const operand tol = op_add(options.atol, op_mul(options.rtol, op_abs(y)));
  ndarray close = less_equal(diff, tol);
  if (y.is_array()) {
    close = bitwise_and(close, isfinite(y.array()));
  } else if (!host_isfinite(y.scalar())) {
    close = bitwise_and(close, false);
  }
  ndarray result = bitwise_or(close, any_xy_array ? operand(equal(x, y))
                                                  : operand(weak_scalar(value_of(x.scalar()) == value_of(y.scalar()))));
  if (options.equal_nan) {
    const bool x_nan_possible = x.is_array() ? can_hold_nan(x.array().dtype()) : host_isnan(x.scalar());
    const bool y_nan_possible = y.is_array() ? can_hold_nan(y.array().dtype()) : host_isnan(y.scalar());
    if (x_nan_possible && y_nan_possible) {
      operand xn = x.is_array() ? operand(isnan(x.array())) : operand(weak_scalar(true));
      operand yn = y.is_array() ? operand(isnan(y.array())) : operand(weak_scalar(true));
      result = bitwise_or(result, bitwise_and(xn, yn));
    }
  }
  return result;
}

}  // namespace detail::stats

ndarray allclose(const operand& a, const operand& b, const isclose_options& options) {
  return all(isclose(a, b, options));
}

ndarray array_equal(const operand& a1, const operand& a2, bool equal_nan) {
  const ndarray x = as_array(a1), y = as_array(a2);
  if (!std::ranges::equal(x.shape(), y.shape())) return bool_scalar(false);
  ndarray eq;
  try {
    eq = equal(x, y);
  } catch (const TypeError&) {
    return bool_scalar(false);  // dtypes NumPy's == cannot compare: False
  }
  if (equal_nan && (can_hold_nan(x.dtype()) || can_hold_nan(y.dtype()))) {
    // NaN in the same places, equal elsewhere: (x == y) | (isnan(x) & isnan(y)) everywhere.
    eq = bitwise_or(eq, bitwise_and(isnan(x), isnan(y)));
  }
  return all(eq);
}

ndarray array_equiv(const operand& a1, const operand& a2) {
  const ndarray x = as_array(a1), y = as_array(a2);
  try {
    (void)broadcast_shapes({shape_t(x.shape().begin(), x.shape().end()), shape_t(y.shape().begin(), y.shape().end())});
  } catch (const ValueError&) {
    return bool_scalar(false);
  }
  ndarray eq;
  try {
    eq = equal(x, y);
  } catch (const TypeError&) {
    return bool_scalar(false);
  }
  return all(eq);
}

}  // namespace cupp
