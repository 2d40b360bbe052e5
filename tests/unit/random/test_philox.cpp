// cupp::random's bit generator and Generator on the host (no GPU): Philox4x32-10 against
// Random123's published known-answer vectors (kat_vectors: philox4x32 10), the key from
// SeedSequence(seed).generate_state(2), counter reservation / advance / jumped with their carries,
// spawn, size= handling, and the parameter errors NumPy raises before drawing (numpy/random/
// _generator.pyx, _common.pyx, _bounded_integers.pyx.in wording), which need no device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/random.hpp"
#include "error_of.hpp"
#include "philox_host.hpp"
#include "generator_impl.hpp"
#include "sampling.hpp"
#include "../../../random/bench/bit_conversions.cuh"  // the bench's candidate conversions

namespace cupp {
namespace {

using test::error_of;
using cupp_random::u32;

struct kat {
  u32 ctr[4];
  u32 key[2];
  u32 expected[4];
};

// Random123 1.14 tests/kat_vectors, the three philox4x32 10 lines.
const kat kats[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000}, {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(RandomPhilox, Random123KnownAnswers) {
  for (const kat& k : kats) {
    const cupp_random::u32x4 out =
        cupp_random::philox4x32_10(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3], k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], k.expected[i]) << "word " << i << " of ctr " << k.ctr[0];
  }
}

TEST(RandomPhilox, OneRoundChangedFailsTheVectors) {
  // the test can fail: nine rounds (a wrong round count) give other words
  u32 c[4] = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344};
  u32 k0 = 0xa4093822, k1 = 0x299f31d0;
  for (int r = 0; r < 9; ++r) {
    if (r > 0) {
      k0 += cupp_random::philox_w0;
      k1 += cupp_random::philox_w1;
    }
    cupp_random::philox_round(c, k0, k1);
  }
  EXPECT_NE(c[0], 0xd16cfe09u);
}

TEST(RandomPhilox, PrecomputedRoundKeysGiveTheSameWords) {  // the kernels' fast path
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return u32(state >> 32); };
  for (int t = 0; t < 1000; ++t) {
    const u32 c0 = next(), c1 = next(), c2 = next(), c3 = next(), k0 = next(), k1 = next();
    const cupp_random::u32x4 a = cupp_random::philox4x32_10(c0, c1, c2, c3, k0, k1);
    const cupp_random::u32x4 b = cupp_random::philox4x32_10(c0, c1, c2, c3, cupp_random::round_keys(k0, k1));
    for (int i = 0; i < 4; ++i) ASSERT_EQ(a.v[i], b.v[i]);
  }
  const cupp_random::philox_call call{7, 8, 0xffffffffu, 0xffffffffu, 1};
  const cupp_random::round_keys keys(7, 8);
  for (std::uint64_t g : {0ull, 1ull, 5ull}) {
    const cupp_random::u32x4 a = cupp_random::draw(call, g, 2), b = cupp_random::draw(call, keys, g, 2);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a.v[i], b.v[i]);
  }
}

