// cupp::random on the GPU: the device's Philox agrees with the host's (Random123's zero vector
// through bytes(), and every word of many counters), random/integers/standard_normal against host
// models of the counter layout, bit-identical output across launch shapes forced through the test
// hook (so across GPUs and SM counts), calls reserve disjoint counter ranges (threads, streams),
// the choice / permutation / shuffle / permuted invariants, size/dtype/out rules, broadcasting of
// array parameters, and NumPy's errors for array parameters (one flag read).
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/random.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "philox_host.hpp"
#include "sampling.hpp"

namespace cupp {
namespace {

using test::error_of;
using cupp_random::u32;
using cupp_random::u32x4;

cupp_random::philox_call call_of(const random::Philox& bits, std::array<u32, 3> counter) {
  return {bits.key()[0], bits.key()[1], counter[0], counter[1], counter[2]};
}

struct shape_guard {  // restores the default launch shape
  shape_guard(std::optional<std::int64_t> b, std::optional<unsigned> t) { random::detail::force_launch_shape(b, t); }
  ~shape_guard() { random::detail::force_launch_shape(std::nullopt, std::nullopt); }
};

TEST(RandomGpu, DeviceAgreesWithRandom123ZeroVector) {
  CUPP_REQUIRE_GPU();
  random::Generator rng{random::Philox({0, 0}, {0, 0, 0})};
  const std::string b = rng.bytes(16);
  u32 w[4];
  std::memcpy(w, b.data(), 16);
  EXPECT_EQ(w[0], 0x6627e8d5u);
  EXPECT_EQ(w[1], 0xe169c58du);
  EXPECT_EQ(w[2], 0xbc57ac4cu);
  EXPECT_EQ(w[3], 0x9b00dbd8u);
}

TEST(RandomGpu, DeviceWordsEqualHostPhilox) {
  CUPP_REQUIRE_GPU();
  random::Philox bits({0xa4093822u, 0x299f31d0u}, {0xfffffff0u, 0xffffffffu, 5});  // crosses the carry
  const auto start = bits.counter();
  random::Generator rng(bits);
  const std::int64_t words = 4 * 1000 + 3;  // a partial last group
  const std::string b = rng.bytes(words * 4);
  std::vector<u32> got(words);
  std::memcpy(got.data(), b.data(), b.size());
  const auto call = call_of(bits, start);
  for (std::int64_t i = 0; i < words; ++i) {
    const u32x4 w = cupp_random::draw(call, static_cast<std::uint64_t>(i / 4), 0);
    ASSERT_EQ(got[i], w.v[i % 4]) << "word " << i;
  }
  EXPECT_EQ(bits.counter()[2], 6u);  // 1001 counters reserved from 2^64 - 16
}

TEST(RandomGpu, RandomMatchesTheHostModel) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(2024);
  const auto c0 = rng.bit_generator().counter();
  const std::vector<float> f = rng.random({1001}, float32).to_vector<float>();
  const auto c1 = rng.bit_generator().counter();
  const std::vector<double> d = rng.random({777}).to_vector<double>();
  EXPECT_EQ(c1[0], 251u);  // ceil(1001 / 4) counters
  const auto call0 = call_of(rng.bit_generator(), c0), call1 = call_of(rng.bit_generator(), c1);
  for (std::size_t i = 0; i < f.size(); ++i) {
    const u32x4 w = cupp_random::draw(call0, i / 4, 0);
    ASSERT_EQ(f[i], cupp_random::to_float01(w.v[i % 4])) << i;
  }
  for (std::size_t i = 0; i < d.size(); ++i) {
    const u32x4 w = cupp_random::draw(call1, i / 2, 0);
    ASSERT_EQ(d[i], cupp_random::to_double01(w.v[2 * (i % 2)], w.v[2 * (i % 2) + 1])) << i;
  }
  EXPECT_EQ(rng.bit_generator().counter()[0], 251u + 389u);
  // Generator.random's fast path (runs of fixed counter words 1 and 2) across the low word's wrap
  // and the carry into word 2, aligned outputs of every remainder, against the same host model
  for (std::int64_t n : {4003, 4000, 1}) {
    const std::array<u32, 2> key{0xa4093822u, 0x299f31d0u};
    const std::array<u32, 3> start{0xfffffe00u, 0xffffffffu, 5};
    random::Generator wrapf(random::Philox(key, start)), wrapd(random::Philox(key, start));  // both wrap
    const std::vector<float> wf = wrapf.random({n}, float32).to_vector<float>();
    const std::vector<double> wd = wrapd.random({n}).to_vector<double>();
    const cupp_random::philox_call callf{key[0], key[1], start[0], start[1], start[2]}, calld = callf;
    for (std::size_t i = 0; i < wf.size(); ++i)
      ASSERT_EQ(wf[i], cupp_random::to_float01(cupp_random::draw(callf, i / 4, 0).v[i % 4])) << n << " " << i;
    for (std::size_t i = 0; i < wd.size(); ++i) {
      const u32x4 w = cupp_random::draw(calld, i / 2, 0);
      ASSERT_EQ(wd[i], cupp_random::to_double01(w.v[2 * (i % 2)], w.v[2 * (i % 2) + 1])) << n << " " << i;
    }
  }
}

TEST(RandomGpu, StandardNormalMatchesTheHostModel) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(5);
  const auto c0 = rng.bit_generator().counter();
  const std::vector<double> z = rng.standard_normal({999}).to_vector<double>();
  const auto call = call_of(rng.bit_generator(), c0);
  for (std::size_t i = 0; i < z.size(); ++i) {
    const u32x4 w = cupp_random::draw(call, i / 2, 0);
    const double u1 = (double)(((((std::uint64_t)w.v[0] << 32) | w.v[1]) >> 11) + 1) * (1.0 / 9007199254740992.0);
    const double u2 = cupp_random::to_double01(w.v[2], w.v[3]);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double expect = i % 2 == 0 ? r * std::cos(2 * M_PI * u2) : r * std::sin(2 * M_PI * u2);
    ASSERT_NEAR(z[i], expect, 1e-12 * std::max(1.0, std::fabs(expect))) << i;
  }
}

