// cupp::random::SeedSequence against NumPy's numpy.random.SeedSequence, without a GPU: every case
// of seed_sequence_numpy.txt (made by make_seed_sequence_ref.py with NumPy) bit for bit: the pool,
// generate_state with uint32 and uint64 words, and spawned children. Then the errors and the
// default (OS) entropy.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/random.hpp"

namespace cupp {
namespace {

std::vector<std::uint64_t> numbers(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.find_first_not_of(' ') != std::string::npos) out.push_back(std::stoull(item));
  }
  return out;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string f;
  while (std::getline(in, f, '|')) out.push_back(f);
  return out;
}

TEST(SeedSequence, AgreesWithNumPyBitForBit) {
  std::ifstream file(std::string(CUPP_SOURCE_DIR) + "/tests/unit/random/seed_sequence_numpy.txt");
  ASSERT_TRUE(file) << "seed_sequence_numpy.txt is missing (make_seed_sequence_ref.py writes it)";
  std::string line;
  int checked = 0;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = fields(line);
    ASSERT_EQ(f.size(), 5u) << line;
    const std::vector<std::uint64_t> entropy = numbers(f[0]), key = numbers(f[1]), expected = numbers(f[4]);
    const std::size_t pool = std::stoul(f[2]);
    std::stringstream what(f[3]);
    std::string kind;
    std::size_t n = 0;
    what >> kind >> n;
    random::SeedSequence seq(std::span<const std::uint64_t>(entropy), std::span<const std::uint64_t>(key), pool);
    std::vector<std::uint64_t> got;
    if (kind == "pool") {
      got.assign(seq.pool().begin(), seq.pool().end());
    } else if (kind == "u32") {
      for (std::uint32_t w : seq.generate_state(n)) got.push_back(w);
    } else if (kind == "u64") {
      got = seq.generate_state64(n);
    } else {
      ASSERT_EQ(kind.rfind("child", 0), 0u) << line;
      const std::size_t k = std::stoul(kind.substr(5));
      std::vector<random::SeedSequence> kids = seq.spawn(3);
      EXPECT_EQ(seq.n_children_spawned(), 3u);
      EXPECT_EQ(kids[k].spawn_key().back(), k);
      for (std::uint32_t w : kids[k].generate_state(n)) got.push_back(w);
    }
    EXPECT_EQ(got, expected) << line;
    ++checked;
  }
  EXPECT_GE(checked, 100);
}

TEST(SeedSequence, ErrorsAndDefaultEntropy) {
  EXPECT_THROW(random::SeedSequence(5, {}, 3), ValueError);  // NumPy: pool of at least 4
  const random::SeedSequence a, b;                            // 128 bits of OS entropy each
  EXPECT_EQ(a.pool_size(), 4u);
  EXPECT_GE(a.entropy().size(), 1u);
  EXPECT_LE(a.entropy().size(), 4u);
  EXPECT_NE(a.generate_state(4), b.generate_state(4));  // equal with probability 2^-128
  const random::SeedSequence seeded(12345);
  EXPECT_EQ(seeded.generate_state(8), random::SeedSequence({12345}).generate_state(8));
}

}  // namespace
}  // namespace cupp
