// The random module's rejection samplers (embedded as cupp/random/samplers.cuh, included by
// kernels.cuh): each draws from one element's own word stream (philox.cuh's element_stream), so
// how many words an element takes never shifts another element's numbers. The algorithms are
// NumPy's (numpy/random/src/distributions/distributions.c: Marsaglia-Tsang gamma, Johnk's beta,
// PTRS poisson, wald, vonmises, logseries, zipf, hypergeometric) except binomial, which is inversion for
// n*min(p, 1-p) < 10 and Hormann's BTRS above (NumPy uses BTPE there: the same distribution).
#pragma once

#include <cupp/random/params.cuh>
#include <cupp/random/philox.cuh>

namespace cupp_random {

__device__ __forceinline__ double std_exponential(element_stream& s) { return -log1p(-s.uniform()); }

// One normal by Box-Muller from four words (the sine half is dropped).
__device__ __forceinline__ double std_normal(element_stream& s) {
  const double u1 = (double)((s.next64() >> 11) + 1) * (1.0 / 9007199254740992.0);
  const double u2 = s.uniform();
  return sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
}

__device__ __noinline__ double std_gamma(element_stream& s, double shape) {
  if (shape == 1.0) return std_exponential(s);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      const double U = s.uniform();
      const double V = std_exponential(s);
      if (U <= 1.0 - shape) {
        const double X = pow(U, 1.0 / shape);
        if (X <= V) return X;
      } else {
        const double Y = -log((1.0 - U) / shape);
        const double X = pow(1.0 - shape + shape * Y, 1.0 / shape);
        if (X <= V + Y) return X;
      }
    }
  }
  const double b = shape - 1.0 / 3.0;
  const double c = 1.0 / sqrt(9.0 * b);
  for (;;) {
    double X, V;
    do {
      X = std_normal(s);
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    const double U = s.uniform();
    if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
    if (log(U) < 0.5 * X * X + b * (1.0 - V + log(V))) return b * V;
  }
}

__device__ __noinline__ double beta_sample(element_stream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) {  // Johnk's algorithm
      const double U = s.uniform(), V = s.uniform();
      const double X = pow(U, 1.0 / a), Y = pow(V, 1.0 / b);
      const double XpY = X + Y;
      if (XpY <= 1.0 && U + V > 0.0) {
        if (XpY > 0) return X / XpY;
        double logX = log(U) / a, logY = log(V) / b;
        const double logM = logX > logY ? logX : logY;
        logX -= logM;
        logY -= logM;
        return exp(logX - log(exp(logX) + exp(logY)));
      }
    }
  }
  const double Ga = std_gamma(s, a), Gb = std_gamma(s, b);
  return Ga / (Ga + Gb);
}

__device__ __forceinline__ double chisq(element_stream& s, double df) { return 2.0 * std_gamma(s, df / 2.0); }

__device__ __noinline__ long long poisson_sample(element_stream& s, double lam) {
  if (lam >= 10) {  // PTRS (Hormann 1993), NumPy's random_poisson_ptrs
    const double slam = sqrt(lam), loglam = log(lam);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const double U = s.uniform() - 0.5, V = s.uniform();
      const double us = 0.5 - fabs(U);
      const long long k = (long long)floor((2 * a / us + b) * U + lam + 0.43);
      if (us >= 0.07 && V <= vr) return k;
      if (k < 0 || (us < 0.013 && V > us)) continue;
      if (log(V) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0)) return k;
    }
  }
  if (lam == 0) return 0;
  const double enlam = exp(-lam);  // multiplication (NumPy's random_poisson_mult)
  long long X = 0;
  double prod = 1.0;
  for (;;) {
    prod *= s.uniform();
    if (prod > enlam) X += 1;
    else return X;
  }
}

