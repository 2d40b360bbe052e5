// The random module's kernels run on the CPU (tests/unit/random/device_shim.hpp), so CI without a
// GPU checks their logic: the same words for every emulated launch shape, the vectorised stores
// equal to the element-by-element ones, uniform/normal/exponential moments and KS statistics,
// the rejection samplers (gamma, beta, poisson, binomial, hypergeometric, ...) against their
// closed forms, Lemire's rejection (and that the broken hook fails), and the constraint bits.
// The GPU tests (tests/gpu/random/) check the same on the device.
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "../../gpu/random/random_stats.hpp"

namespace emu {
#include "device_shim.hpp"
#include <cupp/random/kernels.cuh>
#include <cupp/random/stream.cuh>
}  // namespace emu

namespace cupp {
namespace {

namespace st = test::stats;
using emu::cupp_random::param;
using emu::cupp_random::philox_call;

// Runs `launch` as every thread of a blocks x threads grid, one after another.
void run_grid(unsigned blocks, unsigned threads, const std::function<void()>& launch) {
  emu::gridDim.x = blocks;
  emu::blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) {
      emu::blockIdx.x = b;
      emu::threadIdx.x = t;
      launch();
    }
  }
  emu::gridDim.x = emu::blockDim.x = 1;
  emu::blockIdx.x = emu::threadIdx.x = 0;
}

// Runs `launch` as a blocks x threads grid whose blocks run one after another, each block's threads
// at once as OS threads in warps of 32 (threads a multiple of 32), so warp shuffles work.
void run_warps(unsigned blocks, unsigned threads, const std::function<void()>& launch) {
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<std::unique_ptr<std::barrier<>>> bars;
    std::vector<emu::warp_context> warps(threads / 32);
    for (auto& w : warps) {
      bars.push_back(std::make_unique<std::barrier<>>(32));
      w.bar = bars.back().get();
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, b, t] {
        emu::gridDim.x = blocks;
        emu::blockDim.x = threads;
        emu::blockIdx.x = b;
        emu::threadIdx.x = t;
        emu::this_warp = &warps[t / 32];
        launch();
      });
    }
    for (std::thread& th : pool) th.join();
  }
}

const philox_call call{0x243f6a88u, 0x85a308d3u, 7, 0, 0};
const param none{nullptr, 0.0};

TEST(RandomKernelsHost, SameWordsForEveryLaunchShape) {
  const long long n = 10007;
  std::vector<float> base(n), other(n);
  std::vector<double> sbase(300), sother(300);
  run_grid(1, 1, [&] { emu::cupp_random_transform_f32(base.data(), n, call, emu::cupp_random::t_random, 1); });
  run_grid(1, 1, [&] {
    emu::cupp_random_stream(sbase.data(), 300, call, emu::cupp_random::s_gamma, param{nullptr, 0.7}, param{nullptr, 2.0},
                            none, 0);
  });
  for (auto [b, t] : {std::pair{3u, 7u}, std::pair{64u, 32u}, std::pair{1u, 1024u}}) {
    run_grid(b, t, [&] { emu::cupp_random_transform_f32(other.data(), n, call, emu::cupp_random::t_random, 1); });
    EXPECT_EQ(base, other) << b << " x " << t;
    run_grid(b, t, [&] {
      emu::cupp_random_stream(sother.data(), 300, call, emu::cupp_random::s_gamma, param{nullptr, 0.7},
                              param{nullptr, 2.0}, none, 0);
    });
    EXPECT_EQ(sbase, sother) << b << " x " << t;
  }
}