// float32 normals: words 2k and 2k+1 of a counter give the pair (r cos a, r sin a), r from the
// first word and a from the second, within the bound docs/random.md states for the hardware log2,
// rsqrt and sincos (radius: min(4.7e-4, 2.2e-7 / r) + 2^-21 r; angle: 2^-21.4 r).
TEST(RandomGpu, StandardNormalFloat32MatchesTheHostModel) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(6);
  const auto c0 = rng.bit_generator().counter();
  const std::vector<float> z = rng.standard_normal({100003}, float32).to_vector<float>();
  const auto call = call_of(rng.bit_generator(), c0);
  double worst = 0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    const u32x4 w = cupp_random::draw(call, i / 4, 0);
    const int pair = static_cast<int>(i % 4) / 2;
    const double u = cupp_random::to_float_radius(w.v[2 * pair]);
    const double a = M_PI * (2.0 * cupp_random::to_float_open(w.v[2 * pair + 1]) - 1.0);
    const double r = std::sqrt(-2.0 * std::log(u));
    const double zz = i % 2 == 0 ? r * std::cos(a) : r * std::sin(a);
    const double tol = std::min(5e-4, 2.3e-7 / std::max(r, 1e-30)) + 2e-6 * r + 1e-6;
    const double err = std::fabs(z[i] - zz);
    worst = std::max(worst, err / tol);
    ASSERT_LE(err, tol) << "element " << i << ": r = " << r << ", host " << zz;
  }
  std::printf("float32 normals: largest error %.3g of the bound\n", worst);
}

struct shuffled_guard {  // restores integers32's shuffled int64 stores
  explicit shuffled_guard(bool on) { random::detail::set_shuffled_stores(on); }
  ~shuffled_guard() { random::detail::set_shuffled_stores(true); }
};

