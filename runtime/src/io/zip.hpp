// Internal: the ZIP container of .npz files, written for this project on zlib (raw deflate and
// crc32). The reader validates the whole central directory (bounds, overlaps, sizes, local
// headers) before inflating anything, caps every member at its declared size (and at deflate's
// largest possible ratio), and checks CRCs; every defect is a cupp::ValueError. The writer
// produces what Python's zipfile (used by numpy.savez) produces, with ZIP64 records when sizes,
// offsets or counts need them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/io.hpp"
#include "io/file_io.hpp"

namespace cupp::io::detail {

struct zip_read_options {
  bool verify_crc = true;  // the fuzzer turns it off to reach the members' contents
};

// Calls visit(name, data) for each member (archive order) for which want(name) is true. `data`
// is only valid during the call.
void read_zip(std::span<const std::byte> archive, const zip_read_options& options,
              const std::function<bool(std::string_view name)>& want,
              const std::function<void(std::string_view name, std::span<const std::byte> data)>& visit);

// Streams an archive into a sink: add() writes one member's local header and data, finish()
// writes the central directory. force_zip64 writes ZIP64 records even when not needed (tests).
class zip_writer {
 public:
  explicit zip_writer(byte_sink& sink, bool force_zip64 = false);
  void add(std::string_view name, std::span<const std::byte> data, compression method);
  void finish();

 private:
  struct entry {
    std::string name;
    std::uint32_t crc = 0;
    std::uint64_t compressed_size = 0, size = 0, offset = 0;
    std::uint16_t method = 0, time = 0, date = 0;
  };
  byte_sink& sink_;
  bool force_zip64_;
  std::vector<entry> entries_;
  bool finished_ = false;
};

// zlib's CRC-32 over any length.
std::uint32_t crc32_of(std::span<const std::byte> data);
// Raw deflate (no zlib header), as ZIP stores it, at zlib's default level.
std::vector<std::byte> deflate_raw(std::span<const std::byte> data);

}  // namespace cupp::io::detail
