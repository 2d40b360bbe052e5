// File access for .npy/.npz: RAII FILE handles, exact reads at offsets, checked writes.
#include "io/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include "cupp/errors.hpp"

namespace cupp::io::detail {

namespace {
[[noreturn]] void io_failure(const char* what, const std::filesystem::path& path, int error) {
  throw Error(std::string(what) + " '" + path.string() + "': " + (error != 0 ? std::strerror(error) : "I/O error"));
}
}  // namespace

file_sink::file_sink(const std::filesystem::path& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
  if (!file_) io_failure("cannot open for writing", path_, errno);
}

void file_sink::write(std::span<const std::byte> bytes) {
  if (!file_) io_failure("cannot write to closed file", path_, 0);
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size())
    io_failure("cannot write", path_, errno);
  written_ += bytes.size();
}

void file_sink::close() {
  if (!file_) return;
  std::FILE* f = file_.release();
  const bool flushed = std::fflush(f) == 0;
  const int error = errno;
  if (std::fclose(f) != 0 || !flushed) io_failure("cannot write", path_, flushed ? errno : error);
}

file_source::file_source(const std::filesystem::path& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
  if (!file_) io_failure("cannot open", path_, errno);
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) io_failure("cannot read", path_, EISDIR);
  if (fseeko(file_.get(), 0, SEEK_END) != 0) io_failure("cannot seek in", path_, errno);
  const off_t end = ftello(file_.get());
  if (end < 0) io_failure("cannot seek in", path_, errno);
  size_ = static_cast<std::uint64_t>(end);
}

void file_source::read_at(std::uint64_t offset, std::span<std::byte> out) {
  if (offset > size_ || out.size() > size_ - offset)
    throw ValueError("cannot read '" + path_.string() + "': the file is truncated");
  if (out.empty()) return;
  if (fseeko(file_.get(), static_cast<off_t>(offset), SEEK_SET) != 0) io_failure("cannot seek in", path_, errno);
  if (std::fread(out.data(), 1, out.size(), file_.get()) != out.size()) {
    if (std::ferror(file_.get())) io_failure("cannot read", path_, errno);
    throw ValueError("cannot read '" + path_.string() + "': the file is truncated");
  }
}

std::vector<std::byte> file_source::read_all() {
  std::vector<std::byte> bytes(static_cast<std::size_t>(size_));
  read_at(0, bytes);
  return bytes;
}

}  // namespace cupp::io::detail
