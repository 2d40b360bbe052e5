// cupp::random's distributions on large samples at fixed seeds: for each continuous one, the
// Kolmogorov-Smirnov statistic against its closed-form CDF (threshold: Kolmogorov's 1e-6 quantile)
// and the sample mean and variance against the closed forms (within 6 standard errors); for each
// discrete one, a chi-square z-score of the counts against the pmf and the moments. The test hook
// that breaks the generator (u^2 for uniforms, Lemire without its rejection) must make the same
// checks fail, which shows the thresholds can catch a wrong generator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <set>
#include <tuple>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/random.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "random_stats.hpp"
#include "sampling.hpp"

namespace cupp {
namespace {

namespace st = test::stats;
using test::error_of;
constexpr std::int64_t N = std::int64_t{1} << 21;
const double nan_v = std::numeric_limits<double>::quiet_NaN();
const double pi = 3.141592653589793;

struct continuous_case {
  std::string name;
  std::function<ndarray(random::Generator&)> draw;
  std::function<double(double)> cdf;  // empty: no KS
  double mean, var;                   // NaN: not checked
};

// The checks' verdict on a case: "" when it passes, else what failed (so the broken generator's
// test can require a failure of every case).
std::string verdict_continuous(const continuous_case& c, std::uint64_t seed) {
  auto rng = random::default_rng(seed);
  const ndarray a = c.draw(rng);
  if (a.size() != N) return "size " + std::to_string(a.size());
  const std::vector<double> x = astype(a, float64).to_vector<double>();
  std::string why;
  if (c.cdf) {
    const double d = st::ks_statistic(x, c.cdf);
    if (!(d < st::ks_threshold(x.size()))) why += " KS D = " + std::to_string(d);
  }
  const st::moments m = st::sample_moments(x);
  if (!std::isnan(c.mean) && !(std::fabs(m.mean - c.mean) <= 6 * m.mean_se))
    why += " mean " + std::to_string(m.mean) + " (expected " + std::to_string(c.mean) + ")";
  if (!std::isnan(c.var) && !(std::fabs(m.var - c.var) <= 6 * m.var_se))
    why += " variance " + std::to_string(m.var) + " (expected " + std::to_string(c.var) + ")";
  return why;
}

void check_continuous(const continuous_case& c, std::uint64_t seed) {
  const std::string why = verdict_continuous(c, seed);
  EXPECT_TRUE(why.empty()) << c.name << ":" << why;
}

double normal_cdf(double x, double mu, double s) { return st::normal_cdf((x - mu) / s); }

std::vector<continuous_case> continuous_cases() {
  const double g = 0.5772156649015329;
  std::vector<continuous_case> v;
  v.push_back({"random", [](auto& r) { return r.random(N); }, [](double x) { return x; }, 0.5, 1.0 / 12});
  v.push_back({"random float32", [](auto& r) { return r.random(N, float32); }, [](double x) { return x; }, 0.5, 1.0 / 12});
  v.push_back({"uniform(-2, 3)", [](auto& r) { return r.uniform(-2.0, 3.0, N); }, [](double x) { return (x + 2) / 5; },
               0.5, 25.0 / 12});
  v.push_back({"standard_normal", [](auto& r) { return r.standard_normal(N); }, [](double x) { return st::normal_cdf(x); },
               0.0, 1.0});
  v.push_back({"standard_normal float32", [](auto& r) { return r.standard_normal(N, float32); },
               [](double x) { return st::normal_cdf(x); }, 0.0, 1.0});
  v.push_back({"normal(3, 2)", [](auto& r) { return r.normal(3.0, 2.0, N); }, [](double x) { return normal_cdf(x, 3, 2); },
               3.0, 4.0});
  {
    const double mu = 0.5, s = 0.75;
    v.push_back({"lognormal(0.5, 0.75)", [=](auto& r) { return r.lognormal(mu, s, N); },
                 [=](double x) { return x <= 0 ? 0.0 : normal_cdf(std::log(x), mu, s); }, std::exp(mu + s * s / 2),
                 (std::exp(s * s) - 1) * std::exp(2 * mu + s * s)});
  }
  v.push_back({"standard_exponential", [](auto& r) { return r.standard_exponential(N); },
               [](double x) { return -std::expm1(-x); }, 1.0, 1.0});
  v.push_back({"standard_exponential float32", [](auto& r) { return r.standard_exponential(N, float32); },
               [](double x) { return -std::expm1(-x); }, 1.0, 1.0});
  v.push_back({"exponential(2.5)", [](auto& r) { return r.exponential(2.5, N); },
               [](double x) { return -std::expm1(-x / 2.5); }, 2.5, 6.25});
  v.push_back({"laplace(1, 2)", [](auto& r) { return r.laplace(1.0, 2.0, N); },
               [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2); }, 1.0, 8.0});
  v.push_back({"logistic(1, 2)", [](auto& r) { return r.logistic(1.0, 2.0, N); },
               [](double x) { return 1 / (1 + std::exp(-(x - 1) / 2)); }, 1.0, 4 * pi * pi / 3});
  v.push_back({"gumbel(1, 2)", [](auto& r) { return r.gumbel(1.0, 2.0, N); },
               [](double x) { return std::exp(-std::exp(-(x - 1) / 2)); }, 1 + 2 * g, pi * pi * 4 / 6});
  {
    const double a = 5.5;
    v.push_back({"pareto(5.5)", [=](auto& r) { return r.pareto(a, N); },
                 [=](double x) { return x <= 0 ? 0.0 : 1 - std::pow(1 + x, -a); }, 1 / (a - 1),
                 a / ((a - 1) * (a - 1) * (a - 2))});
  }
  {
    const double a = 2.5;
    v.push_back({"power(2.5)", [=](auto& r) { return r.power(a, N); }, [=](double x) { return x <= 0 ? 0.0 : std::pow(x, a); },
                 a / (a + 1), a / ((a + 1) * (a + 1) * (a + 2))});
  }
  v.push_back({"rayleigh(2)", [](auto& r) { return r.rayleigh(2.0, N); }, [](double x) { return -std::expm1(-x * x / 8); },
               2 * std::sqrt(pi / 2), (4 - pi) / 2 * 4});
  v.push_back({"standard_cauchy", [](auto& r) { return r.standard_cauchy(N); },
               [](double x) { return 0.5 + std::atan(x) / pi; }, nan_v, nan_v});
  {
    const double a = 1.5;
    v.push_back({"weibull(1.5)", [=](auto& r) { return r.weibull(a, N); },
                 [=](double x) { return x <= 0 ? 0.0 : -std::expm1(-std::pow(x, a)); }, std::tgamma(1 + 1 / a),
                 std::tgamma(1 + 2 / a) - std::pow(std::tgamma(1 + 1 / a), 2)});
  }
  {
    const double a = -1, c = 0.5, b = 2;
    v.push_back({"triangular(-1, 0.5, 2)", [=](auto& r) { return r.triangular(a, c, b, N); },
                 [=](double x) {
                   if (x <= a) return 0.0;
                   if (x >= b) return 1.0;
                   return x <= c ? (x - a) * (x - a) / ((b - a) * (c - a)) : 1 - (b - x) * (b - x) / ((b - a) * (b - c));
                 },
                 (a + b + c) / 3, (a * a + b * b + c * c - a * b - a * c - b * c) / 18});
  }
  for (double k : {0.5, 1.0, 4.0}) {
    v.push_back({"standard_gamma(" + std::to_string(k) + ")", [=](auto& r) { return r.standard_gamma(k, N); },
                 [=](double x) { return st::lower_gamma_p(k, x); }, k, k});
  }
  v.push_back({"standard_gamma(3) float32", [](auto& r) { return r.standard_gamma(3.0, N, float32); },
               [](double x) { return st::lower_gamma_p(3.0, x); }, 3.0, 3.0});
  v.push_back({"gamma(2.5, 3)", [](auto& r) { return r.gamma(2.5, 3.0, N); },
               [](double x) { return st::lower_gamma_p(2.5, x / 3); }, 7.5, 22.5});
  for (auto [a, b] : {std::pair{0.5, 0.7}, std::pair{2.0, 5.0}, std::pair{0.8, 3.0}}) {
    v.push_back({"beta(" + std::to_string(a) + ", " + std::to_string(b) + ")", [=](auto& r) { return r.beta(a, b, N); },
                 [=](double x) { return st::incomplete_beta(a, b, x); }, a / (a + b),
                 a * b / ((a + b) * (a + b) * (a + b + 1))});
  }
  v.push_back({"chisquare(3)", [](auto& r) { return r.chisquare(3.0, N); },
               [](double x) { return st::lower_gamma_p(1.5, x / 2); }, 3.0, 6.0});
  {
    const double d1 = 5, d2 = 12;
    v.push_back({"f(5, 12)", [=](auto& r) { return r.f(d1, d2, N); }, [=](double x) { return st::f_cdf(x, d1, d2); },
                 d2 / (d2 - 2), 2 * d2 * d2 * (d1 + d2 - 2) / (d1 * (d2 - 2) * (d2 - 2) * (d2 - 4))});
  }
  v.push_back({"standard_t(7)", [](auto& r) { return r.standard_t(7.0, N); },
               [](double x) { return st::student_t_cdf(x, 7.0); }, 0.0, 7.0 / 5});
  {
    const double mu = 1.5, lam = 2.0;
    v.push_back({"wald(1.5, 2)", [=](auto& r) { return r.wald(mu, lam, N); },
                 [=](double x) {
                   if (x <= 0) return 0.0;
                   const double s = std::sqrt(lam / x);
                   return st::normal_cdf(s * (x / mu - 1)) + std::exp(2 * lam / mu) * st::normal_cdf(-s * (x / mu + 1));
                 },
                 mu, mu * mu * mu / lam});
  }
  v.push_back({"noncentral_chisquare(3, 2)", [](auto& r) { return r.noncentral_chisquare(3.0, 2.0, N); }, {}, 5.0, 14.0});
  v.push_back({"noncentral_chisquare(0.5, 2)", [](auto& r) { return r.noncentral_chisquare(0.5, 2.0, N); }, {}, 2.5, 9.0});
  v.push_back({"noncentral_f(5, 12, 2)", [](auto& r) { return r.noncentral_f(5.0, 12.0, 2.0, N); }, {},
               12.0 * 7 / (5.0 * 10), nan_v});
  return v;
}

TEST(RandomStatsGpu, ContinuousDistributions) {
  CUPP_REQUIRE_GPU();
  std::uint64_t seed = 1000;
  for (const continuous_case& c : continuous_cases()) check_continuous(c, seed++);
}

TEST(RandomStatsGpu, VonMises) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(55);
  const double mu = 0.5, kappa = 2.0;
  const std::vector<double> x = rng.vonmises(mu, kappa, N).to_vector<double>();
  double c = 0, s = 0;
  for (double v : x) {
    ASSERT_TRUE(v >= -pi && v <= pi);
    c += std::cos(v - mu);
    s += std::sin(v - mu);
  }
  const double expect = std::cyl_bessel_i(1.0, kappa) / std::cyl_bessel_i(0.0, kappa);
  EXPECT_NEAR(c / N, expect, 6.0 / std::sqrt(double(N)));
  EXPECT_NEAR(s / N, 0.0, 6.0 / std::sqrt(double(N)));
}