// counter_run (the uniform kernels' Philox for a run of groups with words 1 and 2 fixed and j = 0)
// gives philox4x32_10's words; run_count/run_at split a call's groups into runs that cover them in
// order, inside which the low word does not wrap, with the counter words draw() uses.
TEST(RandomPhilox, CounterRunGivesTheSameWords) {
  std::uint64_t state = 0x2545f4914f6cdd1dull;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return u32(state >> 32); };
  for (int t = 0; t < 20000; ++t) {
    const u32 lo = t < 4 ? (t < 2 ? 0u : 0xffffffffu) : next(), c1 = next(), c2 = t % 3 == 0 ? 0u : next();
    const u32 k0 = next(), k1 = next();
    const cupp_random::u32x4 a = cupp_random::philox4x32_10(lo, c1, c2, 0, k0, k1);
    const cupp_random::u32x4 b =
        cupp_random::counter_run(k0, k1, c1, c2).words((std::uint64_t)cupp_random::philox_m0 * lo);
    for (int i = 0; i < 4; ++i) ASSERT_EQ(a.v[i], b.v[i]) << t;
  }
  using cupp_random::u64;
  const cupp_random::philox_call calls[] = {{7, 8, 0, 0, 0},           {7, 8, 0xfffffff0u, 0, 0},
                                            {7, 8, 0xffffffffu, 0xffffffffu, 4},
                                            {7, 8, 5, 0xffffffffu, 0xffffffffu}};
  for (const cupp_random::philox_call& call : calls) {
    for (u64 groups : {u64{1}, u64{15}, u64{16}, u64{17}, u64{1} << 32, (u64{1} << 32) + 17, (u64{3} << 32) + 1}) {
      const u64 runs = cupp_random::run_count(call, groups);
      u64 next_begin = 0;
      for (u64 r = 0; r < runs; ++r) {
        const cupp_random::run_span s = cupp_random::run_at(call, groups, r);
        ASSERT_EQ(s.begin, next_begin) << "run " << r << " of " << runs;
        ASSERT_LT(s.begin, s.end);
        ASSERT_LE(s.end - s.begin, (u64{1} << 32) - s.lo0);  // the low word does not wrap inside it
        const cupp_random::counter_run cr(call.k0, call.k1, s.c1, s.c2);
        for (u64 g : {s.begin, s.begin + 1, s.end - 1}) {
          if (g >= s.end) continue;
          const cupp_random::u32x4 a = cupp_random::draw(call, g, 0);
          const cupp_random::u32x4 b = cr.words((u64)cupp_random::philox_m0 * (u32)(s.lo0 + (g - s.begin)));
          for (int i = 0; i < 4; ++i) ASSERT_EQ(a.v[i], b.v[i]) << "group " << g;
        }
        next_begin = s.end;
      }
      EXPECT_EQ(next_begin, groups);
    }
  }
}

// The bit-built conversions equal NumPy's for every float32 case (the value depends on bits 8-31
// only: all 2^24 of them, the low byte varied) and for float64 words at random and at the edges.
TEST(RandomPhilox, BitBuiltConversionsEqualNumpys) {
  std::uint64_t bad = 0;
  for (u32 h = 0; h < (1u << 24); ++h) {
    const u32 x = h << 8 | ((h * 0x9E3779B1u) >> 24);
    const float a = cupp_random::to_float01(x), b = cupp_random::to_float01_bits(x);
    bad += std::memcmp(&a, &b, 4) != 0;
  }
  EXPECT_EQ(bad, 0u);
  std::uint64_t state = 0x853c49e6748fea9bull;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return u32(state >> 32); };
  const u32 edges[] = {0u, 1u, 0x7FFu, 0x800u, 0xFFFu, 0x1000u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFF800u, 0xFFFFFFFFu};
  for (int t = 0; t < 4000000; ++t) {
    const u32 hi = t < 100 ? edges[t % 10] : next(), lo = t < 100 ? edges[t / 10] : next();
    const double a = cupp_random::to_double01(hi, lo), b = cupp_random::to_double01_bits(hi, lo);
    ASSERT_EQ(std::memcmp(&a, &b, 8), 0) << hi << " " << lo;
  }
  EXPECT_EQ(cupp_random::to_float01_bits(0xFFFFFFFFu), 16777215.0f / 16777216.0f);
  EXPECT_EQ(cupp_random::to_double01_bits(0xFFFFFFFFu, 0xFFFFFFFFu), 9007199254740991.0 / 9007199254740992.0);
}

TEST(RandomPhilox, DrawAddsTheGroupWithCarry) {
  const cupp_random::philox_call call{1, 2, 0xffffffffu, 0xffffffffu, 7};
  const cupp_random::u32x4 a = cupp_random::draw(call, 1, 3);  // base + 1 wraps the low 64 bits
  const cupp_random::u32x4 b = cupp_random::philox4x32_10(0, 0, 8, 3, 1, 2);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a.v[i], b.v[i]);
}

TEST(RandomPhilox, KeyIsSeedSequenceGenerateState2) {
  for (std::uint64_t seed : {0ull, 1ull, 12345ull, 0xdeadbeefcafeull}) {
    const random::Philox bits(seed);
    const std::vector<std::uint32_t> words = random::SeedSequence(seed).generate_state(2);
    EXPECT_EQ(bits.key()[0], words[0]);
    EXPECT_EQ(bits.key()[1], words[1]);
    EXPECT_EQ(bits.counter(), (std::array<std::uint32_t, 3>{0, 0, 0}));
  }
  EXPECT_NE(random::Philox(1).key(), random::Philox(2).key());
  EXPECT_NE(random::Philox().key(), random::Philox().key());  // OS entropy
}

