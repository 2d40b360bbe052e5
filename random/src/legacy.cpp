// numpy.random's module-level functions (random, rand, randn, randint, normal, ..., shuffle,
// choice) and the RandomState class: one global Generator per device, seeded from CUPP_SEED when it is set (device d's
// generator is Philox(CUPP_SEED).jumped(d)), else from OS entropy; seed() reseeds them all.
#include <limits>
#include <map>
#include <mutex>

#include "cupp/config.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/random.hpp"

namespace cupp::random {

namespace {

struct globals {
  std::mutex mutex;
  std::map<int, Generator> by_device;
  std::optional<std::uint64_t> seed;
  bool seeded = false;
};
globals& state() {
  static globals g;
  return g;
}

Generator make(const std::optional<std::uint64_t>& seed, int device) {
  if (!seed) return Generator(Philox());
  return Generator(Philox(*seed).jumped(static_cast<std::uint64_t>(device)));
}

// The global seed, from CUPP_SEED on first use (under g.mutex).
void seed_once(globals& g) {
  if (!g.seeded) {
    g.seed = config::get().seed;
    g.seeded = true;
  }
}

}  // namespace

Generator global_generator() {
  globals& g = state();
  const int device = cuda::current_device();
  std::lock_guard lock(g.mutex);
  seed_once(g);
  auto it = g.by_device.find(device);
  if (it == g.by_device.end()) it = g.by_device.emplace(device, make(g.seed, device)).first;
  return it->second;
}

void RandomState::seed(std::optional<std::uint64_t> value) {
  static_cast<Generator&>(*this) = value ? Generator(Philox(*value)) : Generator(Philox());
}

ndarray RandomState::tomaxint(size_arg size) {
  return integers(0, std::numeric_limits<std::int64_t>::max(), std::move(size), int64, true);
}

namespace {

// numpy's random_integers: randint(low, int(high) + 1), or randint(1, int(low) + 1) without high.
ndarray random_integers_of(Generator& g, const operand& low, std::optional<std::int64_t> high, size_arg size) {
  if (!high) {
    std::int64_t h = 0;
    if (low.is_array()) {
      const ndarray l = astype(low.array(), int64);
      if (l.size() != 1) throw TypeError("only length-1 arrays can be converted to Python scalars");
      h = l.ravel().to_vector<std::int64_t>()[0];
    } else {
      const weak_scalar& w = low.scalar();
      if (w.scalar_kind() == weak_scalar::kind::complex_) throw TypeError("can't convert complex to int");
      if (w.scalar_kind() == weak_scalar::kind::int_ || w.scalar_kind() == weak_scalar::kind::bool_)
        h = w.is_negative() ? -static_cast<std::int64_t>(w.magnitude()) : static_cast<std::int64_t>(w.magnitude());
      else
        h = static_cast<std::int64_t>(w.real());  // NumPy's int(low): truncation
    }
    return random_integers_of(g, operand(1), h, std::move(size));
  }
  if (*high == std::numeric_limits<std::int64_t>::max())  // high + 1 = 2^63: the closed interval
    return g.integers(low, operand(*high), std::move(size), int64, true);
  return g.integers(low, operand(*high + 1), std::move(size), int64, false);
}

}  // namespace

ndarray RandomState::random_integers(const operand& low, std::optional<std::int64_t> high, size_arg size) {
  return random_integers_of(*this, low, high, std::move(size));
}

Philox RandomState::get_state() const { return Philox(bit_generator().key(), bit_generator().counter()); }

void RandomState::set_state(const Philox& s) {
  static_cast<Generator&>(*this) = Generator(Philox(s.key(), s.counter()));
}

Philox get_state() {
  const Generator g = global_generator();
  return Philox(g.bit_generator().key(), g.bit_generator().counter());
}

void set_state(const Philox& s) {
  globals& g = state();
  const int device = cuda::current_device();
  std::lock_guard lock(g.mutex);
  seed_once(g);
  g.by_device.insert_or_assign(device, Generator(Philox(s.key(), s.counter())));
}

void seed(std::optional<std::uint64_t> value) {
  globals& g = state();
  std::lock_guard lock(g.mutex);
  g.seed = value;
  g.seeded = true;
  g.by_device.clear();
}

ndarray random(size_arg size) { return global_generator().random(size); }
ndarray random_sample(size_arg size) { return global_generator().random(size); }
ndarray ranf(size_arg size) { return global_generator().random(size); }
ndarray sample(size_arg size) { return global_generator().random(size); }
ndarray random_integers(const operand& low, std::optional<std::int64_t> high, size_arg size) {
  Generator g = global_generator();
  return random_integers_of(g, low, high, std::move(size));
}
ndarray rand(size_arg shape) { return global_generator().random(shape); }
ndarray randn(size_arg shape) { return global_generator().standard_normal(shape); }
ndarray randint(const operand& low, const std::optional<operand>& high, size_arg size, cupp::dtype dtype) {
  return global_generator().integers(low, high, size, dtype);
}
ndarray uniform(const operand& low, const operand& high, size_arg size) {
  return global_generator().uniform(low, high, size);
}
ndarray standard_normal(size_arg size) { return global_generator().standard_normal(size); }
ndarray normal(const operand& loc, const operand& scale, size_arg size) {
  return global_generator().normal(loc, scale, size);
}
ndarray lognormal(const operand& mean, const operand& sigma, size_arg size) {
  return global_generator().lognormal(mean, sigma, size);
}
ndarray standard_exponential(size_arg size) { return global_generator().standard_exponential(size); }
ndarray exponential(const operand& scale, size_arg size) { return global_generator().exponential(scale, size); }
ndarray laplace(const operand& loc, const operand& scale, size_arg size) {
  return global_generator().laplace(loc, scale, size);
}
ndarray logistic(const operand& loc, const operand& scale, size_arg size) {
  return global_generator().logistic(loc, scale, size);
}
ndarray gumbel(const operand& loc, const operand& scale, size_arg size) {
  return global_generator().gumbel(loc, scale, size);
}
ndarray pareto(const operand& a, size_arg size) { return global_generator().pareto(a, size); }
ndarray power(const operand& a, size_arg size) { return global_generator().power(a, size); }
ndarray rayleigh(const operand& scale, size_arg size) { return global_generator().rayleigh(scale, size); }
ndarray standard_cauchy(size_arg size) { return global_generator().standard_cauchy(size); }
ndarray weibull(const operand& a, size_arg size) { return global_generator().weibull(a, size); }
ndarray triangular(const operand& left, const operand& mode, const operand& right, size_arg size) {
  return global_generator().triangular(left, mode, right, size);
}
ndarray standard_gamma(const operand& shape, size_arg size) { return global_generator().standard_gamma(shape, size); }
ndarray gamma(const operand& shape, const operand& scale, size_arg size) {
  return global_generator().gamma(shape, scale, size);
}
ndarray beta(const operand& a, const operand& b, size_arg size) { return global_generator().beta(a, b, size); }
ndarray chisquare(const operand& df, size_arg size) { return global_generator().chisquare(df, size); }
ndarray f(const operand& dfnum, const operand& dfden, size_arg size) { return global_generator().f(dfnum, dfden, size); }
ndarray standard_t(const operand& df, size_arg size) { return global_generator().standard_t(df, size); }
ndarray wald(const operand& mean, const operand& scale, size_arg size) {
  return global_generator().wald(mean, scale, size);
}
ndarray vonmises(const operand& mu, const operand& kappa, size_arg size) {
  return global_generator().vonmises(mu, kappa, size);
}
ndarray noncentral_chisquare(const operand& df, const operand& nonc, size_arg size) {
  return global_generator().noncentral_chisquare(df, nonc, size);
}
ndarray noncentral_f(const operand& dfnum, const operand& dfden, const operand& nonc, size_arg size) {
  return global_generator().noncentral_f(dfnum, dfden, nonc, size);
}
ndarray poisson(const operand& lam, size_arg size) { return global_generator().poisson(lam, size); }
ndarray binomial(const operand& n, const operand& p, size_arg size) { return global_generator().binomial(n, p, size); }
ndarray negative_binomial(const operand& n, const operand& p, size_arg size) {
  return global_generator().negative_binomial(n, p, size);
}
ndarray geometric(const operand& p, size_arg size) { return global_generator().geometric(p, size); }
ndarray logseries(const operand& p, size_arg size) { return global_generator().logseries(p, size); }
ndarray zipf(const operand& a, size_arg size) { return global_generator().zipf(a, size); }
ndarray hypergeometric(const operand& ngood, const operand& nbad, const operand& nsample, size_arg size) {
  return global_generator().hypergeometric(ngood, nbad, nsample, size);
}
ndarray dirichlet(const ndarray& alpha, size_arg size) { return global_generator().dirichlet(alpha, size); }
ndarray multinomial(const operand& n, const ndarray& pvals, size_arg size) {
  return global_generator().multinomial(n, pvals, size);
}
ndarray multivariate_normal(const ndarray& mean, const ndarray& cov, size_arg size, const std::string& check_valid,
                            double tol) {
  return global_generator().multivariate_normal(mean, cov, size, check_valid, tol);
}
ndarray permutation(std::int64_t n) { return global_generator().permutation(n); }
ndarray permutation(const ndarray& x) { return global_generator().permutation(x); }
void shuffle(const ndarray& x) { global_generator().shuffle(x); }
ndarray choice(std::int64_t a, size_arg size, bool replace, const ndarray& p) {
  return global_generator().choice(a, size, replace, p);
}
ndarray choice(const ndarray& a, size_arg size, bool replace, const ndarray& p) {
  return global_generator().choice(a, size, replace, p);
}
std::string bytes(std::int64_t length) { return global_generator().bytes(length); }

}  // namespace cupp::random