__device__ __noinline__ long long binomial_sample(element_stream& s, double nd, double p) {
  const long long n = (long long)nd;
  if (n == 0 || p == 0.0) return 0;
  if (p == 1.0) return n;
  const bool flip = p > 0.5;
  const double pp = flip ? 1.0 - p : p, q = 1.0 - pp;
  long long k;
  if ((double)n * pp < 10.0) {  // inversion
    const double ratio = pp / q, a = (double)(n + 1) * ratio;
    double r = pow(q, (double)n), u = s.uniform();
    k = 0;
    while (u > r && k < n) {
      u -= r;
      ++k;
      r *= a / (double)k - ratio;
      if (r <= 0.0) {  // lost to rounding far in the tail: start again
        u = s.uniform();
        r = pow(q, (double)n);
        k = 0;
      }
    }
  } else {  // BTRS (Hormann 1993, "The generation of binomial random variates")
    const double spq = sqrt((double)n * pp * q);
    const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * pp, c = (double)n * pp + 0.5;
    const double vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = log(pp / q);
    const double m = floor((double)(n + 1) * pp);
    const double h = lgamma(m + 1.0) + lgamma((double)n - m + 1.0);
    for (;;) {
      const double u = s.uniform() - 0.5, v0 = s.uniform();
      const double us = 0.5 - fabs(u);
      const double kd = floor((2.0 * a / us + b) * u + c);
      if (kd < 0 || kd > (double)n) continue;
      if (us >= 0.07 && v0 <= vr) {
        k = (long long)kd;
        break;
      }
      const double v = log(v0 * alpha / (a / (us * us) + b));
      if (v <= h - lgamma(kd + 1.0) - lgamma((double)n - kd + 1.0) + (kd - m) * lpq) {
        k = (long long)kd;
        break;
      }
    }
  }
  return flip ? n - k : k;
}

// A uniform integer in [0, max] (NumPy's random_interval: masked rejection).
__device__ __forceinline__ u64 interval(element_stream& s, u64 max) {
  if (max == 0) return 0;
  u64 mask = max;
  mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4; mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
  u64 v;
  if (max <= 0xFFFFFFFFull) {
    while ((v = (s.next32() & mask)) > max) {}
  } else {
    while ((v = (s.next64() & mask)) > max) {}
  }
  return v;
}

__device__ __forceinline__ double logfactorial(long long k) { return lgamma((double)k + 1.0); }

// NumPy's random_hypergeometric: the simple urn for small samples, Stadlober's HRUA otherwise.
__device__ __noinline__ long long hypergeometric_sample(element_stream& s, long long good, long long bad,
                                                        long long sample) {
  const long long total = good + bad;
  if (bad <= 0) return sample;  // every ball good (multivariate_hypergeometric's last colors)
  if (good <= 0 || sample <= 0) return 0;
  if (!(sample >= 10 && sample <= total - 10)) {
    const long long computed = sample > total / 2 ? total - sample : sample;
    long long remaining_total = total, remaining_good = good, left = computed;
    while (left > 0 && remaining_good > 0 && remaining_total > remaining_good) {
      --remaining_total;
      if ((long long)interval(s, (u64)remaining_total) < remaining_good) --remaining_good;
      --left;
    }
    if (remaining_total == remaining_good) remaining_good -= left;
    return sample > total / 2 ? remaining_good : good - remaining_good;
  }
  const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;
  const long long computed = sample < total - sample ? sample : total - sample;
  const long long mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
  const double p = (double)mingb / total, q = (double)maxgb / total;
  const double mu = computed * p, a = mu + 0.5;
  const double var = (double)(total - computed) * computed * p * q / (total - 1);
  const double c = sqrt(var + 0.5), h = D1 * c + D2;
  const long long m = (long long)floor((double)(computed + 1) * (mingb + 1) / (total + 2));
  const double g = logfactorial(m) + logfactorial(mingb - m) + logfactorial(computed - m) +
                   logfactorial(maxgb - computed + m);
  const double bmax = (double)((computed < mingb ? computed : mingb) + 1);
  const double b = bmax < floor(a + 16 * c) ? bmax : floor(a + 16 * c);
  long long K;
  for (;;) {
    const double U = s.uniform(), V = s.uniform();
    const double X = a + h * (V - 0.5) / U;
    if (X < 0.0 || X >= b) continue;
    K = (long long)floor(X);
    const double gp = logfactorial(K) + logfactorial(mingb - K) + logfactorial(computed - K) +
                      logfactorial(maxgb - computed + K);
    const double T = g - gp;
    if (U * (4.0 - U) - 3.0 <= T) break;
    if (U * (U - T) >= 1) continue;
    if (2.0 * log(U) <= T) break;
  }
  if (good > bad) K = computed - K;
  if (computed < sample) K = good - K;
  return K;
}