struct discrete_case {
  std::string name;
  std::function<ndarray(random::Generator&)> draw;
  std::function<double(std::int64_t)> pmf;  // over 0, 1, ...
  double mean, var;
};

std::string verdict_discrete(const discrete_case& c, std::uint64_t seed) {
  auto rng = random::default_rng(seed);
  const ndarray a = c.draw(rng);
  if (a.dtype() != int64) return " dtype " + a.dtype().name();
  const std::vector<std::int64_t> v = a.to_vector<std::int64_t>();
  // the bins that expect at least 20 values
  std::int64_t lo = -1, hi = -1;
  for (std::int64_t k = 0; k < 200000; ++k) {
    if (c.pmf(k) * double(N) >= 20) {
      if (lo < 0) lo = k;
      hi = k;
    } else if (lo >= 0 && k > hi + 50) {
      break;
    }
  }
  if (hi < lo + 2) return " fewer than 3 bins";
  std::string why;
  const double z = st::chi2_z(v, c.pmf, lo, hi);
  if (!(std::fabs(z) < 5.0)) why += " chi-square z = " + std::to_string(z);
  std::vector<double> x(v.begin(), v.end());
  const st::moments m = st::sample_moments(x);
  if (!(std::fabs(m.mean - c.mean) <= 6 * m.mean_se))
    why += " mean " + std::to_string(m.mean) + " (expected " + std::to_string(c.mean) + ")";
  if (!std::isnan(c.var) && !(std::fabs(m.var - c.var) <= 6 * m.var_se))
    why += " variance " + std::to_string(m.var) + " (expected " + std::to_string(c.var) + ")";
  return why;
}