TEST(RandomKernelsHost, VectorStoresEqualElementStores) {
  const long long n = 4099;
  std::vector<float> a(n), b(n);
  emu::cupp_random_transform_f32(a.data(), n, call, emu::cupp_random::t_standard_exponential, 1);
  emu::cupp_random_transform_f32(b.data(), n, call, emu::cupp_random::t_standard_exponential, 0);
  EXPECT_EQ(a, b);
  std::vector<double> c(n), d(n);
  emu::cupp_random_normal_f64(c.data(), n, call, param{nullptr, 1.0}, param{nullptr, 2.0}, 0, 1);
  emu::cupp_random_normal_f64(d.data(), n, call, param{nullptr, 1.0}, param{nullptr, 2.0}, 0, 0);
  EXPECT_EQ(c, d);
  for (int itemsize : {1, 2, 4, 8}) {
    for (int wide : {0, 1}) {
      if (wide && itemsize != 8) continue;
      std::vector<unsigned char> v(n * 8 + 16), w(n * 8 + 16);
      const emu::cupp_random::iparam low{nullptr, 3}, range{nullptr, wide ? (1ull << 40) : 250ull};
      emu::cupp_random_integers(v.data(), n, call, low, range, itemsize, wide, 0, 1);
      emu::cupp_random_integers(w.data(), n, call, low, range, itemsize, wide, 0, 0);
      EXPECT_EQ(std::memcmp(v.data(), w.data(), n * itemsize), 0) << itemsize << " wide " << wide;
    }
  }
}

// Generator.random's fast path (uniform_runs: counter_run's Philox run by run, float4/double2
// stores; standard_normal float32's too) gives the general path's values, bit for bit, for calls whose groups wrap the counter's
// low word (two runs) and carry into word 2 (and wrap it), n of every remainder, emulated grids.
TEST(RandomKernelsHost, UniformRunsEqualTheGeneralPath) {
  const philox_call calls[] = {call,
                               {0x243f6a88u, 0x85a308d3u, 0xfffffffau, 3, 9},
                               {0x13198a2eu, 0x03707344u, 0xffffff00u, 0xffffffffu, 0xffffffffu},
                               {1, 2, 0, 0xffffffffu, 5}};
  for (const philox_call& c : calls) {
    for (long long n : {1ll, 3ll, 4ll, 5ll, 99ll, 4099ll, 2050ll}) {
      std::vector<float> a(n), b(n, -1.0f);
      std::vector<double> x(n), y(n, -1.0);
      emu::cupp_random_transform_f32(a.data(), n, c, emu::cupp_random::t_random, 0);  // element stores
      emu::cupp_random_transform_f64(x.data(), n, c, emu::cupp_random::t_random, none, none, none, 0);
      for (auto [bl, t] : {std::pair{1u, 1u}, std::pair{3u, 7u}, std::pair{64u, 32u}}) {
        run_grid(bl, t, [&] { emu::cupp_random_transform_f32(b.data(), n, c, emu::cupp_random::t_random, 1); });
        EXPECT_EQ(a, b) << "c0 " << c.c0 << " n " << n << " grid " << bl << " x " << t;
        run_grid(bl, t, [&] { emu::cupp_random_uniform_f64(y.data(), n, c); });
        EXPECT_EQ(x, y) << "c0 " << c.c0 << " n " << n << " grid " << bl << " x " << t;
        std::vector<float> z(n), zv(n, -1.0f);  // standard_normal float32 takes the same runs
        emu::cupp_random_normal_f32(z.data(), n, c, 0.5f, 2.0f, 0);
        run_grid(bl, t, [&] { emu::cupp_random_normal_f32(zv.data(), n, c, 0.5f, 2.0f, 1); });
        EXPECT_EQ(z, zv) << "c0 " << c.c0 << " n " << n << " grid " << bl << " x " << t;
      }
    }
  }
}

// integers32 (a scalar 32-bit range) gives the general kernel's narrow values for every item size,
// aligned or not, emulated grid (its int64 tiles stored by each group's thread: shuffled = 0), the
// full 32-bit range, range 0 and the broken hook.
TEST(RandomKernelsHost, Integers32EqualTheGeneralKernel) {
  for (long long n : {4099ll, 128ll * 5, 3ll}) {
    for (unsigned long long range : {0ull, 250ull, 999999ull, 3ull << 30, 0xFFFFFFFFull}) {
      for (int broken : {0, 1}) {
        for (int itemsize : {1, 2, 4, 8}) {
          std::vector<unsigned char> v(n * 8 + 16), w(n * 8 + 16);
          const emu::cupp_random::iparam low{nullptr, 5}, r{nullptr, range};
          emu::cupp_random_integers(v.data(), n, call, low, r, itemsize, 0, broken, 0);
          for (int vec : {0, 1}) {
            for (auto [b, t] : {std::pair{1u, 1u}, std::pair{3u, 7u}, std::pair{2u, 64u}}) {
              std::fill(w.begin(), w.end(), 0xAB);
              run_grid(b, t, [&] { emu::cupp_random_integers32(w.data(), n, call, 5ull, range, itemsize, broken, vec, 0); });
              EXPECT_EQ(std::memcmp(v.data(), w.data(), n * itemsize), 0)
                  << "n " << n << " range " << range << " broken " << broken << " itemsize " << itemsize << " vec " << vec
                  << " grid " << b << " x " << t;
              EXPECT_EQ(w[n * itemsize], 0xAB) << "wrote past the end";
            }
          }
        }
      }
    }
  }
}

