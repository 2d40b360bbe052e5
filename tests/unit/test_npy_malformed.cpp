// Malformed .npy files (no GPU): every truncation of valid files, bit flips in the header,
// hostile headers (absurd or overflowing shapes, nesting, unsupported dtypes, bad magic,
// versions and lengths) must throw cupp::ValueError with a reason — never crash, never read
// out of bounds, never allocate more than the file can hold. tests/io.cmake also runs these
// under AddressSanitizer.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "npy_bytes.hpp"

namespace {

using cupp::test::bytes_of;
using cupp::test::npy_file;

using cupp::host_array;
namespace io = cupp::io;

std::vector<std::byte> with_dict(std::string_view dict, std::string_view data = std::string_view("\0\0\0\0\0\0\0\0", 8)) {
  return npy_file(dict, data);
}

std::string error_of(const std::vector<std::byte>& file, const cupp::load_options& options = {}) {
  try {
    io::read_npy(file, options);
  } catch (const cupp::ValueError& e) {
    return e.what();
  }
  return "(no error)";
}

// Either a ValueError or a consistent array; anything else fails the test.
void read_or_value_error(const std::vector<std::byte>& file) {
  try {
    const host_array a = io::read_npy(file);
    EXPECT_EQ(a.nbytes(), static_cast<std::size_t>(a.size()) * a.dtype().itemsize());
  } catch (const cupp::ValueError&) {
  }
}

std::vector<std::vector<std::byte>> valid_files() {
  std::vector<std::vector<std::byte>> files;
  host_array f8(cupp::float64, {3, 2});
  for (std::size_t i = 0; i < f8.nbytes(); ++i) f8.data()[i] = std::byte(i * 7);
  files.push_back(io::write_npy(f8));
  files.push_back(io::write_npy(f8, {.fortran_order = true}));
  const std::pair<std::string, cupp::dtype> fields[] = {{"a", cupp::uint8}, {"b", cupp::complex64}};
  files.push_back(io::write_npy(host_array(cupp::dtype::structured(fields, true), {2})));
  files.push_back(npy_file("{'descr': [('x', '>i4'), ('y', '>f8')], 'fortran_order': False, 'shape': (2,), }",
                           std::string(24, '\x11')));
  files.push_back(npy_file("{'descr': '>c16', 'fortran_order': True, 'shape': (1, 1), }", std::string(16, '\x22'), 2));
  files.push_back(npy_file("{'descr': [('\xc3\xa9', '<u2')], 'fortran_order': False, 'shape': (1,), }", "ab", 3));
  return files;
}

TEST(NpyMalformed, EveryTruncation) {
  for (const auto& file : valid_files()) {
    ASSERT_NO_THROW(io::read_npy(file));
    for (std::size_t n = 0; n < file.size(); ++n) {
      const std::vector<std::byte> prefix(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_THROW(io::read_npy(prefix), cupp::ValueError) << "prefix of " << n << " bytes";
    }
  }
}

TEST(NpyMalformed, HeaderBitFlips) {
  for (const auto& file : valid_files()) {
    const std::size_t header_end = std::min<std::size_t>(file.size(), 128);
    for (std::size_t at = 0; at < header_end; ++at)
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<std::byte> flipped = file;
        flipped[at] ^= std::byte(1 << bit);
        read_or_value_error(flipped);
      }
  }
}

TEST(NpyMalformed, Reasons) {
  const auto contains = [](const std::string& message, const char* part) {
    return message.find(part) != std::string::npos;
  };
  EXPECT_PRED2(contains, error_of(bytes_of("PK\x03\x04 not npy")), "not a .npy file");
  EXPECT_PRED2(contains, error_of(bytes_of("")), "truncated");
  auto v = with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }");
  v[6] = std::byte{4};
  EXPECT_PRED2(contains, error_of(v), "version 4.0");
  v[6] = std::byte{1}, v[7] = std::byte{1};
  EXPECT_PRED2(contains, error_of(v), "version 1.1");
  // Header length past the end, or over the limit.
  auto longer = with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }");
  longer[8] = std::byte{0xff}, longer[9] = std::byte{0x20};
  EXPECT_PRED2(contains, error_of(longer, {.max_header_size = 100000}), "truncated");
  longer[9] = std::byte{0xff};
  EXPECT_PRED2(contains, error_of(longer), "max_header_size");
  // The dict.
  EXPECT_PRED2(contains, error_of(with_dict("['descr', '<f8']")), "not a dict");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'shape': (1,)}")), "keys");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'extra': 1}")), "unexpected key");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}")), "repeats");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': 'no', 'shape': (1,)}")), "fortran_order");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': [1]}")), "shape");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1.5,)}")), "malformed");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}")), "negative");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': ((1,),)}")), "integers");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,)} junk")), "unexpected text after the end");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8, 'fortran_order': False, 'shape': (1,)}")), "malformed");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}")), "too large");
  // Nesting that would exhaust a recursive parser.
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': " + std::string(3000, '[') + ", 'fortran_order': False, 'shape': (1,)}"), {.max_header_size = 100000}),
               "nested too deeply");
  // Shapes: absurd sizes are refused before any allocation.
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2000000000000000000,)}")), "too large");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000000000,)}")), "truncated");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}")), "too large");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<u1', 'fortran_order': False, 'shape': (0, 4611686018427387904, 4)}")), "too large");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,)}")), "truncated");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '|V100000000', 'fortran_order': False, 'shape': ()}")), "truncated");
  std::string dims;
  for (int i = 0; i < 65; ++i) dims += "1,";
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + ")}")), "dimensions");
  // dtypes cupp does not support.
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '|O', 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<U3', 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': [('a', '<f4', (2,))], 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': [('a', '|O')], 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': ('<f4', (2,)), 'fortran_order': False, 'shape': (1,)}")), "Unsupported dtype");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': '<q9', 'fortran_order': False, 'shape': (1,)}")), "not understood");
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': 7, 'fortran_order': False, 'shape': (1,)}")), "descr");
  // Mixed byte order in one structured dtype.
  EXPECT_PRED2(contains, error_of(with_dict("{'descr': [('a', '>i4'), ('b', '<i4')], 'fortran_order': False, 'shape': (1,)}")), "byte order");
  // A format 3.0 header that is not UTF-8.
  EXPECT_PRED2(contains, error_of(npy_file("{'descr': [('\xff', '<u2')], 'fortran_order': False, 'shape': (1,), }", "ab", 3)), "UTF-8");
}

// Random garbage after a valid preamble, and random bytes overall: ValueError or a valid array.
TEST(NpyMalformed, RandomHeaders) {
  std::uint32_t state = 12345;
  const auto next = [&] { return state = state * 1664525u + 1013904223u; };
  const std::string alphabet = "{}()[]':,\" <>|=0123456789fiubcVOTrueFalseNonedescrshapefortran_order\\x\n";
  for (int round = 0; round < 3000; ++round) {
    std::string dict;
    const int length = static_cast<int>(next() % 120);
    for (int i = 0; i < length; ++i) dict += alphabet[next() % alphabet.size()];
    read_or_value_error(npy_file(dict, std::string(next() % 40, '\x01')));
  }
}

}  // namespace
