// Internal: the hashes of the kernel cache. SHA-256 (FIPS 180-4, written here) names a disk
// entry from everything that determines the compiled binary; checksum64 is a fast 64-bit
// checksum that detects corrupt or truncated payloads (not an adversarial hash).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cupp::detail {

using digest256 = std::array<std::uint8_t, 32>;

class sha256 {
 public:
  sha256() noexcept;
  // Appends raw bytes.
  sha256& update(std::string_view bytes) noexcept;
  // Appends a field as (8-byte length, bytes), so that consecutive fields never run together.
  sha256& field(std::string_view bytes) noexcept;
  // The digest; the object must not be updated afterwards.
  digest256 finish() noexcept;

 private:
  void compress(const std::uint8_t* block) noexcept;

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// Lower-case hexadecimal text of bytes.
std::string to_hex(std::span<const std::uint8_t> bytes);

// A fast checksum of bytes (reads 32 bytes per step).
std::uint64_t checksum64(std::string_view bytes) noexcept;

}  // namespace cupp::detail