TEST(RandomPhilox, ReserveAdvanceJumped) {
  random::Philox bits({5, 6}, {0xfffffff0u, 0xffffffffu, 0});
  EXPECT_EQ(bits.reserve(0x10), (std::array<std::uint32_t, 3>{0xfffffff0u, 0xffffffffu, 0}));
  EXPECT_EQ(bits.counter(), (std::array<std::uint32_t, 3>{0, 0, 1}));  // carried into word 2
  bits.advance(0x100000005ull);
  EXPECT_EQ(bits.counter(), (std::array<std::uint32_t, 3>{5, 1, 1}));
  const random::Philox j = bits.jumped(3);
  EXPECT_EQ(j.counter(), (std::array<std::uint32_t, 3>{5, 1, 4}));
  EXPECT_EQ(bits.counter(), (std::array<std::uint32_t, 3>{5, 1, 1}));  // unchanged
  EXPECT_EQ(j.key(), bits.key());
  // a copy shares the state (a handle)
  random::Philox alias = bits;
  alias.advance(1);
  EXPECT_EQ(bits.counter()[0], 6u);
}

TEST(RandomPhilox, ReservationsFromThreadsNeverOverlap) {
  random::Philox bits(7);
  std::vector<std::vector<std::uint64_t>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        const auto c = bits.reserve(3);
        got[t].push_back(static_cast<std::uint64_t>(c[1]) << 32 | c[0]);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<std::uint64_t> all;
  for (auto& g : got) all.insert(all.end(), g.begin(), g.end());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], 3 * i);
}

TEST(RandomPhilox, SpawnUsesSeedSequenceChildren) {
  random::Philox bits(99);
  std::vector<random::Philox> kids = bits.spawn(2);
  random::SeedSequence seq(99);
  std::vector<random::SeedSequence> seq_kids = seq.spawn(2);
  for (int i = 0; i < 2; ++i) {
    const std::vector<std::uint32_t> w = seq_kids[i].generate_state(2);
    EXPECT_EQ(kids[i].key()[0], w[0]);
    EXPECT_EQ(kids[i].key()[1], w[1]);
  }
  std::vector<random::Philox> more = bits.spawn(1);  // the counter of children goes on: (2,)
  EXPECT_EQ(more[0].key()[0], seq.spawn(1)[0].generate_state(2)[0]);
  random::Philox keyed({1, 2}, {0, 0, 0});
  EXPECT_EQ(error_of<ValueError>([&] { keyed.spawn(1); }).substr(0, 36), "The underlying SeedSequence does not");
  auto rng = random::default_rng(99);
  std::vector<random::Generator> gens = rng.spawn(1);
  EXPECT_EQ(gens[0].bit_generator().key(), random::Philox(seq_kids[0]).key());
}

TEST(RandomSize, Forms) {
  EXPECT_FALSE(random::size_arg().given());
  EXPECT_FALSE(random::size_arg(std::nullopt).given());
  EXPECT_EQ(random::size_arg(5).shape(), (shape_t{5}));
  EXPECT_EQ(random::size_arg({2, 3}).shape(), (shape_t{2, 3}));
  EXPECT_EQ(random::size_arg(std::optional<shape_t>(shape_t{4})).shape(), (shape_t{4}));
  EXPECT_FALSE(random::size_arg(std::optional<shape_t>()).given());
}