// integers against the host's Lemire on the counter layout: the scalar 32-bit kernel (int64 tiles
// through warp shuffles, or each group's 32 bytes by its thread; int16 and int32), a tail that is
// no whole tile, and forced launches of 7 x 96 and of 3 x 100 threads (no whole warps).
TEST(RandomGpu, IntegersMatchTheHostModel) {
  CUPP_REQUIRE_GPU();
  const std::uint32_t s = 1000;
  for (int mode = 0; mode < 6; ++mode) {
    shuffled_guard sg(mode != 1);
    std::optional<shape_guard> odd;
    if (mode == 4) odd.emplace(7, 96u);
    if (mode == 5) odd.emplace(3, 100u);  // no whole warps: the grid loop
    auto rng = random::default_rng(77);
    const auto c0 = rng.bit_generator().counter();
    const std::int64_t n = mode == 3 ? 128 * 37 : 4099;
    const cupp::dtype t = mode == 2 ? int16 : mode == 3 ? int32 : int64;
    const std::vector<std::int64_t> v = astype(rng.integers(-500, 500, {n}, t), int64).to_vector<std::int64_t>();
    const auto call = call_of(rng.bit_generator(), c0);
    for (std::size_t i = 0; i < v.size(); ++i) {  // Lemire on the element's lane, retries at j + 1
      u32 j = 0;
      std::uint64_t m;
      for (;;) {
        const u32 x = cupp_random::draw(call, i / 4, j).v[i % 4];
        m = (std::uint64_t)x * s;
        if ((u32)m >= (0u - s) % s) break;
        ++j;
      }
      ASSERT_EQ(v[i], -500 + (std::int64_t)(m >> 32)) << "element " << i << ", mode " << mode;
    }
  }
}

// choice without replacement is the host's Feistel permutation with the round keys from the four
// counters the call reserved (so it is the same for every launch shape).
TEST(RandomGpu, ChoiceMatchesTheHostModel) {
  CUPP_REQUIRE_GPU();
  for (std::int64_t a : {std::int64_t{1000}, std::int64_t{1} << 24, (std::int64_t{1} << 40) + 7}) {
    auto rng = random::default_rng(5);
    const auto c0 = rng.bit_generator().counter();
    const std::int64_t k = std::min<std::int64_t>(a - 2, 5000);
    const std::vector<std::int64_t> v = rng.choice(a, {k}, false).to_vector<std::int64_t>();
    const auto call = call_of(rng.bit_generator(), c0);
    cupp_random::feistel f{};
    f.a = static_cast<std::uint64_t>(a);
    unsigned b = 2;
    while (b < 63 && (std::uint64_t{1} << b) < f.a) ++b;
    f.lbits = b / 2;
    f.rbits = b - f.lbits;
    for (int g = 0; g < 4; ++g)
      for (int j = 0; j < 4; ++j) f.keys[4 * g + j] = cupp_random::draw(call, g, 0).v[j];
    for (std::int64_t t = 0; t < k; ++t)
      ASSERT_EQ(v[t], static_cast<std::int64_t>(cupp_random::feistel_permute(f, static_cast<std::uint64_t>(t))))
          << "a " << a << ", position " << t;
    EXPECT_EQ(std::set<std::int64_t>(v.begin(), v.end()).size(), std::size_t(k));
  }
}

// A Feistel network with halves of 2 bits or more is an even permutation, so choice(a, k) for
// k >= a - 1 (which fixes the whole permutation) sorts random keys instead: both parities come up
// about equally often, for a = 16 (a whole Feistel domain) and a = 13 (cycle walking).
int parity_of(const std::vector<std::int64_t>& v, std::int64_t a) {
  std::vector<std::int64_t> p = v;
  if (static_cast<std::int64_t>(p.size()) == a - 1) {  // the missing value last
    std::vector<bool> seen(a, false);
    for (std::int64_t x : p) seen[x] = true;
    for (std::int64_t x = 0; x < a; ++x)
      if (!seen[x]) p.push_back(x);
  }
  int parity = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) parity ^= p[i] > p[j];
  return parity;
}

