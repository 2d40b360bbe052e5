// cupp::random::Philox (the bit generator's host state: key, 96-bit counter, the mutex that
// serialises reservations, the seed sequence it came from), Generator's constructor and spawn,
// and default_rng.
#include <mutex>

#include "cupp/errors.hpp"
#include "cupp/random.hpp"

namespace cupp::random {

namespace detail {
struct philox_state {
  std::mutex mutex;
  std::array<std::uint32_t, 2> key{};
  std::array<std::uint32_t, 3> counter{};
  std::optional<SeedSequence> seed_seq;
};
}  // namespace detail

namespace {

// counter += delta (96-bit, words low first), with the carry.
void add(std::array<std::uint32_t, 3>& c, std::uint64_t delta, std::uint32_t high = 0) {
  const std::uint64_t lo = (static_cast<std::uint64_t>(c[1]) << 32 | c[0]);
  const std::uint64_t sum = lo + delta;
  c[0] = static_cast<std::uint32_t>(sum);
  c[1] = static_cast<std::uint32_t>(sum >> 32);
  c[2] += high + (sum < lo ? 1u : 0u);
}

std::shared_ptr<detail::philox_state> from_seed(const SeedSequence& seq) {
  auto s = std::make_shared<detail::philox_state>();
  const std::vector<std::uint32_t> words = seq.generate_state(2);
  s->key = {words[0], words[1]};
  s->seed_seq = seq;
  return s;
}

}  // namespace

Philox::Philox() : state_(from_seed(SeedSequence())) {}
Philox::Philox(std::uint64_t seed) : state_(from_seed(SeedSequence(seed))) {}
Philox::Philox(const SeedSequence& seed_seq) : state_(from_seed(seed_seq)) {}
Philox::Philox(std::array<std::uint32_t, 2> key, std::array<std::uint32_t, 3> counter)
    : state_(std::make_shared<detail::philox_state>()) {
  state_->key = key;
  state_->counter = counter;
}

std::array<std::uint32_t, 2> Philox::key() const { return state_->key; }

std::array<std::uint32_t, 3> Philox::counter() const {
  std::lock_guard lock(state_->mutex);
  return state_->counter;
}

Philox Philox::jumped(std::uint64_t jumps) const {
  std::lock_guard lock(state_->mutex);
  Philox out(state_->key, state_->counter);
  out.state_->counter[2] += static_cast<std::uint32_t>(jumps);
  out.state_->seed_seq = state_->seed_seq;
  return out;
}

Philox& Philox::advance(std::uint64_t delta) {
  std::lock_guard lock(state_->mutex);
  add(state_->counter, delta);
  return *this;
}

std::vector<Philox> Philox::spawn(std::size_t n_children) {
  std::lock_guard lock(state_->mutex);
  if (!state_->seed_seq) {
    throw ValueError("The underlying SeedSequence does not implement spawning. You must ensure a custom "
                     "SeedSequence used for initializing the random state implements spawning (and "
                     "registers it).");
  }
  std::vector<Philox> out;
  for (SeedSequence& child : state_->seed_seq->spawn(n_children)) out.emplace_back(child);
  return out;
}

const SeedSequence* Philox::seed_seq() const { return state_->seed_seq ? &*state_->seed_seq : nullptr; }

std::array<std::uint32_t, 3> Philox::reserve(std::uint64_t n) const {
  std::lock_guard lock(state_->mutex);
  const std::array<std::uint32_t, 3> first = state_->counter;
  add(state_->counter, n);
  return first;
}

Generator::Generator(Philox bit_generator) : bits_(std::move(bit_generator)) {}

std::vector<Generator> Generator::spawn(std::size_t n_children) {
  std::vector<Generator> out;
  for (Philox& child : bits_.spawn(n_children)) out.emplace_back(std::move(child));
  return out;
}

Generator default_rng() { return Generator(Philox()); }
Generator default_rng(std::uint64_t seed) { return Generator(Philox(seed)); }
Generator default_rng(const SeedSequence& seed_seq) { return Generator(Philox(seed_seq)); }
Generator default_rng(const Philox& bit_generator) { return Generator(bit_generator); }
Generator default_rng(const Generator& generator) { return generator; }

}  // namespace cupp::random
