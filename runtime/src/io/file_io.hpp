// Internal: whole-file and streaming file access for the .npy/.npz functions, with failures
// (missing file, unreadable, disk full) reported as cupp::Error naming the path and the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

namespace cupp::io::detail {

// Where bytes go: a growing buffer or a file.
class byte_sink {
 public:
  virtual ~byte_sink() = default;
  virtual void write(std::span<const std::byte> bytes) = 0;
  virtual std::uint64_t position() const = 0;
};

class buffer_sink final : public byte_sink {
 public:
  void write(std::span<const std::byte> bytes) override { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }
  std::uint64_t position() const override { return bytes_.size(); }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

struct file_closer {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using file_handle = std::unique_ptr<std::FILE, file_closer>;

// A file opened for writing (truncated). close() flushes and reports errors; the destructor
// closes silently.
class file_sink final : public byte_sink {
 public:
  explicit file_sink(const std::filesystem::path& path);
  void write(std::span<const std::byte> bytes) override;
  std::uint64_t position() const override { return written_; }
  void close();

 private:
  std::filesystem::path path_;
  file_handle file_;
  std::uint64_t written_ = 0;
};

// A file opened for reading, with its size.
class file_source {
 public:
  explicit file_source(const std::filesystem::path& path);
  std::uint64_t size() const noexcept { return size_; }
  // Reads exactly out.size() bytes at `offset` (ValueError when the file is shorter).
  void read_at(std::uint64_t offset, std::span<std::byte> out);
  std::vector<std::byte> read_all();

 private:
  std::filesystem::path path_;
  file_handle file_;
  std::uint64_t size_ = 0;
};

}  // namespace cupp::io::detail
