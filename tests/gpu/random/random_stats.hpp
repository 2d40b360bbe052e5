// Test support for cupp::random's GPU tests: closed-form CDFs and pmfs (regularized incomplete
// gamma and beta by series and continued fraction, as Numerical Recipes 6.2 and 6.4), the
// Kolmogorov-Smirnov statistic of a sample against a CDF, a chi-square statistic of integer
// counts against a pmf, and sample moments with their standard errors.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <vector>

namespace cupp::test::stats {

inline double lower_gamma_p(double a, double x) {  // P(a, x)
  if (x <= 0) return 0.0;
  const double gln = std::lgamma(a);
  if (x < a + 1.0) {
    double ap = a, sum = 1.0 / a, del = sum;
    for (int n = 0; n < 10000; ++n) {
      ap += 1.0;
      del *= x / ap;
      sum += del;
      if (std::fabs(del) < std::fabs(sum) * 1e-15) break;
    }
    return sum * std::exp(-x + a * std::log(x) - gln);
  }
  double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::fabs(c) < 1e-300) c = 1e-300;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-15) break;
  }
  return 1.0 - std::exp(-x + a * std::log(x) - gln) * h;
}

inline double betacf(double a, double b, double x) {
  const double fpmin = 1e-300;
  double qab = a + b, qap = a + 1.0, qam = a - 1.0, c = 1.0, d = 1.0 - qab * x / qap;
  if (std::fabs(d) < fpmin) d = fpmin;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 10000; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < fpmin) d = fpmin;
    c = 1.0 + aa / c;
    if (std::fabs(c) < fpmin) c = fpmin;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < fpmin) d = fpmin;
    c = 1.0 + aa / c;
    if (std::fabs(c) < fpmin) c = fpmin;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-15) break;
  }
  return h;
}

inline double incomplete_beta(double a, double b, double x) {  // I_x(a, b)
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  const double bt = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                             b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return bt * betacf(a, b, x) / a;
  return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

inline double student_t_cdf(double t, double df) {
  const double x = df / (df + t * t);
  const double tail = 0.5 * incomplete_beta(df / 2.0, 0.5, x);
  return t > 0 ? 1.0 - tail : tail;
}

inline double f_cdf(double x, double d1, double d2) {
  if (x <= 0) return 0.0;
  return incomplete_beta(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2));
}

// sup |F_n - F| of the sample (sorted here), over the points below `upper` (a distribution with
// mass within an ulp of a bound, Beta(0.05, 0.1) near 1, rounds it onto the bound: a tie that is
// the double format's, not the generator's).
inline double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf,
                           double upper = std::numeric_limits<double>::infinity()) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size() && x[i] < upper; ++i) {
    const double f = cdf(x[i]);
    d = std::max(d, std::max(f - i / n, (i + 1) / n - f));
  }
  return d;
}
// The KS threshold: the 1e-6 upper quantile of sqrt(n) D is about 2.77 (Kolmogorov's limit law).
inline double ks_threshold(std::size_t n) { return 2.77 / std::sqrt(static_cast<double>(n)); }

// The chi-square statistic of counts of integer values against pmf (bins below 5 expected
// merged into the tails), as (statistic - dof) / sqrt(2 dof): a z-score (0 +- 1 for a right
// sample; the tests accept up to 5).
inline double chi2_z(const std::vector<std::int64_t>& values, const std::function<double(std::int64_t)>& pmf,
                     std::int64_t lo, std::int64_t hi) {
  const double n = static_cast<double>(values.size());
  std::map<std::int64_t, double> counts;
  for (std::int64_t v : values) counts[std::clamp(v, lo, hi)] += 1;
  double stat = 0.0;
  int bins = 0;
  // bins: (-inf, lo], lo+1 ... hi-1, [hi, inf), expected from pmf (whose support starts at 0 or more)
  double cdf_lo = 0.0;
  for (std::int64_t k = 0; k <= lo; ++k) cdf_lo += pmf(k);
  double total = cdf_lo;
  auto add_bin = [&](double expected, double observed) {
    if (expected <= 0) return;
    stat += (observed - expected) * (observed - expected) / expected;
    ++bins;
  };
  add_bin(cdf_lo * n, counts[lo]);
  for (std::int64_t k = lo + 1; k < hi; ++k) {
    const double p = pmf(k);
    total += p;
    add_bin(p * n, counts[k]);
  }
  add_bin((1.0 - total) * n, counts[hi]);
  const double dof = bins - 1;
  return (stat - dof) / std::sqrt(2.0 * dof);
}

struct moments {
  double mean, var, mean_se, var_se;
};
inline moments sample_moments(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double m = 0.0;
  for (double v : x) m += v;
  m /= n;
  double m2 = 0.0, m4 = 0.0;
  for (double v : x) {
    const double d = (v - m) * (v - m);
    m2 += d;
    m4 += d * d;
  }
  m2 /= n;
  m4 /= n;
  return {m, m2, std::sqrt(m2 / n), std::sqrt(std::max(m4 - m2 * m2, 0.0) / n)};
}

}  // namespace cupp::test::stats