// integers32's int64 tiles stored through warp shuffles (two coalesced rows a tile) give the same
// values as the general kernel: whole tiles, a partial last tile, one warp and several.
TEST(RandomKernelsHost, Integers32ShuffledTilesEqualTheGeneralKernel) {
  for (long long n : {128ll * 9, 4099ll, 130ll}) {
    for (unsigned long long range : {999999ull, 0xFFFFFFFFull}) {
      std::vector<unsigned long long> v(n + 2), w(n + 2);
      const emu::cupp_random::iparam low{nullptr, 0xFFFFFFFFFFFFFFF0ull}, r{nullptr, range};  // low = -16
      emu::cupp_random_integers(v.data(), n, call, low, r, 8, 0, 0, 0);
      for (auto [b, t] : {std::pair{1u, 32u}, std::pair{2u, 64u}, std::pair{3u, 96u}}) {
        std::fill(w.begin(), w.end(), 0xABABABABABABABABull);
        run_warps(b, t, [&] { emu::cupp_random_integers32(w.data(), n, call, low.v, range, 8, 0, 1, 1); });
        EXPECT_EQ(std::vector<unsigned long long>(v.begin(), v.begin() + n),
                  std::vector<unsigned long long>(w.begin(), w.begin() + n))
            << "n " << n << " range " << range << " grid " << b << " x " << t;
        EXPECT_EQ(w[n], 0xABABABABABABABABull) << "wrote past the end";
      }
    }
  }
}

// choice's Feistel permutation is a bijection of [0, a) for every domain size (odd and even bit
// counts, powers of two and one past them), and its walk never leaves [0, a).
TEST(RandomKernelsHost, FeistelIsABijection) {
  using emu::cupp_random::feistel;
  for (unsigned long long a : {1ull, 2ull, 3ull, 5ull, 8ull, 1000ull, 4096ull, 4097ull, (1ull << 17) + 3}) {
    feistel f{};
    f.a = a;
    unsigned b = 2;
    while (b < 63 && (1ull << b) < a) ++b;
    f.lbits = b / 2;
    f.rbits = b - f.lbits;
    for (int k = 0; k < 2 * emu::cupp_random::feistel_rounds; ++k) f.keys[k] = 0x9E3779B9u * (k + 7) ^ (unsigned)a;
    std::vector<char> seen(a, 0);
    for (unsigned long long t = 0; t < a; ++t) {
      const unsigned long long x = emu::cupp_random::feistel_permute(f, t);
      ASSERT_LT(x, a) << "a " << a;
      ASSERT_FALSE(seen[x]) << "a " << a << ": " << x << " twice";
      seen[x] = 1;
    }
    if (a >= 1000) {  // not the identity, nor a shift
      EXPECT_NE(emu::cupp_random::feistel_permute(f, 0), 0ull);
      EXPECT_NE(emu::cupp_random::feistel_permute(f, 1) - emu::cupp_random::feistel_permute(f, 0), 1ull);
    }
  }
  // 64-bit domains: distinct values below a
  feistel f{};
  f.a = (1ull << 62) + 12345;
  f.lbits = 31;
  f.rbits = 32;
  for (int k = 0; k < 2 * emu::cupp_random::feistel_rounds; ++k) f.keys[k] = 0x85EBCA6Bu * (k + 1);
  std::set<unsigned long long> got;
  for (unsigned long long t = 0; t < 10000; ++t) {
    const unsigned long long x = emu::cupp_random::feistel_permute(f, t);
    ASSERT_LT(x, f.a);
    got.insert(x);
  }
  EXPECT_EQ(got.size(), 10000u);
}

