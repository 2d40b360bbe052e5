// Generator's vector-valued distributions: dirichlet (normalised gammas, or NumPy's stick-breaking
// with betas when every alpha < 0.1), multinomial (conditional binomials, NumPy's
// random_multinomial) and multivariate_hypergeometric (conditional hypergeometrics, NumPy's
// 'marginals'), built from the scalar samplers, with NumPy's checks and messages.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "generator_impl.hpp"

namespace cupp::random {

using namespace detail;

namespace {

std::vector<double> host_vector_1d(const ndarray& a, const char* what) {
  if (a.ndim() != 1) throw ValueError(std::string(what) + " must be 1-dimensional");
  return ascontiguousarray(astype(a, float64, casting::unsafe, false)).to_vector<double>();
}

// A float64 array of `shape` holding v (the parameter the stream kernel reads).
ndarray full_like_count(const shape_t& shape, double v) {
  ndarray a = empty(shape, float64);
  a.fill(v);
  return a;
}

}  // namespace

ndarray Generator::dirichlet(const ndarray& alpha, size_arg size) {
  if (alpha.ndim() != 1) throw ValueError("object of too small depth for desired array");
  const std::vector<double> a = host_vector_1d(alpha, "alpha");
  for (double v : a)
    if (v < 0) throw ValueError("alpha < 0");
  for (double v : a)
    if (std::isnan(v)) throw ValueError("alpha contains NaNs");
  const std::int64_t k = static_cast<std::int64_t>(a.size());
  shape_t shape = size.given() ? size.shape() : shape_t{};
  for (std::int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  shape_t full = shape;
  full.push_back(k);
  if (k == 0 || count(full) == 0) return empty(full, float64);
  const double amax = *std::max_element(a.begin(), a.end());
  if (amax >= 0.1) {
    const operand alpha_op = asarray(a);
    const ndarray g = distribution(bits_, family::stream, s_standard_gamma, size_arg(full), float64,
                                   {{&alpha_op, "alpha", cons::none}});
    return g / sum(g, {.axis = -1, .keepdims = true});
  }
  // stick-breaking with betas (NumPy's small-alpha path)
  std::vector<double> csum(a.size());
  double c = 0.0;
  for (std::int64_t j = k - 1; j >= 0; --j) csum[j] = (c += a[j]);
  if (c == 0) return zeros(full, float64);
  std::vector<ndarray> columns;
  ndarray acc = ones(shape, float64);
  std::int64_t j = 0;
  for (; j < k - 1; ++j) {
    if (csum[j + 1] == 0) break;  // the rest is 0: v = 1
    const operand aj = a[j], bj = csum[j + 1];
    const ndarray v = distribution(bits_, family::stream, s_beta, size_arg(shape), float64,
                                   {{&aj, "a", cons::none}, {&bj, "b", cons::none}});
    columns.push_back(acc * v);
    acc = acc * (1.0 - v);
  }
  columns.push_back(acc);
  while (static_cast<std::int64_t>(columns.size()) < k) columns.push_back(zeros(shape, float64));
  return stack(std::span<const ndarray>(columns), {.axis = -1});
}

ndarray Generator::multinomial(const operand& n, const ndarray& pvals, size_arg size) {
  if (pvals.ndim() == 0 || pvals.shape()[pvals.ndim() - 1] == 0)
    throw ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
  if (pvals.ndim() > 1) throw ValueError("cupp's multinomial takes 1-dimensional pvals");
  check(operand(pvals), "pvals", cons::bounded_0_1);
  const std::vector<double> p = host_vector_1d(pvals, "pvals");
  double s = 0.0, comp = 0.0;  // kahan_sum of pvals[:-1], as NumPy
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const double y = p[i] - comp, t = s + y;
    comp = (t - s) - y;
    s = t;
  }
  if (s > 1.0 + 1e-12) throw ValueError("sum(pvals[:-1]) > 1.0");
  check(n, "n", cons::non_negative);
  const shape_t shape = result_shape(size, {&n});
  const std::int64_t k = static_cast<std::int64_t>(p.size());
  // remaining draws, as float64 for the binomial kernel's parameter
  ndarray remaining = ascontiguousarray(broadcast_to(
      n.is_array() ? astype(astype(n.array(), int64), float64) : scalar(std::trunc(scalar_of(n).value()), float64),
      shape));
  std::vector<ndarray> columns;
  double remaining_p = 1.0;
  for (std::int64_t j = 0; j < k - 1; ++j) {
    const double prob = remaining_p > 0 ? std::clamp(p[j] / remaining_p, 0.0, 1.0) : 0.0;
    const operand rem = remaining, pj = prob;
    const ndarray x = distribution(bits_, family::stream, s_binomial, size_arg(shape), int64,
                                   {{&rem, "n", cons::none}, {&pj, "p", cons::none}});
    columns.push_back(x);
    remaining = remaining - astype(x, float64);
    remaining_p -= p[j];
  }
  columns.push_back(astype(remaining, int64));
  return stack(std::span<const ndarray>(columns), {.axis = -1});
}

ndarray Generator::multivariate_hypergeometric(const ndarray& colors, std::int64_t nsample, size_arg size,
                                               const std::string& method) {
  if (method != "count" && method != "marginals") throw ValueError("method must be \"count\" or \"marginals\".");
  if (nsample < 0) throw ValueError("nsample must be nonnegative.");
  const std::string bad_colors =
      "colors must be a one-dimensional sequence of nonnegative integers not exceeding 9223372036854775807.";
  if (colors.ndim() != 1 || (colors.size() > 0 && !colors.dtype().is_integer())) throw ValueError(bad_colors);
  const std::vector<std::int64_t> c = ascontiguousarray(astype(colors, int64)).to_vector<std::int64_t>();
  std::int64_t total = 0;
  for (std::int64_t v : c) {
    if (v < 0) throw ValueError(bad_colors);
    if (v > std::numeric_limits<std::int64_t>::max() - total)
      throw ValueError("sum(colors) must not exceed the maximum value of a 64 bit signed integer (9223372036854775807)");
    total += v;
  }
  if (method == "marginals" && total >= 1000000000)
    throw ValueError("When method is \"marginals\", sum(colors) must be less than 1000000000.");
  if (nsample > total) throw ValueError("nsample > sum(colors)");
  shape_t shape = size.given() ? size.shape() : shape_t{};
  for (std::int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  shape_t full = shape;
  full.push_back(static_cast<std::int64_t>(c.size()));
  if (c.empty() || count(full) == 0) return zeros(full, int64);
  // marginals: color j's count is hypergeometric(colors[j], the colors after j, what is left to
  // draw); 'count' (NumPy: an urn of every ball) has the same distribution
  std::vector<ndarray> columns;
  ndarray left = full_like_count(shape, static_cast<double>(nsample));
  std::int64_t rest = total;
  for (std::size_t j = 0; j + 1 < c.size(); ++j) {
    rest -= c[j];
    const operand good = static_cast<double>(c[j]), bad = static_cast<double>(rest), want = left;
    const ndarray x = distribution(bits_, family::stream, s_hypergeometric, size_arg(shape), int64,
                                   {{&good, "ngood", cons::none}, {&bad, "nbad", cons::none}, {&want, "nsample", cons::none}});
    columns.push_back(x);
    left = left - astype(x, float64);
  }
  columns.push_back(astype(left, int64));
  return stack(std::span<const ndarray>(columns), {.axis = -1});
}

}  // namespace cupp::random
