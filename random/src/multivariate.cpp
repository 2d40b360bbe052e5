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

// Symmetric eigendecomposition by cyclic Jacobi rotations (cov is small: d x d on the host):
// eigenvalues in w, eigenvectors in the columns of v (row-major d x d).
void jacobi_eigh(std::vector<double> a, std::size_t d, std::vector<double>& w, std::vector<double>& v) {
  v.assign(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) v[i * d + i] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0;
    for (std::size_t p = 0; p < d; ++p)
      for (std::size_t q = p + 1; q < d; ++q) off += a[p * d + q] * a[p * d + q];
    if (off < 1e-300) break;
    for (std::size_t p = 0; p < d; ++p) {
      for (std::size_t q = p + 1; q < d; ++q) {
        const double apq = a[p * d + q];
        if (apq == 0.0) continue;
        const double theta = (a[q * d + q] - a[p * d + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), sn = t * c;
        for (std::size_t k = 0; k < d; ++k) {  // a = J^T a J
          const double akp = a[k * d + p], akq = a[k * d + q];
          a[k * d + p] = c * akp - sn * akq;
          a[k * d + q] = sn * akp + c * akq;
        }
        for (std::size_t k = 0; k < d; ++k) {
          const double apk = a[p * d + k], aqk = a[q * d + k];
          a[p * d + k] = c * apk - sn * aqk;
          a[q * d + k] = sn * apk + c * aqk;
        }
        for (std::size_t k = 0; k < d; ++k) {
          const double vkp = v[k * d + p], vkq = v[k * d + q];
          v[k * d + p] = c * vkp - sn * vkq;
          v[k * d + q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  w.resize(d);
  for (std::size_t i = 0; i < d; ++i) w[i] = a[i * d + i];
}

}  // namespace

namespace detail {

// multivariate_normal's factor A (x = mean + z A^T, A A^T = cov) on the host, with NumPy's checks.
std::vector<double> normal_factor(const std::vector<double>& cov, std::size_t d, const std::string& method,
                                  const std::string& check_valid, double tol) {
  std::vector<double> factor(d * d, 0.0);
  if (method == "cholesky") {
    for (std::size_t j = 0; j < d; ++j) {
      double diag = cov[j * d + j];
      for (std::size_t k = 0; k < j; ++k) diag -= factor[j * d + k] * factor[j * d + k];
      if (!(diag > 0)) throw LinAlgError("Matrix is not positive definite");
      factor[j * d + j] = std::sqrt(diag);
      for (std::size_t i = j + 1; i < d; ++i) {
        double x = cov[i * d + j];  // the lower triangle, as LAPACK's potrf reads
        for (std::size_t k = 0; k < j; ++k) x -= factor[i * d + k] * factor[j * d + k];
        factor[i * d + j] = x / factor[j * d + j];
      }
    }
    return factor;
  }
  std::vector<double> w, v;
  jacobi_eigh(cov, d, w, v);
  if (check_valid != "ignore") {
    if (check_valid != "warn" && check_valid != "raise")
      throw ValueError("check_valid must equal 'warn', 'raise', or 'ignore'");
    bool psd = true;
    for (double x : w) psd &= !(x < -tol);
    for (std::size_t i = 0; i < d && psd; ++i)  // svd reconstructs cov only when it is symmetric
      for (std::size_t j = 0; j < d; ++j)
        if (std::fabs(cov[i * d + j] - cov[j * d + i]) > tol + tol * std::fabs(cov[j * d + i])) psd = false;
    // check_valid='warn' (NumPy: a RuntimeWarning) goes on with the factor, as NumPy does
    if (!psd && check_valid == "raise") throw ValueError("covariance is not symmetric positive-semidefinite.");
  }
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) factor[i * d + j] = v[i * d + j] * std::sqrt(std::fabs(w[j]));
  return factor;
}

}  // namespace detail

ndarray Generator::multivariate_normal(const ndarray& mean, const ndarray& cov, size_arg size,
                                       const std::string& check_valid, double tol, const std::string& method) {
  if (method != "eigh" && method != "svd" && method != "cholesky")
    throw ValueError("method must be one of {'eigh', 'svd', 'cholesky'}");
  if (mean.dtype().is_complex() || cov.dtype().is_complex()) throw TypeError("mean and cov must not be complex");
  if (mean.ndim() != 1) throw ValueError("mean must be 1 dimensional");
  if (cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1]) throw ValueError("cov must be 2 dimensional and square");
  if (mean.shape()[0] != cov.shape()[0]) throw ValueError("mean and cov must have same length");
  const std::size_t d = static_cast<std::size_t>(mean.shape()[0]);
  const std::vector<double> c = ascontiguousarray(astype(cov, float64, casting::unsafe, false)).to_vector<double>();
  const std::vector<double> factor = normal_factor(c, d, method, check_valid, tol);
  shape_t full = size.given() ? size.shape() : shape_t{};
  full.push_back(static_cast<std::int64_t>(d));
  const ndarray z = standard_normal(size_arg(full)).reshape({-1, static_cast<std::int64_t>(d)});
  // x = mean + z A^T, one pass per column of z (d is small; no cuBLAS)
  std::vector<double> at(d * d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) at[i * d + j] = factor[j * d + i];
  const ndarray a_t = asarray(at).reshape({static_cast<std::int64_t>(d), static_cast<std::int64_t>(d)});
  ndarray x = astype(broadcast_to(astype(mean, float64, casting::unsafe, false).reshape({1, static_cast<std::int64_t>(d)}),
                                  std::vector<std::int64_t>{z.shape()[0], static_cast<std::int64_t>(d)}),
                     float64);
  for (std::size_t k = 0; k < d; ++k) {
    const std::int64_t kk = static_cast<std::int64_t>(k);
    x = x + z(slice(), slice(kk, kk + 1)) * a_t(slice(kk, kk + 1), slice());
  }
  return x.reshape(std::span<const std::int64_t>(full));
}

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