TEST(RandomGpu, ChoiceOfAlmostAllHasEitherParity) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(21);
  for (std::int64_t a : {std::int64_t{16}, std::int64_t{13}}) {
    for (std::int64_t k : {a, a - 1}) {
      int odd = 0;
      const int draws = 1000;
      for (int d = 0; d < draws; ++d) odd += parity_of(rng.choice(a, {k}, false).to_vector<std::int64_t>(), a);
      EXPECT_NEAR(odd, draws / 2, 5 * std::sqrt(draws / 4.0)) << "a " << a << ", k " << k;
    }
  }
}

// The same seed gives the same bits whatever the launch shape: the hook forces 1 block of 32
// threads (every group by few threads), odd shapes, and many blocks.
TEST(RandomGpu, SameBitsForEveryLaunchShape) {
  CUPP_REQUIRE_GPU();
  auto draw_all = [] {
    auto rng = random::default_rng(31337);
    std::vector<host_array> out;
    out.push_back(rng.random({100003}, float32).get());
    out.push_back(rng.random({100003}).get());
    out.push_back(rng.standard_normal({50001}, float32).get());
    out.push_back(rng.normal(1.0, 2.0, {50001}).get());
    out.push_back(rng.integers(0, 1000, {70001}, int16).get());
    out.push_back(rng.integers(std::int64_t{-1} << 40, std::int64_t{1} << 40, {70001}).get());
    out.push_back(rng.integers(-7, 1000000, {70001}).get());
    out.push_back(rng.choice(std::int64_t{1} << 24, {70001}, false).get());
    out.push_back(rng.gamma(0.7, 2.0, {30001}).get());
    out.push_back(rng.poisson(40.0, {30001}).get());
    out.push_back(rng.binomial(100, 0.3, {30001}).get());
    out.push_back(rng.permutation(10007).get());
    out.push_back(rng.laplace(0.0, 1.0, {1001}).get());
    return out;
  };
  const std::vector<host_array> base = draw_all();
  const std::pair<std::int64_t, unsigned> shapes[] = {{1, 32}, {7, 64}, {3, 1024}, {5000, 128}};
  for (const auto& [blocks, threads] : shapes) {
    shape_guard guard(blocks, threads);
    const std::vector<host_array> other = draw_all();
    for (std::size_t k = 0; k < base.size(); ++k) {
      ASSERT_EQ(base[k].nbytes(), other[k].nbytes());
      EXPECT_EQ(std::memcmp(base[k].data(), other[k].data(), base[k].nbytes()), 0)
          << "output " << k << " differs with " << blocks << " blocks of " << threads;
    }
  }
}

// A digest (FNV-1a) of outputs of every kernel family for one seed.
std::uint64_t digest_of_seed(std::uint64_t seed) {
  auto rng = random::default_rng(seed);
  std::vector<host_array> out;
  out.push_back(rng.random({1001}, float32).get());
  out.push_back(rng.standard_normal({1001}).get());
  out.push_back(rng.integers(0, 1000, {1001}).get());
  out.push_back(rng.gamma(0.5, 1.0, {1001}).get());
  out.push_back(rng.binomial(50, 0.3, {1001}).get());
  out.push_back(rng.permutation(1001).get());
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const host_array& a : out) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(a.data());
    for (std::size_t i = 0; i < a.nbytes(); ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
  return h;
}

// Run by SameBitsInAnotherProcess in a child process (CUPP_RANDOM_DIGEST_CHILD=1), which it starts
// as /proc/self/exe resolved in the parent, so it works in the build tree and in a staged copy.
TEST(RandomGpu, DISABLED_PrintDigest) {
  CUPP_REQUIRE_GPU();
  if (std::getenv("CUPP_RANDOM_DIGEST_CHILD") == nullptr) GTEST_SKIP() << "the child of SameBitsInAnotherProcess";
  std::printf("RANDOM_DIGEST %llx\n", static_cast<unsigned long long>(digest_of_seed(2718)));
  std::fflush(stdout);
}

