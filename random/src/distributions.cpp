// Generator's rejection samplers (gamma, standard_gamma, beta, chisquare, f, standard_t, wald,
// vonmises, noncentral_chisquare, noncentral_f) and discrete distributions (poisson, binomial,
// negative_binomial, geometric, logseries, zipf: int64), all one element per counter group
// (kernels.cuh's cupp_random_stream), with NumPy's parameter checks and messages.
#include <cmath>

#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "generator_impl.hpp"

namespace cupp::random {

using namespace detail;

namespace {
constexpr double poisson_lam_max = 9.223372006484771e18;

ndarray as_float_array(const operand& v) {
  return v.is_array() ? astype(v.array(), float64, casting::unsafe, false) : scalar(v.scalar(), float64);
}
}  // namespace

ndarray Generator::standard_gamma(const operand& shape, size_arg size, cupp::dtype dtype, const ndarray& out) {
  if (dtype != float32 && dtype != float64)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for standard_gamma");
  if (out.is_null())
    return distribution(bits_, family::stream, s_standard_gamma, size, dtype, {{&shape, "shape", cons::non_negative}});
  check(shape, "shape", cons::non_negative);
  ndarray result = output_for(size, dtype, out);
  const shape_t target(result.shape().begin(), result.shape().end());
  (void)result_shape(size_arg(target), {&shape});
  const prepared a = prepare(shape, target);
  fill_stream(bits_, result, s_standard_gamma, a.p, {}, {});
  return result;
}

ndarray Generator::gamma(const operand& shape, const operand& scale, size_arg size) {
  return distribution(bits_, family::stream, s_gamma, size, float64,
                      {{&shape, "shape", cons::non_negative}, {&scale, "scale", cons::non_negative}});
}
ndarray Generator::beta(const operand& a, const operand& b, size_arg size) {
  return distribution(bits_, family::stream, s_beta, size, float64, {{&a, "a", cons::positive}, {&b, "b", cons::positive}});
}
ndarray Generator::chisquare(const operand& df, size_arg size) {
  return distribution(bits_, family::stream, s_chisquare, size, float64, {{&df, "df", cons::positive}});
}
ndarray Generator::f(const operand& dfnum, const operand& dfden, size_arg size) {
  return distribution(bits_, family::stream, s_f, size, float64,
                      {{&dfnum, "dfnum", cons::positive}, {&dfden, "dfden", cons::positive}});
}
ndarray Generator::standard_t(const operand& df, size_arg size) {
  return distribution(bits_, family::stream, s_standard_t, size, float64, {{&df, "df", cons::positive}});
}
ndarray Generator::wald(const operand& mean, const operand& scale, size_arg size) {
  return distribution(bits_, family::stream, s_wald, size, float64,
                      {{&mean, "mean", cons::positive}, {&scale, "scale", cons::positive}});
}
ndarray Generator::vonmises(const operand& mu, const operand& kappa, size_arg size) {
  return distribution(bits_, family::stream, s_vonmises, size, float64,
                      {{&mu, "mu", cons::none}, {&kappa, "kappa", cons::non_negative}});
}
ndarray Generator::noncentral_chisquare(const operand& df, const operand& nonc, size_arg size) {
  return distribution(bits_, family::stream, s_noncentral_chisquare, size, float64,
                      {{&df, "df", cons::positive}, {&nonc, "nonc", cons::non_negative}});
}
ndarray Generator::noncentral_f(const operand& dfnum, const operand& dfden, const operand& nonc, size_arg size) {
  return distribution(bits_, family::stream, s_noncentral_f, size, float64,
                      {{&dfnum, "dfnum", cons::positive}, {&dfden, "dfden", cons::positive},
                       {&nonc, "nonc", cons::non_negative}});
}

ndarray Generator::poisson(const operand& lam, size_arg size) {
  return distribution(bits_, family::stream, s_poisson, size, int64, {{&lam, "lam", cons::poisson}});
}
ndarray Generator::binomial(const operand& n, const operand& p, size_arg size) {
  // NumPy reads n as int64 (a float n is truncated), checks p first, then n
  const operand nn = n.is_array() ? operand(astype(astype(n.array(), int64), float64))
                                  : operand(std::trunc(scalar_of(n).value()));
  return distribution(bits_, family::stream, s_binomial, size, int64,
                      {{&nn, "n", cons::none}, {&p, "p", cons::bounded_0_1}, {&nn, "n", cons::non_negative}});
}
ndarray Generator::negative_binomial(const operand& n, const operand& p, size_arg size) {
  check(n, "n", cons::positive_not_nan);
  check(p, "p", cons::bounded_gt_0_1);
  const std::optional<double> ns = scalar_of(n), ps = scalar_of(p);
  bool too_large;
  if (ns && ps) {
    too_large = (1 - *ps) / *ps * (*ns + 10 * std::sqrt(*ns)) > poisson_lam_max;
  } else {
    const ndarray na = as_float_array(n), pa = as_float_array(p);
    const ndarray max_lam = (1.0 - pa) / pa * (na + 10.0 * sqrt(na));
    too_large = any(greater(max_lam, poisson_lam_max)).item<bool>();
  }
  if (too_large) throw ValueError("n too large or p too small, see Generator.negative_binomial Notes");
  return distribution(bits_, family::stream, s_negative_binomial, size, int64,
                      {{&n, "n", cons::none}, {&p, "p", cons::none}});
}
ndarray Generator::geometric(const operand& p, size_arg size) {
  return distribution(bits_, family::stream, s_geometric, size, int64, {{&p, "p", cons::bounded_gt_0_1}});
}
ndarray Generator::logseries(const operand& p, size_arg size) {
  return distribution(bits_, family::stream, s_logseries, size, int64, {{&p, "p", cons::bounded_lt_0_1}});
}
ndarray Generator::hypergeometric(const operand& ngood, const operand& nbad, const operand& nsample, size_arg size) {
  // NumPy reads the three as int64
  auto as_int = [](const operand& v) {
    return v.is_array() ? operand(astype(astype(v.array(), int64), float64)) : operand(std::trunc(scalar_of(v).value()));
  };
  const operand g = as_int(ngood), b = as_int(nbad), s = as_int(nsample);
  constexpr double hypergeom_max = 1e9;
  const std::optional<double> gs = scalar_of(g), bs = scalar_of(b), ss = scalar_of(s);
  if (gs && bs && ss) {
    if (*gs >= hypergeom_max || *bs >= hypergeom_max)
      throw ValueError("both ngood and nbad must be less than 1000000000");
    if (*gs + *bs < *ss) throw ValueError("ngood + nbad < nsample");
  } else {
    const ndarray ga = as_float_array(g), ba = as_float_array(b), sa = as_float_array(s);
    if (any(greater_equal(ga, hypergeom_max)).item<bool>() || any(greater_equal(ba, hypergeom_max)).item<bool>())
      throw ValueError("both ngood and nbad must be less than 1000000000");
    if (any(less(ga + ba, sa)).item<bool>()) throw ValueError("ngood + nbad < nsample");
  }
  return distribution(bits_, family::stream, s_hypergeometric, size, int64,
                      {{&g, "ngood", cons::non_negative}, {&b, "nbad", cons::non_negative},
                       {&s, "nsample", cons::non_negative}});
}
ndarray Generator::zipf(const operand& a, size_arg size) {
  return distribution(bits_, family::stream, s_zipf, size, int64, {{&a, "a", cons::gt_1}});
}

}  // namespace cupp::random
