// cupp::random, NumPy's numpy.random (the random module, target cupp::random; cupp::cupp links
// it). Today: numpy.random.SeedSequence, which turns a seed into well-mixed state words (the
// start of every NumPy generator), bit for bit as NumPy's; the generators arrive with the random
// issue. Also info(), the rows `cupp info` prints for the module.
//
//   cupp::random::SeedSequence seq(12345);
//   std::vector<std::uint32_t> words = seq.generate_state(4);     // NumPy's generate_state(4)
//   std::vector<std::uint64_t> wide = seq.generate_state64(2);    // dtype=np.uint64
//   std::vector<cupp::random::SeedSequence> kids = seq.spawn(2);  // spawn_key (0,), (1,)
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "cupp/modules.hpp"

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

// What `cupp info` prints for the module: the cuRAND version.
std::vector<module_info_row> info();

}  // namespace cupp::random