// Runs this test binary again (the path /proc/self/exe names in this process: popen's shell would
// resolve /proc/self/exe to itself) with `filter`, and returns its exit status and output.
struct child_result {
  std::string exe;
  int status = -1;  // waitpid's status; -1: it was never started
  std::string output;
  std::string error;  // why it could not be started
};
child_result run_self(const std::string& filter) {
  child_result r;
  char path[4096];
  const ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
  if (len <= 0) {
    r.error = std::string("readlink(/proc/self/exe): ") + std::strerror(errno);
    return r;
  }
  path[len] = '\0';
  r.exe = path;
  int fds[2];
  if (pipe(fds) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::string arg_filter = "--gtest_filter=" + filter;
  std::string arg_disabled = "--gtest_also_run_disabled_tests";
  char* argv[] = {path, arg_disabled.data(), arg_filter.data(), nullptr};
  std::vector<std::string> env_store;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "CUPP_RANDOM_DIGEST_CHILD=", 25) != 0 && std::strncmp(*e, "GTEST_", 6) != 0)
      env_store.emplace_back(*e);
  env_store.emplace_back("CUPP_RANDOM_DIGEST_CHILD=1");
  std::vector<char*> envp;
  for (std::string& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, path, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    r.error = "posix_spawn(" + r.exe + "): " + std::strerror(rc);
    return r;
  }
  char buf[4096];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    r.output.append(buf, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = status;
  return r;
}

// The same seed gives the same bits in another process (a fresh context, another cache state).
TEST(RandomGpu, SameBitsInAnotherProcess) {
  CUPP_REQUIRE_GPU();
  const std::uint64_t mine = digest_of_seed(2718);
  const child_result child = run_self("RandomGpu.DISABLED_PrintDigest");
  ASSERT_TRUE(child.error.empty()) << "could not start the child process: " << child.error;
  unsigned long long theirs = 0;
  bool found = false;
  std::size_t at = 0;
  while ((at = child.output.find("RANDOM_DIGEST ", at)) != std::string::npos) {
    found |= std::sscanf(child.output.c_str() + at, "RANDOM_DIGEST %llx", &theirs) == 1;
    ++at;
  }
  const std::string tail = child.output.size() > 3000 ? child.output.substr(child.output.size() - 3000) : child.output;
  const std::string how = WIFEXITED(child.status)     ? "exited with " + std::to_string(WEXITSTATUS(child.status))
                          : WIFSIGNALED(child.status) ? "was killed by signal " + std::to_string(WTERMSIG(child.status))
                                                      : "ended with status " + std::to_string(child.status);
  ASSERT_TRUE(found) << "the child process (" << child.exe << " --gtest_filter=RandomGpu.DISABLED_PrintDigest) "
                     << how << " and printed no RANDOM_DIGEST line; its output:\n"
                     << tail;
  EXPECT_EQ(static_cast<unsigned long long>(mine), theirs)
      << "the child process (" << child.exe << ") computed another digest for seed 2718";
  EXPECT_TRUE(WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) << "the child process " << how << ":\n" << tail;
}

// Generation runs on the current stream: two streams sharing one generator get the two calls'
// numbers (no device state to race on), and a stream's result is ready after its synchronize.
TEST(RandomGpu, StreamsSharingAGenerator) {
  CUPP_REQUIRE_GPU();
  auto shared = random::default_rng(44);
  cuda::Stream s1 = cuda::Stream::create(), s2 = cuda::Stream::create();
  ndarray a, b;
  {
    cuda::StreamGuard g(s1);
    a = shared.random({1 << 20}, float32);
  }
  {
    cuda::StreamGuard g(s2);
    b = shared.standard_normal({1 << 20}, float32);
  }
  s1.synchronize();
  s2.synchronize();
  auto fresh = random::default_rng(44);
  EXPECT_EQ(a.to_vector<float>(), fresh.random({1 << 20}, float32).to_vector<float>());
  EXPECT_EQ(b.to_vector<float>(), fresh.standard_normal({1 << 20}, float32).to_vector<float>());
}

TEST(RandomGpu, ThreadsSharingAGeneratorGetDisjointRanges) {
  CUPP_REQUIRE_GPU();
  auto shared = random::default_rng(8);
  std::vector<float> a, b;
  std::thread ta([&] { a = shared.random({4096}, float32).to_vector<float>(); });
  std::thread tb([&] { b = shared.random({4096}, float32).to_vector<float>(); });
  ta.join();
  tb.join();
  auto fresh = random::default_rng(8);
  const std::vector<float> first = fresh.random({4096}, float32).to_vector<float>();
  const std::vector<float> second = fresh.random({4096}, float32).to_vector<float>();
  EXPECT_TRUE((a == first && b == second) || (a == second && b == first));
}