void check_discrete(const discrete_case& c, std::uint64_t seed) {
  const std::string why = verdict_discrete(c, seed);
  EXPECT_TRUE(why.empty()) << c.name << ":" << why;
}

double log_choose(double n, double k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

std::vector<discrete_case> discrete_cases() {
  std::vector<discrete_case> v;
  for (double lam : {3.0, 45.0, 2000.0}) {
    v.push_back({"poisson(" + std::to_string(lam) + ")", [=](auto& r) { return r.poisson(lam, N); },
                 [=](std::int64_t k) { return std::exp(k * std::log(lam) - lam - std::lgamma(k + 1.0)); }, lam, lam});
  }
  for (auto [n, p] : {std::pair{20.0, 0.3}, std::pair{1000.0, 0.4}, std::pair{500.0, 0.9}, std::pair{60.0, 0.05}}) {
    v.push_back({"binomial(" + std::to_string(n) + ", " + std::to_string(p) + ")",
                 [=](auto& r) { return r.binomial(std::int64_t(n), p, N); },
                 [=](std::int64_t k) {
                   return k > n ? 0.0 : std::exp(log_choose(n, k) + k * std::log(p) + (n - k) * std::log1p(-p));
                 },
                 n * p, n * p * (1 - p)});
  }
  {
    const double p = 0.2;
    v.push_back({"geometric(0.2)", [=](auto& r) { return r.geometric(p, N); },
                 [=](std::int64_t k) { return k < 1 ? 0.0 : std::pow(1 - p, k - 1) * p; }, 1 / p, (1 - p) / (p * p)});
  }
  {
    const double n = 3.5, p = 0.4;
    v.push_back({"negative_binomial(3.5, 0.4)", [=](auto& r) { return r.negative_binomial(n, p, N); },
                 [=](std::int64_t k) {
                   return std::exp(std::lgamma(k + n) - std::lgamma(n) - std::lgamma(k + 1.0) + n * std::log(p) +
                                   k * std::log1p(-p));
                 },
                 n * (1 - p) / p, n * (1 - p) / (p * p)});
  }
  {
    const double p = 0.6, l = std::log1p(-p);
    v.push_back({"logseries(0.6)", [=](auto& r) { return r.logseries(p, N); },
                 [=](std::int64_t k) { return k < 1 ? 0.0 : -std::pow(p, k) / (k * l); }, -p / ((1 - p) * l),
                 -p * (p + l) / ((1 - p) * (1 - p) * l * l)});
  }
  {
    const double a = 4.5;
    v.push_back({"zipf(4.5)", [=](auto& r) { return r.zipf(a, N); },
                 [=](std::int64_t k) { return k < 1 ? 0.0 : std::pow(double(k), -a) / std::riemann_zeta(a); },
                 std::riemann_zeta(a - 1) / std::riemann_zeta(a), nan_v});
  }
  for (auto [g, b, n] : {std::tuple{20.0, 30.0, 5.0}, std::tuple{500.0, 400.0, 200.0}, std::tuple{50.0, 5000.0, 300.0}}) {
    const double N_ = g + b;
    v.push_back({"hypergeometric(" + std::to_string(g) + ", " + std::to_string(b) + ", " + std::to_string(n) + ")",
                 [=](auto& r) { return r.hypergeometric(std::int64_t(g), std::int64_t(b), std::int64_t(n), N); },
                 [=](std::int64_t k) {
                   if (k > n || k > g || n - k > b) return 0.0;
                   return std::exp(log_choose(g, k) + log_choose(b, n - k) - log_choose(N_, n));
                 },
                 n * g / N_, n * g * b * (N_ - n) / (N_ * N_ * (N_ - 1))});
  }
  v.push_back({"integers(0, 10)", [](auto& r) { return r.integers(0, 10, N); },
               [](std::int64_t k) { return k < 10 ? 0.1 : 0.0; }, 4.5, 8.25});
  v.push_back({"integers(-3, 3, endpoint)", [](auto& r) { return r.integers(-3, 3, N, int64, true) + 3; },
               [](std::int64_t k) { return k <= 6 ? 1.0 / 7 : 0.0; }, 3.0, 4.0});
  return v;
}

TEST(RandomStatsGpu, DiscreteDistributions) {
  CUPP_REQUIRE_GPU();
  std::uint64_t seed = 2000;
  for (const discrete_case& c : discrete_cases()) check_discrete(c, seed++);
}

// dirichlet: rows on the simplex, the first component Beta(a0, sum - a0); the small-alpha
// (stick-breaking) path too. multinomial: rows sum to n, a component is binomial.
TEST(RandomStatsGpu, DirichletAndMultinomial) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(77);
  const std::int64_t rows = std::int64_t{1} << 18;
  for (const std::vector<double>& alpha : {std::vector<double>{2, 3, 5}, std::vector<double>{0.05, 0.05, 0.05}}) {
    const ndarray d = rng.dirichlet(asarray(alpha), {rows});
    ASSERT_EQ(d.shape()[1], 3);
    const std::vector<double> x = d.to_vector<double>();
    double total = 0;
    for (double a : alpha) total += a;
    std::vector<double> first(rows);
    for (std::int64_t i = 0; i < rows; ++i) {
      ASSERT_NEAR(x[3 * i] + x[3 * i + 1] + x[3 * i + 2], 1.0, 1e-12);
      first[i] = x[3 * i];
    }
    const double a0 = alpha[0], b0 = total - a0;
    EXPECT_LT(st::ks_statistic(first, [=](double v) { return st::incomplete_beta(a0, b0, v); }, 1 - 1e-9),
              st::ks_threshold(first.size()))
        << "dirichlet alpha[0] = " << a0;
    EXPECT_NEAR(st::sample_moments(first).mean, a0 / total, 6 * st::sample_moments(first).mean_se);
  }
  const ndarray m = rng.multinomial(20, asarray(std::vector<double>{0.2, 0.3, 0.5}), {rows});
  ASSERT_EQ(m.dtype(), int64);
  const std::vector<std::int64_t> c = m.to_vector<std::int64_t>();
  std::vector<double> second(rows);
  for (std::int64_t i = 0; i < rows; ++i) {
    ASSERT_EQ(c[3 * i] + c[3 * i + 1] + c[3 * i + 2], 20);
    second[i] = double(c[3 * i + 1]);
  }
  const st::moments mm = st::sample_moments(second);
  EXPECT_NEAR(mm.mean, 6.0, 6 * mm.mean_se);
  EXPECT_NEAR(mm.var, 20 * 0.3 * 0.7, 6 * mm.var_se);

  // multivariate_hypergeometric: rows sum to nsample, a color is hypergeometric
  const ndarray h = rng.multivariate_hypergeometric(asarray(std::vector<std::int64_t>{10, 20, 30}), 15, {rows});
  const std::vector<std::int64_t> hv = h.to_vector<std::int64_t>();
  std::vector<double> col0(rows);
  for (std::int64_t i = 0; i < rows; ++i) {
    ASSERT_EQ(hv[3 * i] + hv[3 * i + 1] + hv[3 * i + 2], 15);
    col0[i] = double(hv[3 * i]);
  }
  const st::moments hm = st::sample_moments(col0);
  EXPECT_NEAR(hm.mean, 15.0 * 10 / 60, 6 * hm.mean_se);
  EXPECT_NEAR(hm.var, 15.0 * 10 * 50 * 45 / (60.0 * 60 * 59), 6 * hm.var_se);
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_hypergeometric(asarray(std::vector<std::int64_t>{1, 2}), 4); }),
            "nsample > sum(colors)");
}