// NumPy's messages for scalar parameters, raised before anything touches a device.
TEST(RandomErrors, ScalarParameters) {
  auto rng = random::default_rng(0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(0.0, -1.0); }), "scale < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.exponential(-2.0); }), "scale < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.lognormal(0.0, -0.5); }), "sigma < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.pareto(0.0); }), "a <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.power(-1.0); }), "a <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.weibull(-1.0); }), "a < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.gamma(-1.0); }), "shape < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.gamma(1.0, -1.0); }), "scale < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.standard_gamma(-1.0); }), "shape < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.beta(0.0, 1.0); }), "a <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.beta(1.0, 0.0); }), "b <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.chisquare(0.0); }), "df <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.f(1.0, -1.0); }), "dfden <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.standard_t(0.0); }), "df <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.wald(0.0, 1.0); }), "mean <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.vonmises(0.0, -1.0); }), "kappa < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.noncentral_chisquare(1.0, -1.0); }), "nonc < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.poisson(-1.0); }), "lam < 0 or lam is NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.poisson(nan); }), "lam < 0 or lam is NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.poisson(1e19); }), "lam value too large");
  EXPECT_EQ(error_of<ValueError>([&] { rng.binomial(10, 1.5); }), "p < 0, p > 1 or p is NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.binomial(-1, 0.5); }), "n < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.negative_binomial(0.0, 0.5); }), "n <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.negative_binomial(nan, 0.5); }), "n must not be NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.negative_binomial(1.0, 0.0); }), "p <= 0, p > 1 or p contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.negative_binomial(1e18, 1e-5); }),
            "n too large or p too small, see Generator.negative_binomial Notes");
  EXPECT_EQ(error_of<ValueError>([&] { rng.geometric(0.0); }), "p <= 0, p > 1 or p contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.logseries(1.0); }), "p < 0, p >= 1 or p is NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.zipf(1.0); }), "a <= 1 or a is NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.triangular(2.0, 1.0, 3.0); }), "left > mode");
  EXPECT_EQ(error_of<ValueError>([&] { rng.triangular(0.0, 4.0, 3.0); }), "mode > right");
  EXPECT_EQ(error_of<ValueError>([&] { rng.triangular(1.0, 1.0, 1.0); }), "left == right");
  EXPECT_EQ(error_of<ValueError>([&] { rng.uniform(1.0, 0.0); }), "high - low < 0");
  EXPECT_EQ(error_of<OverflowError>([&] { rng.uniform(-1e308, 1e308); }), "high - low range exceeds valid bounds");
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(0.0, 1.0, {-1}); }), "negative dimensions are not allowed");
  EXPECT_EQ(error_of<ValueError>([&] { rng.hypergeometric(-1, 5, 2); }), "ngood < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.hypergeometric(2, 5, 8); }), "ngood + nbad < nsample");
  EXPECT_EQ(error_of<ValueError>([&] { rng.hypergeometric(2000000000, 5, 8); }),
            "both ngood and nbad must be less than 1000000000");
}

TEST(RandomErrors, MultivariateHypergeometric) {
  auto rng = random::default_rng(0);
  // the checks that come before colors is read (a device array)
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_hypergeometric(ndarray(), 2, {}, "urn"); }),
            "method must be \"count\" or \"marginals\".");
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_hypergeometric(ndarray(), -1); }), "nsample must be nonnegative.");
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_hypergeometric(ndarray(), 1); }),
            "colors must be a one-dimensional sequence of nonnegative integers not exceeding 9223372036854775807.");
}

// multivariate_normal's factor on the host: A A^T = cov for each method, NumPy's PSD check.
TEST(RandomHost, MultivariateNormalFactor) {
  const std::vector<double> cov = {4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.5};
  for (const char* method : {"svd", "eigh", "cholesky"}) {
    const std::vector<double> a = random::detail::normal_factor(cov, 3, method, "raise", 1e-8);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (int k = 0; k < 3; ++k) s += a[i * 3 + k] * a[j * 3 + k];
        EXPECT_NEAR(s, cov[i * 3 + j], 1e-12) << method << " " << i << j;
      }
  }
  const std::vector<double> indefinite = {1.0, 2.0, 2.0, 1.0};  // eigenvalues 3 and -1
  EXPECT_EQ(error_of<ValueError>([&] { random::detail::normal_factor(indefinite, 2, "svd", "raise", 1e-8); }),
            "covariance is not symmetric positive-semidefinite.");
  EXPECT_EQ(error_of<ValueError>([&] { random::detail::normal_factor(indefinite, 2, "eigh", "warn", 1e-8); }),
            "<no error>");
  EXPECT_EQ(error_of<ValueError>([&] { random::detail::normal_factor({1, 0.5, 0, 1}, 2, "svd", "raise", 1e-8); }),
            "covariance is not symmetric positive-semidefinite.");  // not symmetric
  EXPECT_EQ(error_of<LinAlgError>([&] { random::detail::normal_factor(indefinite, 2, "cholesky", "raise", 1e-8); }),
            "Matrix is not positive definite");
  EXPECT_EQ(error_of<ValueError>([&] { random::detail::normal_factor(cov, 3, "svd", "loud", 1e-8); }),
            "check_valid must equal 'warn', 'raise', or 'ignore'");
  auto rng = random::default_rng(0);
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_normal(ndarray(), ndarray(), {}, "warn", 1e-8, "qr"); }),
            "method must be one of {'eigh', 'svd', 'cholesky'}");
  EXPECT_EQ(error_of<ValueError>([&] { rng.multivariate_normal(ndarray(), ndarray()); }), "mean must be 1 dimensional");
}