TEST(RandomGpu, JumpedAndSpawnedStreamsDiffer) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(1);
  random::Generator jumped(rng.bit_generator().jumped());
  const auto x = rng.random({64}).to_vector<double>();
  const auto y = jumped.random({64}).to_vector<double>();
  EXPECT_NE(x, y);
  random::Generator again(random::Philox(1));
  again.bit_generator();
  random::Philox advanced(1);
  advanced.advance(32);  // 64 float64 values take 32 counters
  random::Generator adv(advanced);
  auto rng2 = random::default_rng(1);
  (void)rng2.random({64});
  EXPECT_EQ(rng2.random({10}).to_vector<double>(), adv.random({10}).to_vector<double>());
}

TEST(RandomGpu, PermutationChoiceShuffleInvariants) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(3);
  std::vector<std::int64_t> p = rng.permutation(100000).to_vector<std::int64_t>();
  std::vector<std::int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (std::int64_t i = 0; i < 100000; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_FALSE(std::is_sorted(p.begin(), p.end()));
  EXPECT_EQ(rng.permutation(100000).dtype(), int64);

  const ndarray c = rng.choice(1 << 20, {1 << 14}, false);
  EXPECT_EQ(c.dtype(), int64);
  std::vector<std::int64_t> cv = c.to_vector<std::int64_t>();
  EXPECT_EQ(std::set<std::int64_t>(cv.begin(), cv.end()).size(), cv.size());
  for (std::int64_t v : cv) ASSERT_TRUE(v >= 0 && v < (1 << 20));
  EXPECT_EQ(rng.choice(5, {5}, false).to_vector<std::int64_t>().size(), 5u);
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(5, {6}, false); }),
            "Cannot take a larger sample than population when replace is False");

  // p: zeros are never chosen, with or without replacement
  const ndarray probs = asarray(std::vector<double>{0.5, 0.0, 0.25, 0.25, 0.0});
  for (bool replace : {true, false}) {
    std::vector<std::int64_t> w = rng.choice(5, {replace ? 10000 : 3}, replace, probs).to_vector<std::int64_t>();
    for (std::int64_t v : w) ASSERT_TRUE(v == 0 || v == 2 || v == 3);
    if (!replace) { EXPECT_EQ(std::set<std::int64_t>(w.begin(), w.end()).size(), 3u); }
  }
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(5, {4}, false, probs); }), "Fewer non-zero entries in p than size");
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(5, {4}, true, asarray(std::vector<double>{0.5, 0.6, 0, 0, 0})); }),
            "Probabilities do not sum to 1. See Notes section of docstring for more information.");
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(5, {4}, true, asarray(std::vector<double>{1.5, -0.5, 0, 0, 0})); }),
            "Probabilities are not non-negative");
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(4, {4}, true, probs); }), "a and p must have same size");
  EXPECT_EQ(error_of<ValueError>([&] { rng.choice(0, {4}); }), "a must be a positive integer unless no samples are taken");

  // an array: rows drawn along axis 0
  const ndarray a = arange(12).reshape({4, 3});
  const ndarray rows = rng.choice(a, {6});
  EXPECT_EQ(rows.shape()[0], 6);
  EXPECT_EQ(rows.shape()[1], 3);
  for (std::int64_t v : rows.to_vector<std::int64_t>()) ASSERT_TRUE(v >= 0 && v < 12);

  // shuffle keeps the multiset and moves whole rows
  const ndarray m = arange(20).reshape({10, 2});
  rng.shuffle(m);
  std::vector<std::int64_t> mv = m.to_vector<std::int64_t>();
  for (int r = 0; r < 10; ++r) ASSERT_EQ(mv[2 * r + 1], mv[2 * r] + 1);
  std::sort(mv.begin(), mv.end());
  for (int i = 0; i < 20; ++i) ASSERT_EQ(mv[i], i);

  // permuted: each row its own permutation
  const ndarray grid = arange(5000).reshape({50, 100});
  const std::vector<std::int64_t> g = rng.permuted(grid, 1).to_vector<std::int64_t>();
  for (int r = 0; r < 50; ++r) {
    std::vector<std::int64_t> row(g.begin() + 100 * r, g.begin() + 100 * (r + 1));
    std::sort(row.begin(), row.end());
    for (int i = 0; i < 100; ++i) ASSERT_EQ(row[i], 100 * r + i);
  }
  EXPECT_NE(std::vector<std::int64_t>(g.begin(), g.begin() + 100), std::vector<std::int64_t>(g.begin() + 100, g.begin() + 200));
}

