// cupp::random, NumPy's numpy.random (the random module, target cupp::random; cupp::cupp links
// it): SeedSequence (NumPy's entropy mixing, bit for bit), the counter-based bit generator Philox
// (Philox4x32-10: the same numbers on every GPU and for every launch shape), Generator with
// NumPy's methods, default_rng, and module-level functions over a per-device global generator
// (seeded from CUPP_SEED, else OS entropy). Also info(), the rows `cupp info` prints. Guide:
// docs/random.md.
//
//   auto rng = cupp::random::default_rng(42);
//   cupp::ndarray u = rng.random({1000}, cupp::float32);       // [0, 1), float32
//   cupp::ndarray z = rng.normal(0.0, 2.0, {4, 5});             // float64
//   cupp::ndarray k = rng.integers(0, 10, {100});               // int64 in [0, 10)
//   cupp::ndarray p = rng.permutation(10);
//   std::vector<cupp::random::SeedSequence> kids = cupp::random::SeedSequence(7).spawn(2);
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::random {

class SeedSequence {
 public:
  static constexpr std::size_t default_pool_size = 4;  // NumPy's DEFAULT_POOL_SIZE

  // entropy=None: 128 bits from std::random_device (NumPy: secrets.randbits(128)).
  SeedSequence();
  // entropy as one non-negative integer (NumPy: an int), or a sequence of them; each element is
  // split into little-endian 32-bit words (0 is one word, [0]). spawn_key: the children path.
  explicit SeedSequence(std::uint64_t entropy, std::span<const std::uint64_t> spawn_key = {},
                        std::size_t pool_size = default_pool_size);
  explicit SeedSequence(std::span<const std::uint64_t> entropy, std::span<const std::uint64_t> spawn_key = {},
                        std::size_t pool_size = default_pool_size);
  SeedSequence(std::initializer_list<std::uint64_t> entropy);

  // numpy's SeedSequence.generate_state(n_words): n_words uint32 words from the pool.
  std::vector<std::uint32_t> generate_state(std::size_t n_words) const;
  // generate_state(n_words, dtype=np.uint64): 2 * n_words uint32 words, paired little-endian.
  std::vector<std::uint64_t> generate_state64(std::size_t n_words) const;
  // spawn(n): n children whose spawn_key is this one's plus (k,), k counting every child spawned.
  std::vector<SeedSequence> spawn(std::size_t n_children);

  std::span<const std::uint32_t> pool() const noexcept { return pool_; }
  std::span<const std::uint32_t> entropy() const noexcept { return entropy_; }  // as 32-bit words
  std::span<const std::uint64_t> spawn_key() const noexcept { return spawn_key_; }
  std::size_t pool_size() const noexcept { return pool_.size(); }
  std::size_t n_children_spawned() const noexcept { return children_; }

 private:
  void fill_pool();  // NumPy's get_assembled_entropy + mix_entropy

  std::vector<std::uint32_t> entropy_;    // the entropy's 32-bit words
  std::vector<std::uint64_t> entropy_in_;  // as given (children are made from it)
  std::vector<std::uint64_t> spawn_key_;
  std::vector<std::uint32_t> pool_;
  std::size_t children_ = 0;
};

// NumPy's size= argument: None (not given: the parameters' broadcast shape, 0-d for scalars), an
// int, or a shape: rng.random(), rng.random(5), rng.random({2, 3}).
class size_arg {
 public:
  size_arg() = default;
  size_arg(std::nullopt_t) {}  // NOLINT: size=None
  size_arg(std::initializer_list<std::int64_t> shape) : given_(true), shape_(shape) {}  // NOLINT
  size_arg(shape_t shape) : given_(true), shape_(std::move(shape)) {}                   // NOLINT
  size_arg(std::span<const std::int64_t> shape) : given_(true), shape_(shape.begin(), shape.end()) {}  // NOLINT
  size_arg(const std::optional<shape_t>& shape) : given_(shape.has_value()), shape_(shape.value_or(shape_t{})) {}  // NOLINT
  template <class I>
    requires std::is_integral_v<I> && (!std::is_same_v<I, bool>)
  size_arg(I n) : given_(true), shape_{static_cast<std::int64_t>(n)} {}  // NOLINT: size=5
  bool given() const noexcept { return given_; }
  const shape_t& shape() const noexcept { return shape_; }

 private:
  bool given_ = false;
  shape_t shape_;
};

namespace detail {
struct philox_state;
}

// The bit generator: Philox4x32-10, counter-based (NumPy's Philox is 4x64-10, so the numbers
// differ from NumPy's). Its state is a 64-bit key, from SeedSequence(seed).generate_state(2), and
// a 96-bit counter: each call reserves the counters it will use under a mutex on the host before
// its kernel runs, so threads and streams that share a generator never race (no device state).
// A copy shares the state (a handle, as a Python name is).
class Philox {
 public:
  Philox();                                      // seeded from OS entropy (SeedSequence())
  explicit Philox(std::uint64_t seed);           // SeedSequence(seed)
  explicit Philox(const SeedSequence& seed_seq);
  // A given key and counter (words low first): NumPy's Philox(key=...), and the tests' hook.
  Philox(std::array<std::uint32_t, 2> key, std::array<std::uint32_t, 3> counter);

  std::array<std::uint32_t, 2> key() const;
  std::array<std::uint32_t, 3> counter() const;  // the next counter a call will use
  // A new generator whose counter is this one's plus jumps * 2^64 (NumPy: jumps * 2^128 in its
  // 256-bit counter); this one is unchanged.
  Philox jumped(std::uint64_t jumps = 1) const;
  // Moves the counter on by delta (counters, each four 32-bit words); returns *this.
  Philox& advance(std::uint64_t delta);
  // n_children bit generators from seed_seq().spawn(n_children) (ValueError without a seed
  // sequence: a Philox made from a key).
  std::vector<Philox> spawn(std::size_t n_children);
  const SeedSequence* seed_seq() const;

  // Reserves n counters: returns the first; the counter moves past them (thread-safe).
  std::array<std::uint32_t, 3> reserve(std::uint64_t n) const;

 private:
  std::shared_ptr<detail::philox_state> state_;
};
using BitGenerator = Philox;

// numpy.random.Generator: NumPy 2.5's methods. Scalar parameters are checked on the host, array
// ones with one flag read, with NumPy's messages; arrays broadcast as NumPy's. Every result is a
// new array on the current device, made on its current stream; size=None gives the parameters'
// broadcast shape (0-d for scalars, where NumPy returns a Python scalar).
class Generator {
 public:
  explicit Generator(Philox bit_generator);
  const Philox& bit_generator() const noexcept { return bits_; }
  std::vector<Generator> spawn(std::size_t n_children);

  // float32 or float64 (TypeError "Unsupported dtype ... for random" otherwise); out= (C-contiguous,
  // of that dtype) receives the values, and its shape is the size.
  ndarray random(size_arg size = {}, cupp::dtype dtype = float64, const ndarray& out = {});
  // Integers in [low, high) (or [low, high] with endpoint); high None: [0, low). dtype: any
  // integer dtype or bool (NumPy's range errors: "low is out of bounds for int8", "high <= 0",
  // "low >= high"). low and high as int64 or arrays.
  ndarray integers(const operand& low, const std::optional<operand>& high = std::nullopt, size_arg size = {},
                   cupp::dtype dtype = int64, bool endpoint = false);
  ndarray uniform(const operand& low = 0.0, const operand& high = 1.0, size_arg size = {});
  ndarray standard_normal(size_arg size = {}, cupp::dtype dtype = float64, const ndarray& out = {});
  ndarray normal(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
  ndarray lognormal(const operand& mean = 0.0, const operand& sigma = 1.0, size_arg size = {});
  ndarray standard_exponential(size_arg size = {}, cupp::dtype dtype = float64, const ndarray& out = {});
  ndarray exponential(const operand& scale = 1.0, size_arg size = {});
  ndarray laplace(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
  ndarray logistic(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
  ndarray gumbel(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
  ndarray pareto(const operand& a, size_arg size = {});
  ndarray power(const operand& a, size_arg size = {});
  ndarray rayleigh(const operand& scale = 1.0, size_arg size = {});
  ndarray standard_cauchy(size_arg size = {});
  ndarray weibull(const operand& a, size_arg size = {});
  ndarray triangular(const operand& left, const operand& mode, const operand& right, size_arg size = {});
  ndarray standard_gamma(const operand& shape, size_arg size = {}, cupp::dtype dtype = float64,
                         const ndarray& out = {});
  ndarray gamma(const operand& shape, const operand& scale = 1.0, size_arg size = {});
  ndarray beta(const operand& a, const operand& b, size_arg size = {});
  ndarray chisquare(const operand& df, size_arg size = {});
  ndarray f(const operand& dfnum, const operand& dfden, size_arg size = {});
  ndarray standard_t(const operand& df, size_arg size = {});
  ndarray wald(const operand& mean, const operand& scale, size_arg size = {});
  ndarray vonmises(const operand& mu, const operand& kappa, size_arg size = {});
  ndarray noncentral_chisquare(const operand& df, const operand& nonc, size_arg size = {});
  ndarray noncentral_f(const operand& dfnum, const operand& dfden, const operand& nonc, size_arg size = {});
  // The discrete distributions: int64.
  ndarray poisson(const operand& lam = 1.0, size_arg size = {});
  ndarray binomial(const operand& n, const operand& p, size_arg size = {});
  ndarray negative_binomial(const operand& n, const operand& p, size_arg size = {});
  ndarray geometric(const operand& p, size_arg size = {});
  ndarray logseries(const operand& p, size_arg size = {});
  ndarray zipf(const operand& a, size_arg size = {});
  ndarray hypergeometric(const operand& ngood, const operand& nbad, const operand& nsample, size_arg size = {});
  // Vector-valued: the result has size's shape plus the length of alpha / pvals (1-d).
  ndarray dirichlet(const ndarray& alpha, size_arg size = {});
  ndarray multinomial(const operand& n, const ndarray& pvals, size_arg size = {});
  // mean + z A^T with A A^T = cov (method "svd" and "eigh": cov's eigendecomposition, computed on
  // the host; "cholesky"); check_valid "warn" (goes on, as NumPy after its warning), "raise", "ignore".
  ndarray multivariate_normal(const ndarray& mean, const ndarray& cov, size_arg size = {},
                              const std::string& check_valid = "warn", double tol = 1e-8,
                              const std::string& method = "svd");
  // method "marginals" or "count" (the same distribution; cupp draws both by marginals).
  ndarray multivariate_hypergeometric(const ndarray& colors, std::int64_t nsample, size_arg size = {},
                                      const std::string& method = "marginals");

  // A random permutation of arange(n) (int64), or of x along axis (a shuffled copy).
  ndarray permutation(std::int64_t n);
  ndarray permutation(const ndarray& x, int axis = 0);
  // Shuffles x in place along axis.
  void shuffle(const ndarray& x, int axis = 0);
  // Each slice along axis shuffled independently (axis None: the flattened array); out=: written.
  ndarray permuted(const ndarray& x, std::optional<int> axis = std::nullopt, const ndarray& out = {});
  // A sample of arange(a) (int64; always int64 for replace=false, as CuPy 14) or of the array a
  // along axis; p: 1-d probabilities. shuffle: cupp's samples without replacement are always in a
  // random order (shuffle=false is accepted).
  ndarray choice(std::int64_t a, size_arg size = {}, bool replace = true, const ndarray& p = {}, int axis = 0,
                 bool shuffle = true);
  ndarray choice(const ndarray& a, size_arg size = {}, bool replace = true, const ndarray& p = {}, int axis = 0,
                 bool shuffle = true);
  // length random bytes (NumPy returns bytes).
  std::string bytes(std::int64_t length);

 private:
  Philox bits_;
};

// numpy.random.RandomState's names over the same bit generator (NumPy's is MT19937 with its legacy
// algorithms: cupp's values are not NumPy's): rand/randn take the shape, randint excludes high,
// random_sample is random; seed() reseeds this state; every Generator method is there too.
class RandomState : public Generator {
 public:
  RandomState() : Generator(Philox()) {}
  explicit RandomState(std::uint64_t seed) : Generator(Philox(seed)) {}
  void seed(std::optional<std::uint64_t> seed = std::nullopt);
  ndarray rand(size_arg shape = {}) { return random(std::move(shape)); }
  ndarray randn(size_arg shape = {}) { return standard_normal(std::move(shape)); }
  ndarray random_sample(size_arg size = {}) { return random(std::move(size)); }
  ndarray randint(const operand& low, const std::optional<operand>& high = std::nullopt, size_arg size = {},
                  cupp::dtype dtype = int64) {
    return integers(low, high, std::move(size), dtype, false);
  }
  // numpy's tomaxint: integers in [0, int64 max].
  ndarray tomaxint(size_arg size = {});
  // ranf and sample: random_sample's other legacy names.
  ndarray ranf(size_arg size = {}) { return random(std::move(size)); }
  ndarray sample(size_arg size = {}) { return random(std::move(size)); }
  // numpy's (deprecated) random_integers: int64 in [low, high], or [1, low] without high
  // (randint(low, high + 1) as NumPy's, with its errors).
  ndarray random_integers(const operand& low, std::optional<std::int64_t> high = std::nullopt, size_arg size = {});
  // get_state / set_state: NumPy's hold MT19937's words; cupp's state is the bit generator's key
  // and counter, returned as a detached Philox (it does not move with this state) and restored
  // from one (its seed sequence is not kept: spawn() then raises).
  Philox get_state() const;
  void set_state(const Philox& state);
};

// numpy.random.default_rng: a Generator over Philox (NumPy's default is PCG64; cupp's is Philox).
Generator default_rng();
Generator default_rng(std::uint64_t seed);
Generator default_rng(const SeedSequence& seed_seq);
Generator default_rng(const Philox& bit_generator);
Generator default_rng(const Generator& generator);  // itself, as NumPy's

// The module-level functions (numpy.random.random, .normal, ...) draw from a per-device global
// Generator, seeded from CUPP_SEED when it is set, else from OS entropy; seed() reseeds it.
// global_generator() returns a handle to it (it shares the state; safe across threads and seed()).
Generator global_generator();
void seed(std::optional<std::uint64_t> seed = std::nullopt);
ndarray random(size_arg size = {});
ndarray random_sample(size_arg size = {});
ndarray rand(size_arg shape = {});    // numpy.random.rand(d0, d1, ...): rand({d0, d1})
ndarray randn(size_arg shape = {});
ndarray randint(const operand& low, const std::optional<operand>& high = std::nullopt, size_arg size = {},
                cupp::dtype dtype = int64);
ndarray ranf(size_arg size = {});    // random_sample's other names
ndarray sample(size_arg size = {});
ndarray random_integers(const operand& low, std::optional<std::int64_t> high = std::nullopt, size_arg size = {});
// The current device's global generator's key and counter (a detached Philox), and a global
// generator continuing from a state's (handles from global_generator() keep the old one, as after seed()).
Philox get_state();
void set_state(const Philox& state);
ndarray uniform(const operand& low = 0.0, const operand& high = 1.0, size_arg size = {});
ndarray standard_normal(size_arg size = {});
ndarray normal(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
ndarray lognormal(const operand& mean = 0.0, const operand& sigma = 1.0, size_arg size = {});
ndarray standard_exponential(size_arg size = {});
ndarray exponential(const operand& scale = 1.0, size_arg size = {});
ndarray laplace(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
ndarray logistic(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
ndarray gumbel(const operand& loc = 0.0, const operand& scale = 1.0, size_arg size = {});
ndarray pareto(const operand& a, size_arg size = {});
ndarray power(const operand& a, size_arg size = {});
ndarray rayleigh(const operand& scale = 1.0, size_arg size = {});
ndarray standard_cauchy(size_arg size = {});
ndarray weibull(const operand& a, size_arg size = {});
ndarray triangular(const operand& left, const operand& mode, const operand& right, size_arg size = {});
ndarray standard_gamma(const operand& shape, size_arg size = {});
ndarray gamma(const operand& shape, const operand& scale = 1.0, size_arg size = {});
ndarray beta(const operand& a, const operand& b, size_arg size = {});
ndarray chisquare(const operand& df, size_arg size = {});
ndarray f(const operand& dfnum, const operand& dfden, size_arg size = {});
ndarray standard_t(const operand& df, size_arg size = {});
ndarray wald(const operand& mean, const operand& scale, size_arg size = {});
ndarray vonmises(const operand& mu, const operand& kappa, size_arg size = {});
ndarray noncentral_chisquare(const operand& df, const operand& nonc, size_arg size = {});
ndarray noncentral_f(const operand& dfnum, const operand& dfden, const operand& nonc, size_arg size = {});
ndarray poisson(const operand& lam = 1.0, size_arg size = {});
ndarray binomial(const operand& n, const operand& p, size_arg size = {});
ndarray negative_binomial(const operand& n, const operand& p, size_arg size = {});
ndarray geometric(const operand& p, size_arg size = {});
ndarray logseries(const operand& p, size_arg size = {});
ndarray zipf(const operand& a, size_arg size = {});
ndarray hypergeometric(const operand& ngood, const operand& nbad, const operand& nsample, size_arg size = {});
ndarray dirichlet(const ndarray& alpha, size_arg size = {});
ndarray multinomial(const operand& n, const ndarray& pvals, size_arg size = {});
ndarray multivariate_normal(const ndarray& mean, const ndarray& cov, size_arg size = {},
                            const std::string& check_valid = "warn", double tol = 1e-8);
ndarray permutation(std::int64_t n);
ndarray permutation(const ndarray& x);
void shuffle(const ndarray& x);
ndarray choice(std::int64_t a, size_arg size = {}, bool replace = true, const ndarray& p = {});
ndarray choice(const ndarray& a, size_arg size = {}, bool replace = true, const ndarray& p = {});
std::string bytes(std::int64_t length);

// What `cupp info` prints for the module: the cuRAND version.
std::vector<module_info_row> info();

}  // namespace cupp::random

namespace cupp {
// For tools: the random routines by name with their NumPy signatures (generated from
// specs/routines/random.yaml; cupp ops lists them).
std::span<const routine_info> random_routines() noexcept;
}  // namespace cupp