TEST(RandomHost, RandomStateIsAGeneratorOverPhilox) {
  random::RandomState rs(5);
  EXPECT_EQ(rs.bit_generator().key(), random::Philox(5).key());
  rs.seed(6);
  EXPECT_EQ(rs.bit_generator().key(), random::Philox(6).key());
  EXPECT_EQ(error_of<ValueError>([&] { rs.randint(3, 3); }), "low >= high");
  EXPECT_EQ(error_of<ValueError>([&] { rs.normal(0.0, -1.0); }), "scale < 0");
  // random_integers is randint(low, high + 1) (NumPy's errors), [1, low] without high
  EXPECT_EQ(error_of<ValueError>([&] { rs.random_integers(5, 3); }), "low >= high");
  EXPECT_EQ(error_of<ValueError>([&] { rs.random_integers(0); }), "low >= high");
  EXPECT_EQ(error_of<ValueError>([&] { rs.random_integers(0, -1); }), "high <= 0");
  // get_state / set_state: the key and counter, detached from the state
  const std::array<std::uint32_t, 3> before = rs.bit_generator().counter();
  const random::Philox saved = rs.get_state();
  (void)rs.bit_generator().reserve(1000);
  EXPECT_EQ(saved.counter(), before);
  EXPECT_NE(rs.bit_generator().counter(), before);
  rs.set_state(saved);
  EXPECT_EQ(rs.bit_generator().counter(), before);
  EXPECT_EQ(rs.bit_generator().key(), random::Philox(6).key());
  (void)rs.bit_generator().reserve(5);
  EXPECT_EQ(saved.counter(), before);  // set_state copied it
}

TEST(RandomErrors, Dtypes) {
  auto rng = random::default_rng(0);
  EXPECT_EQ(error_of<TypeError>([&] { rng.random({}, int32); }), "Unsupported dtype dtype('int32') for random");
  EXPECT_EQ(error_of<TypeError>([&] { rng.standard_normal({}, float16); }),
            "Unsupported dtype dtype('float16') for standard_normal");
  EXPECT_EQ(error_of<TypeError>([&] { rng.standard_exponential({}, int64); }),
            "Unsupported dtype dtype('int64') for standard_exponential");
  EXPECT_EQ(error_of<TypeError>([&] { rng.standard_gamma(1.0, {}, complex64); }),
            "Unsupported dtype dtype('complex64') for standard_gamma");
  EXPECT_EQ(error_of<TypeError>([&] { rng.integers(0, 5, {}, float64); }),
            "Unsupported dtype dtype('float64') for integers");
}

TEST(RandomErrors, IntegerRanges) {
  auto rng = random::default_rng(0);
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0); }), "high <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(-3); }), "high <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, -1, {}, int64, true); }), "high < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(5, 5); }), "low >= high");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(5, 4, {}, int64, true); }), "low > high");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(-129, 0, {}, int8); }), "low is out of bounds for int8");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, 129, {}, int8); }), "high is out of bounds for int8");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(-1, 5, {}, uint16); }), "low is out of bounds for uint16");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, 3, {}, bool_); }), "high is out of bounds for bool");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, 256, {}, uint8, true); }), "high is out of bounds for uint8");
  // C++ scalars carry the whole uint64 range (a weak scalar's sign and magnitude)
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, 18446744073709551615ull, {}, int64, true); }),
            "high is out of bounds for int64");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(-1, 18446744073709551615ull, {}, uint64, true); }),
            "low is out of bounds for uint64");
}

// The module's NVRTC programs (every kernel of kernels.cuh, the samplers, and the broken hook's
// kernels program) compile for sm_90 without a GPU.
TEST(RandomHost, ProgramsCompileWithNvrtc) {
  for (const cupp::detail::routine_program& p :
       {random::detail::program(), random::detail::stream_program(), random::detail::program(true)}) {
    ASSERT_FALSE(p.headers.empty());
    const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
         .extra_headers = p.headers});
    EXPECT_EQ(out.lowered_names.size(), p.kernels.size()) << p.name;
    EXPECT_FALSE(out.binary.empty()) << p.name;
  }
}

}  // namespace
}  // namespace cupp