TEST(RandomGpu, ShapesDtypesOut) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(4);
  EXPECT_EQ(rng.random().ndim(), 0);
  EXPECT_EQ(rng.random(5).shape()[0], 5);
  EXPECT_EQ(rng.random({2, 3}, float32).dtype(), float32);
  EXPECT_EQ(rng.normal().ndim(), 0);
  EXPECT_EQ(rng.poisson(3.0, {4}).dtype(), int64);
  EXPECT_EQ(rng.standard_gamma(2.0, {3}, float32).dtype(), float32);
  for (cupp::dtype t : {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_}) {
    const ndarray v = rng.integers(0, 2, {1000}, t);
    EXPECT_EQ(v.dtype(), t);
    std::vector<std::int64_t> h = astype(v, int64).to_vector<std::int64_t>();
    EXPECT_TRUE(std::count(h.begin(), h.end(), 0) > 400 && std::count(h.begin(), h.end(), 1) > 400) << t.name();
  }
  // extremes of each dtype, endpoint included
  const std::vector<std::int64_t> i8 = astype(rng.integers(-128, 127, {20000}, int8, true), int64).to_vector<std::int64_t>();
  EXPECT_EQ(*std::min_element(i8.begin(), i8.end()), -128);
  EXPECT_EQ(*std::max_element(i8.begin(), i8.end()), 127);
  const std::vector<std::uint64_t> u64 = rng.integers(0, std::numeric_limits<std::int64_t>::max(), {1000}, uint64, true)
                                             .to_vector<std::uint64_t>();
  EXPECT_GT(*std::max_element(u64.begin(), u64.end()), std::uint64_t{1} << 60);

  ndarray out = empty({3, 4}, float32);
  ndarray r = rng.random({}, float32, out);
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(error_of<TypeError>([&] { rng.random({}, float64, out); }),
            "Supplied output array has the wrong type. Expected float64, got float32");
  EXPECT_EQ(error_of<ValueError>([&] { rng.random({3, 5}, float32, out); }), "size must match out.shape when used together");
  EXPECT_EQ(error_of<ValueError>([&] { rng.standard_normal({}, float32, out.T()); }),
            "Supplied output array must be C-contiguous, writable, aligned, and in machine byte-order.");

  // array parameters broadcast, and against size=
  const ndarray loc = asarray(std::vector<double>{0.0, 100.0, 200.0});
  const ndarray x = rng.normal(loc, 1.0, {1000, 3});
  const std::vector<double> xv = x.to_vector<double>();
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 3; ++j) ASSERT_NEAR(xv[3 * i + j], 100.0 * j, 8.0);
  EXPECT_EQ(rng.normal(loc.reshape({3, 1}), asarray(std::vector<double>{1.0, 2.0})).shape()[1], 2);
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(loc, 1.0, {2}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
            "(2,) and arg 1 with shape (3,).");
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(loc, 1.0, {1}); }),
            "Output size (1,) is not compatible with broadcast dimensions of inputs (3,).");
  const std::vector<std::int64_t> lows = rng.integers(asarray(std::vector<std::int64_t>{0, 10, 20}), 25, {500, 3})
                                             .to_vector<std::int64_t>();
  for (int i = 0; i < 500; ++i)
    for (int j = 0; j < 3; ++j) ASSERT_TRUE(lows[3 * i + j] >= 10 * j && lows[3 * i + j] < 25);
}