// multivariate_normal: the sample mean and covariance against mean and cov, each method.
TEST(RandomStatsGpu, MultivariateNormal) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(91);
  const std::vector<double> mean = {1.0, -2.0, 0.5}, cov = {4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.5};
  const std::int64_t rows = std::int64_t{1} << 20;
  for (const char* method : {"svd", "eigh", "cholesky"}) {
    const ndarray x = rng.multivariate_normal(asarray(mean), asarray(cov).reshape({3, 3}), {rows}, "raise", 1e-8, method);
    ASSERT_EQ(x.shape()[0], rows);
    ASSERT_EQ(x.shape()[1], 3);
    const std::vector<double> v = x.to_vector<double>();
    double m[3] = {0, 0, 0}, c[9] = {};
    for (std::int64_t i = 0; i < rows; ++i)
      for (int j = 0; j < 3; ++j) m[j] += v[3 * i + j] / rows;
    for (std::int64_t i = 0; i < rows; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) c[3 * j + k] += (v[3 * i + j] - m[j]) * (v[3 * i + k] - m[k]) / rows;
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(m[j], mean[j], 6 * std::sqrt(cov[4 * j] / rows)) << method;
    for (int j = 0; j < 9; ++j)  // se of a covariance: sqrt((c_ii c_kk + c_ik^2) / n)
      EXPECT_NEAR(c[j], cov[j], 6 * std::sqrt((cov[4 * (j / 3)] * cov[4 * (j % 3)] + cov[j] * cov[j]) / rows)) << method;
  }
}