std::vector<double> transform64(int dist, double a, double b, double c, long long n) {
  std::vector<double> x(n);
  emu::cupp_random_transform_f64(x.data(), n, call, dist, param{nullptr, a}, param{nullptr, b}, param{nullptr, c}, 1);
  return x;
}

std::vector<double> stream64(int dist, double a, double b, double c, long long n) {
  std::vector<double> x(n);
  emu::cupp_random_stream(x.data(), n, call, dist, param{nullptr, a}, param{nullptr, b}, param{nullptr, c}, 0);
  return x;
}

std::vector<std::int64_t> stream_int(int dist, double a, double b, double c, long long n) {
  std::vector<std::int64_t> x(n);
  emu::cupp_random_stream(x.data(), n, call, dist, param{nullptr, a}, param{nullptr, b}, param{nullptr, c}, 2);
  return x;
}

void expect_law(const std::vector<double>& x, const std::function<double(double)>& cdf, double mean, double var,
                const char* what) {
  EXPECT_LT(st::ks_statistic(x, cdf), st::ks_threshold(x.size())) << what;
  const st::moments m = st::sample_moments(x);
  EXPECT_NEAR(m.mean, mean, 6 * m.mean_se) << what;
  EXPECT_NEAR(m.var, var, 6 * m.var_se) << what;
}

constexpr long long N = 1 << 18;

TEST(RandomKernelsHost, ContinuousLaws) {
  using namespace emu::cupp_random;
  expect_law(transform64(t_uniform, -2, 5, 0, N), [](double x) { return (x + 2) / 5; }, 0.5, 25.0 / 12, "uniform");
  expect_law(transform64(t_exponential, 2.5, 0, 0, N), [](double x) { return -std::expm1(-x / 2.5); }, 2.5, 6.25,
             "exponential");
  expect_law(transform64(t_rayleigh, 2, 0, 0, N), [](double x) { return -std::expm1(-x * x / 8); },
             2 * std::sqrt(M_PI / 2), (4 - M_PI) / 2 * 4, "rayleigh");
  std::vector<double> z(N);
  emu::cupp_random_normal_f64(z.data(), N, call, param{nullptr, 3.0}, param{nullptr, 2.0}, 0, 1);
  expect_law(z, [](double x) { return st::normal_cdf((x - 3) / 2); }, 3, 4, "normal float64");
  std::vector<float> zf(N);
  emu::cupp_random_normal_f32(zf.data(), N, call, 0.0f, 1.0f, 1);
  expect_law(std::vector<double>(zf.begin(), zf.end()), [](double x) { return st::normal_cdf(x); }, 0, 1,
             "normal float32");
  expect_law(stream64(s_gamma, 0.6, 2.0, 0, N), [](double x) { return st::lower_gamma_p(0.6, x / 2); }, 1.2, 2.4,
             "gamma(0.6, 2)");
  expect_law(stream64(s_standard_gamma, 5.0, 0, 0, N), [](double x) { return st::lower_gamma_p(5.0, x); }, 5, 5,
             "standard_gamma(5)");
  expect_law(stream64(s_beta, 2, 5, 0, N), [](double x) { return st::incomplete_beta(2, 5, x); }, 2.0 / 7,
             10.0 / (49 * 8), "beta(2, 5)");
  expect_law(stream64(s_beta, 0.4, 0.9, 0, N), [](double x) { return st::incomplete_beta(0.4, 0.9, x); }, 0.4 / 1.3,
             0.36 / (1.69 * 2.3), "beta(0.4, 0.9)");
  expect_law(stream64(s_standard_t, 9, 0, 0, N), [](double x) { return st::student_t_cdf(x, 9); }, 0, 9.0 / 7,
             "standard_t(9)");
}