TEST(RandomGpu, ArrayParameterErrors) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto arr = [](std::vector<double> v) { return asarray(v); };
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(0.0, arr({1.0, -1.0})); }), "scale < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(0.0, arr({1.0, -0.0})); }), "scale < 0");  // signbit, as NumPy
  EXPECT_EQ(error_of<ValueError>([&] { rng.normal(0.0, arr({1.0, nan})); }), "<no error>");
  EXPECT_EQ(error_of<ValueError>([&] { rng.beta(arr({1.0, 0.0}), 1.0); }), "a <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.binomial(5, arr({0.5, nan})); }), "p < 0, p > 1 or p contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.geometric(arr({0.5, 1.5})); }), "p <= 0, p > 1 or p contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.poisson(arr({1.0, nan})); }), "lam value too large");
  EXPECT_EQ(error_of<ValueError>([&] { rng.poisson(arr({1.0, -1.0})); }), "lam < 0 or lam contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.zipf(arr({2.0, 1.0})); }), "a <= 1 or a contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.logseries(arr({0.5, 1.0})); }), "p < 0, p >= 1 or p contains NaNs");
  EXPECT_EQ(error_of<ValueError>([&] { rng.negative_binomial(arr({1.0, nan}), 0.5); }), "n must not be NaN");
  EXPECT_EQ(error_of<ValueError>([&] { rng.triangular(arr({0.0, 2.0}), 1.0, 3.0); }), "left > mode");
  EXPECT_EQ(error_of<ValueError>([&] { rng.uniform(arr({0.0, 2.0}), 1.0); }), "high - low < 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(asarray(std::vector<std::int64_t>{0, 5}), 5); }), "low >= high");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, asarray(std::vector<std::int64_t>{3, 0})); }), "high <= 0");
  EXPECT_EQ(error_of<ValueError>([&] { rng.integers(0, asarray(std::vector<std::int64_t>{3, 300}), {}, uint8); }),
            "high is out of bounds for uint8");
}

TEST(RandomGpu, GlobalGeneratorFollowsSeed) {
  CUPP_REQUIRE_GPU();
  random::seed(123);
  const std::vector<double> a = random::random({16}).to_vector<double>();
  random::seed(123);
  const std::vector<double> b = random::rand({16}).to_vector<double>();
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, random::default_rng(123).random({16}).to_vector<double>());
  random::seed();
  EXPECT_NE(random::random({16}).to_vector<double>(), a);
  random::RandomState rs(123);
  EXPECT_EQ(rs.rand({16}).to_vector<double>(), a);
  const std::vector<std::int64_t> r = rs.randint(0, 3, {1000}).to_vector<std::int64_t>();
  EXPECT_TRUE(std::all_of(r.begin(), r.end(), [](std::int64_t v) { return v >= 0 && v < 3; }));
  // the other legacy names: ranf and sample are random_sample; random_integers is closed
  random::seed(7);
  const std::vector<double> c = random::ranf({8}).to_vector<double>();
  random::seed(7);
  EXPECT_EQ(random::sample({8}).to_vector<double>(), c);
  std::set<std::int64_t> faces;
  for (std::int64_t v : random::random_integers(6, std::nullopt, {4000}).to_vector<std::int64_t>()) faces.insert(v);
  EXPECT_EQ(faces, (std::set<std::int64_t>{1, 2, 3, 4, 5, 6}));
  std::set<std::int64_t> closed;
  for (std::int64_t v : rs.random_integers(-2, 2, {4000}).to_vector<std::int64_t>()) closed.insert(v);
  EXPECT_EQ(closed, (std::set<std::int64_t>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(random::random_integers(3, std::nullopt, {5}).dtype(), int64);
  // get_state / set_state replay the global generator's numbers
  const random::Philox saved = random::get_state();
  const std::vector<double> first = random::random({16}).to_vector<double>();
  random::set_state(saved);
  EXPECT_EQ(random::random({16}).to_vector<double>(), first);
}

}  // namespace
}  // namespace cupp
