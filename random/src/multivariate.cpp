// Generator's vector-valued distributions: dirichlet (normalised gammas, or NumPy's stick-breaking
// with betas when every alpha < 0.1) and multinomial (conditional binomials, NumPy's
// random_multinomial), built from the scalar samplers, with NumPy's checks and messages.
#include <algorithm>
#include <cmath>

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

}  // namespace cupp::random
