// numpy.random.SeedSequence: NumPy's entropy pool (bit_generator.pyx), all arithmetic modulo 2^32.
// The entropy and spawn key become 32-bit words (each integer little-endian, 0 as one word); the
// run entropy is zero-padded to the pool size when there is a spawn key; hashmix/mix fold every
// word into the pool; generate_state hashes the pool, cycled, into the output words.
#include <random>
#include <stdexcept>

#include "cupp/errors.hpp"
#include "cupp/random.hpp"

namespace cupp::random {

namespace {

constexpr std::uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875;
constexpr std::uint32_t kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr std::uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;
constexpr int kXShift = 16;  // 4 * 8 / 2

std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

// NumPy's _coerce_to_uint32_array of a sequence of non-negative ints.
std::vector<std::uint32_t> words_of(std::span<const std::uint64_t> values) {
  std::vector<std::uint32_t> out;
  for (std::uint64_t v : values) {
    out.push_back(static_cast<std::uint32_t>(v));
    if (v >> 32) out.push_back(static_cast<std::uint32_t>(v >> 32));
  }
  return out;
}

}  // namespace

SeedSequence::SeedSequence() {
  std::random_device device;
  // A 128-bit int as NumPy splits one: little-endian 32-bit words, the zero words on top dropped.
  entropy_ = {device(), device(), device(), device()};
  while (entropy_.size() > 1 && entropy_.back() == 0) entropy_.pop_back();
  for (std::size_t i = 0; i < entropy_.size(); i += 2)
    entropy_in_.push_back(entropy_[i] | (i + 1 < entropy_.size() ? std::uint64_t{entropy_[i + 1]} << 32 : 0));
  pool_.assign(default_pool_size, 0);
  fill_pool();
}

SeedSequence::SeedSequence(std::uint64_t entropy, std::span<const std::uint64_t> spawn_key, std::size_t pool_size)
    : SeedSequence(std::span<const std::uint64_t>(&entropy, 1), spawn_key, pool_size) {}

SeedSequence::SeedSequence(std::initializer_list<std::uint64_t> entropy)
    : SeedSequence(std::span<const std::uint64_t>(entropy.begin(), entropy.size())) {}

SeedSequence::SeedSequence(std::span<const std::uint64_t> entropy, std::span<const std::uint64_t> spawn_key,
                           std::size_t pool_size)
    : entropy_(words_of(entropy)),
      entropy_in_(entropy.begin(), entropy.end()),
      spawn_key_(spawn_key.begin(), spawn_key.end()) {
  if (pool_size < default_pool_size)
    throw ValueError("The size of the entropy pool should be at least " + std::to_string(default_pool_size));
  pool_.assign(pool_size, 0);
  fill_pool();
}

void SeedSequence::fill_pool() {
  // NumPy's get_assembled_entropy: run entropy (zero-padded to the pool with a spawn key), then the key.
  std::vector<std::uint32_t> assembled = entropy_;
  const std::vector<std::uint32_t> key = words_of(spawn_key_);
  if (!key.empty() && assembled.size() < pool_.size()) assembled.resize(pool_.size(), 0);
  assembled.insert(assembled.end(), key.begin(), key.end());
  // mix_entropy
  std::uint32_t hash_const = kInitA;
  const std::size_t n = pool_.size();
  for (std::size_t i = 0; i < n; ++i) pool_[i] = hashmix(i < assembled.size() ? assembled[i] : 0, hash_const);
  for (std::size_t src = 0; src < n; ++src)
    for (std::size_t dst = 0; dst < n; ++dst)
      if (src != dst) pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hash_const));
  for (std::size_t src = n; src < assembled.size(); ++src)
    for (std::size_t dst = 0; dst < n; ++dst) pool_[dst] = mix(pool_[dst], hashmix(assembled[src], hash_const));
}

std::vector<std::uint32_t> SeedSequence::generate_state(std::size_t n_words) const {
  std::vector<std::uint32_t> state(n_words);
  std::uint32_t hash_const = kInitB;
  for (std::size_t i = 0; i < n_words; ++i) {
    std::uint32_t v = pool_[i % pool_.size()];
    v ^= hash_const;
    hash_const *= kMultB;
    v *= hash_const;
    v ^= v >> kXShift;
    state[i] = v;
  }
  return state;
}

std::vector<std::uint64_t> SeedSequence::generate_state64(std::size_t n_words) const {
  const std::vector<std::uint32_t> words = generate_state(2 * n_words);
  std::vector<std::uint64_t> out(n_words);
  for (std::size_t i = 0; i < n_words; ++i) out[i] = (std::uint64_t{words[2 * i + 1]} << 32) | words[2 * i];
  return out;
}

std::vector<SeedSequence> SeedSequence::spawn(std::size_t n_children) {
  std::vector<SeedSequence> kids;
  kids.reserve(n_children);
  for (std::size_t i = 0; i < n_children; ++i) {
    std::vector<std::uint64_t> key = spawn_key_;
    key.push_back(children_ + i);
    kids.emplace_back(std::span<const std::uint64_t>(entropy_in_), std::span<const std::uint64_t>(key), pool_.size());
  }
  children_ += n_children;
  return kids;
}

}  // namespace cupp::random