// choice without replacement (the images of 0..k-1 under a Feistel permutation with cycle walking,
// for k small and large against a): every value is included with probability k/a, the first
// position is uniform, and the first two positions and the last two are jointly as a uniform
// ordered pair of distinct values (adjacent images of the permutation are not correlated).
TEST(RandomStatsGpu, ChoiceWithoutReplacementIsUniform) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(123);
  for (std::int64_t k : {50, 400}) {
    const std::int64_t a = 1000, draws = 4000;
    std::vector<std::int64_t> included, first, head_pair, tail_pair;
    for (std::int64_t d = 0; d < draws; ++d) {
      const std::vector<std::int64_t> v = rng.choice(a, {k}, false).to_vector<std::int64_t>();
      ASSERT_EQ(std::set<std::int64_t>(v.begin(), v.end()).size(), std::size_t(k));
      included.insert(included.end(), v.begin(), v.end());
      first.push_back(v[0]);
      head_pair.push_back(10 * (v[0] / 100) + v[1] / 100);
      tail_pair.push_back(10 * (v[k - 2] / 100) + v[k - 1] / 100);
    }
    // a uniform ordered pair of distinct values of [0, 1000) in 10 x 10 bins of 100 values
    const auto pair_pmf = [](std::int64_t cell) {
      return cell < 100 ? 100.0 * (100.0 - (cell / 10 == cell % 10 ? 1.0 : 0.0)) / (1000.0 * 999.0) : 0.0;
    };
    EXPECT_LT(std::fabs(st::chi2_z(head_pair, pair_pmf, 0, 99)), 5.0) << "k = " << k;
    EXPECT_LT(std::fabs(st::chi2_z(tail_pair, pair_pmf, 0, 99)), 5.0) << "k = " << k;
    // inclusion counts: binomial(draws, k/a) each, so the chi-square is scaled by 1 - k/a
    std::vector<double> counts(a, 0.0);
    for (std::int64_t v : included) counts[v] += 1;
    const double e = double(draws) * k / a;
    double stat = 0;
    for (double c : counts) stat += (c - e) * (c - e) / (e * (1.0 - double(k) / a));
    EXPECT_LT(std::fabs((stat - (a - 1)) / std::sqrt(2.0 * (a - 1))), 5.0) << "k = " << k;
    std::vector<std::int64_t> first10(first.size());
    for (std::size_t i = 0; i < first.size(); ++i) first10[i] = first[i] / 100;  // ten bins
    EXPECT_LT(std::fabs(st::chi2_z(first10, [](std::int64_t x) { return x < 10 ? 0.1 : 0.0; }, 0, 9)), 5.0)
        << "k = " << k;
  }
}

