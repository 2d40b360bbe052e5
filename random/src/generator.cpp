// Generator's continuous distributions: random, uniform, the normals, and every transform of one
// uniform (exponential, laplace, logistic, gumbel, pareto, power, rayleigh, standard_cauchy,
// weibull, triangular), with NumPy's parameter checks (random/src/params.cpp), size= and out=
// rules (numpy/random/_common.pyx check_output) and dtypes. The rejection samplers (gamma and the
// distributions made from it, poisson, binomial, ...) are in distributions.cpp.
#include <cmath>
#include <cstdint>

#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "generator_impl.hpp"

namespace cupp::random {

using namespace detail;

namespace detail {

std::string dtype_repr(cupp::dtype t) { return "dtype('" + t.name() + "')"; }

ndarray output_for(const size_arg& size, cupp::dtype dtype, const ndarray& out) {
  if (out.is_null()) return empty(size.given() ? size.shape() : shape_t{}, dtype);
  if (!out.is_c_contiguous() || !out.writeable())
    throw ValueError("Supplied output array must be C-contiguous, writable, aligned, and in machine byte-order.");
  if (out.dtype() != dtype)
    throw TypeError("Supplied output array has the wrong type. Expected " + dtype.name() + ", got " +
                    out.dtype().name());
  if (size.given() && !std::equal(size.shape().begin(), size.shape().end(), out.shape().begin(), out.shape().end()))
    throw ValueError("size must match out.shape when used together");
  if (size.given())
    for (std::int64_t d : size.shape())
      if (d < 0) throw ValueError("negative dimensions are not allowed");
  return out;
}

namespace {
int aligned16(const ndarray& a) { return (reinterpret_cast<std::uintptr_t>(a.data()) % 16) == 0 ? 1 : 0; }
}  // namespace

void fill_transform(const Philox& bits, const ndarray& out, int dist, const param& a, const param& b,
                    const param& c) {
  long long n = out.size();
  if (n == 0) return;
  const bool f32 = out.dtype() == float32;
  const std::int64_t groups = f32 ? (n + 3) / 4 : (n + 1) / 2;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(groups));
  void* data = out.data();
  int vec = aligned16(out);
  if (f32) {
    void* args[] = {&data, &n, &call, &dist, &vec};
    launch(out.device(), k_transform_f32, groups, args);
  } else if (dist == t_random && vec) {  // Generator.random float64: its own kernel (fewer registers)
    void* args[] = {&data, &n, &call};
    launch(out.device(), k_uniform_f64, groups, args);
  } else {
    param pa = a, pb = b, pc = c;
    void* args[] = {&data, &n, &call, &dist, &pa, &pb, &pc, &vec};
    launch(out.device(), k_transform_f64, groups, args);
  }
}

void fill_normal(const Philox& bits, const ndarray& out, const param& loc, const param& scale, bool lognormal) {
  long long n = out.size();
  if (n == 0) return;
  const bool f32 = out.dtype() == float32;
  const std::int64_t groups = f32 ? (n + 3) / 4 : (n + 1) / 2;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(groups));
  void* data = out.data();
  int vec = aligned16(out);
  if (f32) {
    float l = static_cast<float>(loc.v), s = static_cast<float>(scale.v);
    void* args[] = {&data, &n, &call, &l, &s, &vec};
    launch(out.device(), k_normal_f32, groups, args);
  } else {
    param pl = loc, ps = scale;
    int logn = lognormal ? 1 : 0;
    void* args[] = {&data, &n, &call, &pl, &ps, &logn, &vec};
    launch(out.device(), k_normal_f64, groups, args);
  }
}

void fill_stream(const Philox& bits, const ndarray& out, int dist, const param& a, const param& b, const param& c) {
  long long n = out.size();
  if (n == 0) return;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(n));
  void* data = out.data();
  int kind = out.dtype() == float64 ? 0 : out.dtype() == float32 ? 1 : 2;
  param pa = a, pb = b, pc = c;
  void* args[] = {&data, &n, &call, &dist, &pa, &pb, &pc, &kind};
  launch(out.device(), k_stream, n, args);
}

ndarray distribution(const Philox& bits, family fam, int dist, const size_arg& size, cupp::dtype type,
                     std::initializer_list<checked> params) {
  for (const checked& p : params) check(*p.value, p.name, p.constraint);
  std::vector<const operand*> ops;
  for (const checked& p : params) ops.push_back(p.value);
  const operand zero = 0.0;
  while (ops.size() < 3) ops.push_back(&zero);
  const shape_t shape = result_shape(size, {ops[0], ops[1], ops[2]});
  ndarray out = empty(shape, type);
  const prepared a = prepare(*ops[0], shape), b = prepare(*ops[1], shape), c = prepare(*ops[2], shape);
  switch (fam) {
    case family::transform: fill_transform(bits, out, dist, a.p, b.p, c.p); break;
    case family::normal: fill_normal(bits, out, a.p, b.p, dist != 0); break;
    case family::stream: fill_stream(bits, out, dist, a.p, b.p, c.p); break;
  }
  return out;
}

}  // namespace detail

