// .npz archives on host arrays (no GPU): stored and deflated round trips, archives written by
// Python's zipfile as numpy.savez writes them (tests/io_data, ZIP64 local headers), forced
// ZIP64 records, and hostile archives — truncations, bit flips, CRC mismatches, lying sizes,
// zip bombs, overlapping members, bad offsets, unsupported methods — as cupp::ValueError.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "io/zip.hpp"
#include "npy_bytes.hpp"

namespace {

using cupp::test::read_file;

using cupp::host_array;
namespace io = cupp::io;

host_array filled(const cupp::dtype& type, cupp::shape_t shape, int seed) {
  host_array a(type, std::move(shape));
  for (std::size_t i = 0; i < a.nbytes(); ++i) a.data()[i] = std::byte((i * 31 + seed) & (type == cupp::bool_ ? 1 : 0xFF));
  return a;
}

std::vector<io::named_host_array> sample() {
  std::vector<io::named_host_array> arrays;
  arrays.emplace_back("x", filled(cupp::float64, {10, 10}, 1));
  arrays.emplace_back("mask", filled(cupp::bool_, {7}, 2));
  arrays.emplace_back("scalar", filled(cupp::complex64, {}, 3));
  arrays.emplace_back("empty", filled(cupp::int32, {0, 4}, 4));
  arrays.emplace_back("bf", filled(cupp::bfloat16, {3}, 5));
  return arrays;
}

void expect_same(const host_array& a, const host_array& b) {
  EXPECT_EQ(a.dtype(), b.dtype());
  EXPECT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.nbytes(), b.nbytes());
  if (a.nbytes() != 0) EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.nbytes()));
}

void put_u16(std::vector<std::byte>& z, std::size_t at, unsigned v) {
  z[at] = std::byte(v & 0xFF), z[at + 1] = std::byte(v >> 8);
}
void put_u32(std::vector<std::byte>& z, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) z[at + i] = std::byte((v >> (8 * i)) & 0xFF);
}
std::uint32_t get_u32(const std::vector<std::byte>& z, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(z[at + i]) << (8 * i);
  return v;
}
// Offset of the first central directory header.
std::size_t central_directory(const std::vector<std::byte>& z) { return get_u32(z, z.size() - 22 + 16); }

std::string error_of(const std::vector<std::byte>& z) {
  try {
    io::read_npz(z);
  } catch (const cupp::ValueError& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& message, const char* part) { return message.find(part) != std::string::npos; }

TEST(Npz, RoundTripStoredAndDeflated) {
  const auto arrays = sample();
  for (const auto method : {io::compression::stored, io::compression::deflated}) {
    const auto archive = io::write_npz(arrays, method);
    const auto back = io::read_npz(archive);
    ASSERT_EQ(back.size(), arrays.size());
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      EXPECT_EQ(back[i].first, arrays[i].first);
      if (arrays[i].second.dtype() == cupp::bfloat16) {
        // options.dtype applies to every member: an archive of the bfloat16 array alone.
        const auto only = io::write_npz(std::span(&arrays[i], 1), method);
        expect_same(io::read_npz(only, {.dtype = cupp::bfloat16})[0].second, arrays[i].second);
        EXPECT_THROW(io::read_npz(archive, {.dtype = cupp::bfloat16}), cupp::ValueError);
      } else {
        expect_same(back[i].second, arrays[i].second);
      }
    }
  }
  // Deflate pays off on regular data.
  std::vector<io::named_host_array> zeros;
  zeros.emplace_back("z", host_array(cupp::float64, {10000}));
  EXPECT_LT(io::write_npz(zeros, io::compression::deflated).size(), 1000u);
}

TEST(Npz, ReadsArchivesWrittenLikeNumPy) {
  for (const char* name : {"numpy_style_stored.npz", "numpy_style_deflated.npz"}) {
    const auto arrays = io::read_npz(read_file(cupp::test::source_path(std::string("tests/io_data/") + name)));
    ASSERT_EQ(arrays.size(), 4u) << name;
    EXPECT_EQ(arrays[0].first, "a");
    EXPECT_EQ(arrays[0].second.shape(), (cupp::shape_t{2, 3}));
    EXPECT_EQ(arrays[0].second.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(arrays[1].second.to_vector<float>(), (std::vector<float>{1.5f, -2.0f}));
    EXPECT_EQ(arrays[2].first, "big");
    EXPECT_EQ(arrays[2].second.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3}));
    EXPECT_EQ(arrays[3].second.size(), 1000);
  }
}

TEST(Npz, ForcedZip64RecordsAndFiles) {
  io::detail::buffer_sink sink;
  io::detail::zip_writer zip(sink, /*force_zip64=*/true);
  const auto arrays = sample();
  for (const auto& [name, array] : arrays) zip.add(name + ".npy", io::write_npy(array), io::compression::deflated);
  zip.finish();
  const auto archive = sink.take();
  const auto back = io::read_npz(archive);
  ASSERT_EQ(back.size(), arrays.size());
  expect_same(back[0].second, arrays[0].second);

  const auto dir = std::filesystem::temp_directory_path() / ("cupp_npz_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  io::save_npz(dir / "a.npz", arrays, io::compression::deflated);
  EXPECT_EQ(io::load_npz(dir / "a.npz").size(), arrays.size());
  EXPECT_THROW(io::load_npz(dir / "none.npz"), cupp::Error);
  std::filesystem::remove_all(dir);
}

TEST(Npz, MembersThatAreNotNpyAreSkipped) {
  io::detail::buffer_sink sink;
  io::detail::zip_writer zip(sink);
  const std::string text = "hello";
  zip.add("readme.txt", std::as_bytes(std::span(text)), io::compression::stored);
  zip.add("dir/", {}, io::compression::stored);
  zip.add("v.npy", io::write_npy(filled(cupp::int8, {2}, 0)), io::compression::stored);
  zip.finish();
  const auto back = io::read_npz(sink.take());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].first, "v");
}