// integers(0, 3 * 2^30): Lemire rejects a quarter of the words; without the rejection, values
// = 2 mod 3 come twice as often. The residues mod 3 must be uniform.
double residue_z(random::Generator& rng) {
  const std::vector<std::int64_t> v = rng.integers(0, std::int64_t{3} << 30, N).to_vector<std::int64_t>();
  std::vector<std::int64_t> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i] % 3;
  return st::chi2_z(r, [](std::int64_t k) { return k < 3 ? 1.0 / 3 : 0.0; }, 0, 2);
}

struct broken_guard {
  broken_guard() { random::detail::set_broken(true); }
  ~broken_guard() { random::detail::set_broken(false); }
};

TEST(RandomStatsGpu, LemireRejectionKeepsResiduesUniform) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(9);
  EXPECT_LT(std::fabs(residue_z(rng)), 5.0);
}

// The deliberately broken generator fails the same checks (the checks can fail).
TEST(RandomStatsGpu, BrokenGeneratorFailsTheChecks) {
  CUPP_REQUIRE_GPU();
  broken_guard guard;
  auto rng = random::default_rng(9);
  EXPECT_GT(std::fabs(residue_z(rng)), 100.0);
  for (cupp::dtype t : {float64, float32}) {
    const std::vector<double> x = astype(rng.random(N, t), float64).to_vector<double>();
    const double d = st::ks_statistic(x, [](double u) { return u; });
    EXPECT_GT(d, 10 * st::ks_threshold(x.size())) << t.name();
    EXPECT_GT(std::fabs(st::sample_moments(x).mean - 0.5), 100 * st::sample_moments(x).mean_se);
  }
}

// Every continuous and discrete case above fails its checks with the broken generator (every
// Philox word x -> x & (x >> 1) in every kernel), at the seeds the passing runs use.
TEST(RandomStatsGpu, BrokenGeneratorFailsEveryDistribution) {
  CUPP_REQUIRE_GPU();
  broken_guard guard;
  std::uint64_t seed = 1000;
  int caught = 0, cases = 0;
  for (const continuous_case& c : continuous_cases()) {
    const std::string why = verdict_continuous(c, seed++);
    EXPECT_FALSE(why.empty()) << c.name << " passes with the broken generator";
    caught += !why.empty(), ++cases;
  }
  seed = 2000;
  for (const discrete_case& c : discrete_cases()) {
    const std::string why = verdict_discrete(c, seed++);
    EXPECT_FALSE(why.empty()) << c.name << " passes with the broken generator";
    caught += !why.empty(), ++cases;
  }
  std::printf("broken generator: %d of %d distributions' checks fail\n", caught, cases);
}

}  // namespace
}  // namespace cupp