__device__ __noinline__ double sample_real(element_stream& s, int dist, double a, double b, double c) {
  switch (dist) {
    case s_standard_gamma: return std_gamma(s, a);
    case s_gamma: return b * std_gamma(s, a);
    case s_beta: return beta_sample(s, a, b);
    case s_chisquare: return chisq(s, a);
    case s_f: return (chisq(s, a) * b) / (chisq(s, b) * a);
    case s_standard_t: {
      const double num = std_normal(s);
      const double denom = std_gamma(s, a / 2.0);
      return sqrt(a / 2.0) * num / sqrt(denom);
    }
    case s_wald: {
      double Y = std_normal(s);
      Y = a * Y * Y;
      const double d = 1.0 + sqrt(1.0 + 4.0 * b / Y);
      const double X = a * (1.0 - 2.0 / d);
      const double U = s.uniform();
      return U <= a / (a + X) ? X : a * a / X;
    }
    case s_vonmises: {
      const double pi = 3.141592653589793;
      if (b != b) return b;
      if (b < 1e-8) return pi * (2.0 * s.uniform() - 1.0);
      double sv;
      if (b < 1e-5) {
        sv = 1.0 / b + b;
      } else if (b <= 1e6) {
        const double r = 1.0 + sqrt(1.0 + 4.0 * b * b);
        const double rho = (r - sqrt(2.0 * r)) / (2.0 * b);
        sv = (1.0 + rho * rho) / (2.0 * rho);
      } else {
        double result = a + sqrt(1.0 / b) * std_normal(s);
        if (result < -pi) result += 2 * pi;
        if (result > pi) result -= 2 * pi;
        return result;
      }
      double W;
      for (;;) {
        const double U = s.uniform();
        const double Z = cos(pi * U);
        W = (1.0 + sv * Z) / (sv + Z);
        const double Y = b * (sv - W);
        const double V = s.uniform();
        if ((Y * (2.0 - Y) - V >= 0) || (log(Y / V) + 1.0 - Y >= 0)) break;
      }
      double result = acos(W);
      if (s.uniform() < 0.5) result = -result;
      result += a;
      const bool neg = result < 0;
      double mod = fmod(fabs(result) + pi, 2.0 * pi) - pi;
      return neg ? -mod : mod;
    }
    case s_noncentral_chisquare: {
      if (b != b) return b;
      if (b == 0) return chisq(s, a);
      if (1 < a) {
        const double chi2 = chisq(s, a - 1.0);
        const double nn = std_normal(s) + sqrt(b);
        return chi2 + nn * nn;
      }
      return chisq(s, a + 2.0 * (double)poisson_sample(s, b / 2.0));
    }
    case s_noncentral_f: {
      double t;
      if (c != c) t = c;
      else if (c == 0) t = chisq(s, a);
      else if (1 < a) {
        const double chi2 = chisq(s, a - 1.0);
        const double nn = std_normal(s) + sqrt(c);
        t = chi2 + nn * nn;
      } else {
        t = chisq(s, a + 2.0 * (double)poisson_sample(s, c / 2.0));
      }
      return (t * b) / (chisq(s, b) * a);
    }
  }
  return 0.0;
}

__device__ __noinline__ long long sample_int(element_stream& s, int dist, double a, double b, double c) {
  switch (dist) {
    case s_poisson: return poisson_sample(s, a);
    case s_binomial: return binomial_sample(s, a, b);
    case s_geometric: {
      if (a == 1.0) return 1;
      const double z = ceil(-std_exponential(s) / log1p(-a));
      if (z >= 9.223372036854776e+18) return 0x7FFFFFFFFFFFFFFFll;
      return z < 1.0 ? 1 : (long long)z;
    }
    case s_negative_binomial: return poisson_sample(s, std_gamma(s, a) * ((1.0 - b) / b));
    case s_logseries: {
      const double r = log1p(-a);
      for (;;) {
        const double V = s.uniform();
        if (V >= a) return 1;
        const double U = s.uniform();
        const double q = -expm1(r * U);
        if (V <= q * q) {
          const long long result = (long long)floor(1 + log(V) / log(q));
          if (result < 1 || V == 0.0) continue;
          return result;
        }
        return V >= q ? 1 : 2;
      }
    }
    case s_hypergeometric: return hypergeometric_sample(s, (long long)a, (long long)b, (long long)c);
    case s_zipf: {
      if (a >= 1025) return 1;
      const double am1 = a - 1.0, bb = pow(2.0, am1);
      const double umin = pow(9.223372036854775807e18, -am1);
      for (;;) {
        const double U01 = s.uniform();
        const double U = U01 * umin + (1.0 - U01);
        const double V = s.uniform();
        const double X = floor(pow(U, -1.0 / am1));
        if (X > 9.223372036854775807e18 || X < 1.0) continue;
        const double T = pow(1.0 + 1.0 / X, am1);
        if (V * X * (T - 1.0) / (bb - 1.0) <= T / bb) return (long long)X;
      }
    }
  }
  return 0;
}

}  // namespace cupp_random