TEST(NpzMalformed, EveryTruncationAndBitFlip) {
  std::vector<io::named_host_array> small;
  small.emplace_back("a", filled(cupp::int16, {3}, 9));
  small.emplace_back("b", filled(cupp::uint8, {2}, 1));
  for (const auto method : {io::compression::stored, io::compression::deflated}) {
    const auto archive = io::write_npz(small, method);
    for (std::size_t n = 0; n < archive.size(); ++n) {
      const std::vector<std::byte> prefix(archive.begin(), archive.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_THROW(io::read_npz(prefix), cupp::ValueError) << n;
    }
    for (std::size_t at = 0; at < archive.size(); ++at)
      for (int bit = 0; bit < 8; ++bit) {
        auto flipped = archive;
        flipped[at] ^= std::byte(1 << bit);
        try {
          io::read_npz(flipped);
        } catch (const cupp::ValueError&) {
        }
      }
  }
}

TEST(NpzMalformed, Reasons) {
  std::vector<io::named_host_array> one;
  one.emplace_back("a", filled(cupp::float32, {64}, 3));
  const auto stored = io::write_npz(one, io::compression::stored);
  const auto deflated = io::write_npz(one, io::compression::deflated);
  const std::size_t cd = central_directory(stored);
  const std::size_t cd_deflated = central_directory(deflated);

  EXPECT_PRED2(contains, error_of({}), "not a ZIP archive");
  EXPECT_PRED2(contains, error_of(std::vector<std::byte>(100, std::byte{'P'})), "no end of central directory");
  // A corrupted data byte: the CRC says so.
  auto corrupt = stored;
  corrupt[cd - 5] ^= std::byte{1};
  EXPECT_PRED2(contains, error_of(corrupt), "CRC-32");
  // Sizes that lie.
  auto lying = stored;
  put_u32(lying, cd + 24, get_u32(lying, cd + 24) + 1);
  EXPECT_PRED2(contains, error_of(lying), "sizes differ");
  auto bomb = deflated;
  put_u32(bomb, cd_deflated + 24, 0x7FFFFFFF);
  EXPECT_PRED2(contains, error_of(bomb), "zip bomb");
  auto larger = deflated;  // declares fewer bytes than the data inflates to
  put_u32(larger, cd_deflated + 24, get_u32(larger, cd_deflated + 24) - 8);
  EXPECT_PRED2(contains, error_of(larger), "more than its declared");
  auto shorter = deflated;  // declares more
  put_u32(shorter, cd_deflated + 24, get_u32(shorter, cd_deflated + 24) + 8);
  EXPECT_PRED2(contains, error_of(shorter), "inflates to");
  // Offsets.
  auto bad_offset = stored;
  put_u32(bad_offset, cd + 42, 0x10000000);
  EXPECT_PRED2(contains, error_of(bad_offset), "outside the archive");
  auto bad_directory = stored;
  put_u32(bad_directory, bad_directory.size() - 22 + 16, 0xFFFFFF00);
  EXPECT_PRED2(contains, error_of(bad_directory), "central directory");
  auto many = stored;
  put_u16(many, many.size() - 22 + 8, 5000);
  put_u16(many, many.size() - 22 + 10, 5000);
  EXPECT_PRED2(contains, error_of(many), "members");
  // Unsupported features.
  auto encrypted = stored;
  put_u16(encrypted, cd + 8, 1);
  EXPECT_PRED2(contains, error_of(encrypted), "encrypted");
  auto bzip2 = stored;
  put_u16(bzip2, cd + 10, 12);
  EXPECT_PRED2(contains, error_of(bzip2), "compression method 12");
  auto renamed = stored;
  renamed[cd + 46] = std::byte{'q'};
  EXPECT_PRED2(contains, error_of(renamed), "differ");
  // A bad .npy inside names the member.
  auto bad_npy = stored;
  bad_npy[30 + 5 + 1] = std::byte{'X'};  // the 'N' of the member's magic
  EXPECT_PRED2(contains, error_of(bad_npy), "member 'a.npy'");
}

// Two directory entries for the same bytes: overlapping members are refused.
TEST(NpzMalformed, OverlappingMembers) {
  std::vector<io::named_host_array> two;
  two.emplace_back("a", filled(cupp::uint8, {4}, 1));
  two.emplace_back("b", filled(cupp::uint8, {4}, 1));
  auto archive = io::write_npz(two, io::compression::stored);
  const std::size_t cd = central_directory(archive);
  const std::size_t second = cd + 46 + 5;  // "a.npy"
  put_u32(archive, second + 42, 0);         // b's entry points at a's local header
  EXPECT_PRED2(contains, error_of(archive), "differ");  // names differ first...
  archive[second + 46] = std::byte{'a'};                 // ...same name: overlap (or duplicate)
  const std::string message = error_of(archive);
  EXPECT_TRUE(contains(message, "overlap") || contains(message, "twice")) << message;
}

}  // namespace