// The rest of the transforms and samplers, KS only (their moments are checked on the GPU).
TEST(RandomKernelsHost, MoreContinuousLaws) {
  using namespace emu::cupp_random;
  struct law {
    const char* name;
    std::vector<double> x;
    std::function<double(double)> cdf;
  };
  const double pi = M_PI;
  const law laws[] = {
      {"laplace", transform64(t_laplace, 1, 2, 0, N),
       [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2); }},
      {"logistic", transform64(t_logistic, 1, 2, 0, N), [](double x) { return 1 / (1 + std::exp(-(x - 1) / 2)); }},
      {"gumbel", transform64(t_gumbel, 1, 2, 0, N), [](double x) { return std::exp(-std::exp(-(x - 1) / 2)); }},
      {"pareto", transform64(t_pareto, 3, 0, 0, N), [](double x) { return x <= 0 ? 0.0 : 1 - std::pow(1 + x, -3.0); }},
      {"power", transform64(t_power, 2.5, 0, 0, N), [](double x) { return x <= 0 ? 0.0 : std::pow(x, 2.5); }},
      {"weibull", transform64(t_weibull, 1.5, 0, 0, N),
       [](double x) { return x <= 0 ? 0.0 : -std::expm1(-std::pow(x, 1.5)); }},
      {"standard_cauchy", transform64(t_standard_cauchy, 0, 0, 0, N), [=](double x) { return 0.5 + std::atan(x) / pi; }},
      {"triangular", transform64(t_triangular, -1, 0.5, 2, N),
       [](double x) {
         if (x <= -1) return 0.0;
         if (x >= 2) return 1.0;
         return x <= 0.5 ? (x + 1) * (x + 1) / 4.5 : 1 - (2 - x) * (2 - x) / 4.5;
       }},
      {"chisquare", stream64(s_chisquare, 3, 0, 0, N), [](double x) { return st::lower_gamma_p(1.5, x / 2); }},
      {"f", stream64(s_f, 5, 12, 0, N), [](double x) { return st::f_cdf(x, 5, 12); }},
      {"standard_gamma(0.3)", stream64(s_standard_gamma, 0.3, 0, 0, N), [](double x) { return st::lower_gamma_p(0.3, x); }},
      {"wald", stream64(s_wald, 1.5, 2, 0, N),
       [](double x) {
         if (x <= 0) return 0.0;
         const double r = std::sqrt(2 / x);
         return st::normal_cdf(r * (x / 1.5 - 1)) + std::exp(2 * 2 / 1.5) * st::normal_cdf(-r * (x / 1.5 + 1));
       }},
  };
  for (const law& l : laws) EXPECT_LT(st::ks_statistic(l.x, l.cdf), st::ks_threshold(l.x.size())) << l.name;
}

TEST(RandomKernelsHost, MoreDiscreteLaws) {
  using namespace emu::cupp_random;
  const std::vector<std::int64_t> nb = stream_int(s_negative_binomial, 3.5, 0.4, 0, N);
  EXPECT_LT(std::fabs(st::chi2_z(nb,
                                 [](std::int64_t k) {
                                   return std::exp(std::lgamma(k + 3.5) - std::lgamma(3.5) - std::lgamma(k + 1.0) +
                                                   3.5 * std::log(0.4) + k * std::log(0.6));
                                 },
                                 0, 25)),
            5.0);
  const double l = std::log1p(-0.6);
  const std::vector<std::int64_t> ls = stream_int(s_logseries, 0.6, 0, 0, N);
  EXPECT_LT(std::fabs(st::chi2_z(ls, [=](std::int64_t k) { return k < 1 ? 0.0 : -std::pow(0.6, k) / (k * l); }, 1, 12)),
            5.0);
  const std::vector<std::int64_t> zp = stream_int(s_zipf, 3.0, 0, 0, N);
  EXPECT_LT(std::fabs(st::chi2_z(zp, [](std::int64_t k) { return k < 1 ? 0.0 : std::pow(double(k), -3.0) / std::riemann_zeta(3.0); },
                                 1, 30)),
            5.0);
}

void expect_pmf(const std::vector<std::int64_t>& v, const std::function<double(std::int64_t)>& pmf, double mean,
                double var, const char* what) {
  std::int64_t lo = -1, hi = -1;
  for (std::int64_t k = 0; k < 100000; ++k) {
    if (pmf(k) * double(v.size()) >= 20) {
      if (lo < 0) lo = k;
      hi = k;
    } else if (lo >= 0 && k > hi + 50) {
      break;
    }
  }
  EXPECT_LT(std::fabs(st::chi2_z(v, pmf, lo, hi)), 5.0) << what;
  const st::moments m = st::sample_moments(std::vector<double>(v.begin(), v.end()));
  EXPECT_NEAR(m.mean, mean, 6 * m.mean_se) << what;
  EXPECT_NEAR(m.var, var, 6 * m.var_se) << what;
}