namespace {

void float_dtype(cupp::dtype dtype, const char* what) {
  if (dtype != float32 && dtype != float64)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for " + what);
}

ndarray as_float_array(const operand& v) {
  return v.is_array() ? astype(v.array(), float64, casting::unsafe, false) : scalar(v.scalar(), float64);
}

}  // namespace

ndarray Generator::random(size_arg size, cupp::dtype dtype, const ndarray& out) {
  float_dtype(dtype, "random");
  ndarray result = output_for(size, dtype, out);
  fill_transform(bits_, result, broken() ? t_broken : t_random, {}, {}, {});
  return result;
}

ndarray Generator::standard_normal(size_arg size, cupp::dtype dtype, const ndarray& out) {
  float_dtype(dtype, "standard_normal");
  ndarray result = output_for(size, dtype, out);
  fill_normal(bits_, result, param{nullptr, 0.0}, param{nullptr, 1.0}, false);
  return result;
}

ndarray Generator::standard_exponential(size_arg size, cupp::dtype dtype, const ndarray& out) {
  float_dtype(dtype, "standard_exponential");
  ndarray result = output_for(size, dtype, out);
  fill_transform(bits_, result, t_standard_exponential, {}, {}, {});
  return result;
}

ndarray Generator::uniform(const operand& low, const operand& high, size_arg size) {
  const std::optional<double> l = scalar_of(low), h = scalar_of(high);
  if (l && h) {
    const double range = *h - *l;
    if (!std::isfinite(range)) throw OverflowError("high - low range exceeds valid bounds");
    const operand r = range;
    return distribution(bits_, family::transform, t_uniform, size, float64,
                        {{&low, "", cons::none}, {&r, "high - low", cons::non_negative}});
  }
  const operand r = as_float_array(high) - as_float_array(low);
  if (!all(isfinite(r.array())).item<bool>()) throw OverflowError("Range exceeds valid bounds");
  return distribution(bits_, family::transform, t_uniform, size, float64,
                      {{&low, "", cons::none}, {&r, "high - low", cons::non_negative}});
}

ndarray Generator::normal(const operand& loc, const operand& scale, size_arg size) {
  return distribution(bits_, family::normal, 0, size, float64,
                      {{&loc, "", cons::none}, {&scale, "scale", cons::non_negative}});
}
ndarray Generator::lognormal(const operand& mean, const operand& sigma, size_arg size) {
  return distribution(bits_, family::normal, 1, size, float64,
                      {{&mean, "mean", cons::none}, {&sigma, "sigma", cons::non_negative}});
}
ndarray Generator::exponential(const operand& scale, size_arg size) {
  return distribution(bits_, family::transform, t_exponential, size, float64, {{&scale, "scale", cons::non_negative}});
}
ndarray Generator::laplace(const operand& loc, const operand& scale, size_arg size) {
  return distribution(bits_, family::transform, t_laplace, size, float64,
                      {{&loc, "loc", cons::none}, {&scale, "scale", cons::non_negative}});
}
ndarray Generator::logistic(const operand& loc, const operand& scale, size_arg size) {
  return distribution(bits_, family::transform, t_logistic, size, float64,
                      {{&loc, "loc", cons::none}, {&scale, "scale", cons::non_negative}});
}
ndarray Generator::gumbel(const operand& loc, const operand& scale, size_arg size) {
  return distribution(bits_, family::transform, t_gumbel, size, float64,
                      {{&loc, "loc", cons::none}, {&scale, "scale", cons::non_negative}});
}
ndarray Generator::pareto(const operand& a, size_arg size) {
  return distribution(bits_, family::transform, t_pareto, size, float64, {{&a, "a", cons::positive}});
}
ndarray Generator::power(const operand& a, size_arg size) {
  return distribution(bits_, family::transform, t_power, size, float64, {{&a, "a", cons::positive}});
}
ndarray Generator::rayleigh(const operand& scale, size_arg size) {
  return distribution(bits_, family::transform, t_rayleigh, size, float64, {{&scale, "scale", cons::non_negative}});
}
ndarray Generator::standard_cauchy(size_arg size) {
  return distribution(bits_, family::transform, t_standard_cauchy, size, float64, {});
}
ndarray Generator::weibull(const operand& a, size_arg size) {
  return distribution(bits_, family::transform, t_weibull, size, float64, {{&a, "a", cons::non_negative}});
}

ndarray Generator::triangular(const operand& left, const operand& mode, const operand& right, size_arg size) {
  const std::optional<double> l = scalar_of(left), m = scalar_of(mode), r = scalar_of(right);
  if (l && m && r) {
    if (*l > *m) throw ValueError("left > mode");
    if (*m > *r) throw ValueError("mode > right");
    if (*l == *r) throw ValueError("left == right");
  } else {
    const ndarray la = as_float_array(left), ma = as_float_array(mode), ra = as_float_array(right);
    if (any(greater(la, ma)).item<bool>()) throw ValueError("left > mode");
    if (any(greater(ma, ra)).item<bool>()) throw ValueError("mode > right");
    if (any(equal(la, ra)).item<bool>()) throw ValueError("left == right");
  }
  return distribution(bits_, family::transform, t_triangular, size, float64,
                      {{&left, "", cons::none}, {&mode, "", cons::none}, {&right, "", cons::none}});
}

}  // namespace cupp::random
