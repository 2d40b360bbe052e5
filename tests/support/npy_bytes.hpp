// Test support for the .npy/.npz tests: bytes from text and from files, and a .npy file laid out
// exactly as numpy.lib.format writes it (magic, version, little-endian header length, the dict,
// spaces up to a multiple of 64 bytes, a newline, then the data).
#pragma once

#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace cupp::test {

inline std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

inline std::vector<std::byte> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return bytes_of(chars);
}

inline std::vector<std::byte> npy_file(std::string_view dict, std::string_view data, int major = 1) {
  const std::size_t length_field = major == 1 ? 2 : 4;
  const std::size_t pad = 64 - (6 + 2 + length_field + dict.size() + 1) % 64;
  const std::size_t header_length = dict.size() + pad + 1;
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < length_field; ++i) out += static_cast<char>((header_length >> (8 * i)) & 0xFF);
  out += dict;
  out.append(pad, ' ');
  out += '\n';
  out += data;
  return bytes_of(out);
}

}  // namespace cupp::test
