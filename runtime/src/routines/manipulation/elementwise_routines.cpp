// The manipulation routines that run element-wise on the ufunc engine (cupp/manipulation.hpp):
// clip, where and nan_to_num through op_specs defined here (NEP 50 resolution, broadcasting,
// out=, order K; manipulation_kernels.hpp says why they have no spec files), and round/around
// and angle, which compose ufuncs as NumPy's Python code does.
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

}  // namespace

// ---------------------------------------------------------------------------------------------
// the element-wise ops

namespace detail {

const op_spec& clip_op() {
  static const std::unique_ptr<internal_op> op = [] {
    std::vector<loop_def> loops;
    for (type_id t : all_types) {
      std::string body;
      if (is_complex_type(t)) {
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
      } else if (is_complex_type(t)) {
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

}  // namespace detail

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
  // Weak scalars become NumPy's np.asarray(value), cast unsafely to the common dtype (0-d, so
  // that the kernel reads them as one element of its own dtype: the op's built-in scalar program
  // holds that kernel); arrays are cast in the kernel (no copies).
  const auto scalar_array = [&](const weak_scalar& s) {
    return astype(default_scalar_array(s), common, casting::unsafe);
  };
  const ndarray xs = x.is_array() ? x.array() : scalar_array(x.scalar());
  const ndarray ys = y.is_array() ? y.array() : scalar_array(y.scalar());
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

}  // namespace cupp