double log_choose(double n, double k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

TEST(RandomKernelsHost, DiscreteLaws) {
  using namespace emu::cupp_random;
  for (double lam : {4.0, 30.0}) {
    expect_pmf(stream_int(s_poisson, lam, 0, 0, N),
               [=](std::int64_t k) { return std::exp(k * std::log(lam) - lam - std::lgamma(k + 1.0)); }, lam, lam,
               "poisson");
  }
  for (auto [n, p] : {std::pair{30.0, 0.1}, std::pair{400.0, 0.35}, std::pair{200.0, 0.8}}) {
    expect_pmf(stream_int(s_binomial, n, p, 0, N),
               [=](std::int64_t k) {
                 return k > n ? 0.0 : std::exp(log_choose(n, k) + k * std::log(p) + (n - k) * std::log1p(-p));
               },
               n * p, n * p * (1 - p), "binomial");
  }
  for (auto [g, b, s] : {std::tuple{20.0, 30.0, 5.0}, std::tuple{500.0, 400.0, 200.0}}) {
    const double tot = g + b;
    expect_pmf(stream_int(s_hypergeometric, g, b, s, N),
               [=](std::int64_t k) {
                 if (k > s || k > g || s - k > b) return 0.0;
                 return std::exp(log_choose(g, k) + log_choose(b, s - k) - log_choose(tot, s));
               },
               s * g / tot, s * g * b * (tot - s) / (tot * tot * (tot - 1)), "hypergeometric");
  }
  // the edges multivariate_hypergeometric reaches: no bad balls, no good balls, nothing to draw
  EXPECT_EQ(stream_int(s_hypergeometric, 7, 0, 5, 16), std::vector<std::int64_t>(16, 5));
  EXPECT_EQ(stream_int(s_hypergeometric, 0, 9, 5, 16), std::vector<std::int64_t>(16, 0));
  EXPECT_EQ(stream_int(s_hypergeometric, 40, 60, 0, 16), std::vector<std::int64_t>(16, 0));
  expect_pmf(stream_int(s_geometric, 0.3, 0, 0, N), [](std::int64_t k) { return k < 1 ? 0.0 : std::pow(0.7, k - 1) * 0.3; },
             1 / 0.3, 0.7 / 0.09, "geometric");
}

// Lemire: residues of integers(0, 3 * 2^30) mod 3 are uniform; without the rejection (the broken
// hook) residue 0 comes twice as often, and the same check fails.
TEST(RandomKernelsHost, LemireRejectionAndTheBrokenHook) {
  const emu::cupp_random::iparam low{nullptr, 0}, range{nullptr, (3ull << 30) - 1};
  for (int broken : {0, 1}) {
    std::vector<std::int64_t> v(N);
    emu::cupp_random_integers(v.data(), N, call, low, range, 8, 0, broken, 1);
    for (auto& x : v) x %= 3;
    const double z = st::chi2_z(v, [](std::int64_t k) { return k < 3 ? 1.0 / 3 : 0.0; }, 0, 2);
    if (broken) {
      EXPECT_GT(z, 100.0);
    } else {
      EXPECT_LT(std::fabs(z), 5.0);
    }
  }
}

TEST(RandomKernelsHost, ConstraintBits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto bits = [](std::vector<double> v) {
    unsigned flags = 0;
    emu::cupp_random_check(v.data(), static_cast<long long>(v.size()), &flags);
    return flags;
  };
  EXPECT_EQ(bits({0.5}), 32u | 64u);  // < 1 and <= 1 only
  EXPECT_EQ(bits({nan}), 1u);
  EXPECT_EQ(bits({-0.0}) & 2u, 2u);            // the sign bit, as NumPy's signbit
  EXPECT_EQ(bits({-0.0}) & 256u, 0u);          // but not < 0
  EXPECT_EQ(bits({2.0}) & (8u | 16u), 24u);
  EXPECT_EQ(bits({1e19}) & 128u, 128u);        // above POISSON_LAM_MAX
}

}  // namespace
}  // namespace cupp
