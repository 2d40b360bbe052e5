// The on-disk kernel cache: entry encoding and checks, atomic writes (temporary file + rename),
// reads that treat every damaged file as a miss, and least-recently-used eviction by mtime.
#include "compiler/disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>
#include <vector>

namespace cupp::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'C', 'U', 'P', 'P', 'K', 'R', 'N', 'L'};
// magic, format version, header size, key, payload size, payload checksum, header checksum
constexpr std::size_t kHeaderSize = 8 + 4 + 4 + 32 + 8 + 8 + 8;

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <class T>
T get(std::string_view in, std::size_t offset) {
  T value;
  std::memcpy(&value, in.data() + offset, sizeof(T));
  return value;
}

// Owns a POSIX file descriptor.
class file_descriptor {
 public:
  explicit file_descriptor(int fd) noexcept : fd_(fd) {}
  ~file_descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  // Closes now and reports whether close succeeded (it can report a failed write).
  bool close() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd < 0 || ::close(fd) == 0;
  }

 private:
  int fd_;
};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::optional<std::string> read_all(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::string out(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (n == 0) break;  // shorter than fstat said: the length check below rejects it
    done += static_cast<std::size_t>(n);
  }
  out.resize(done);
  return out;
}

// A name no other thread or process uses: pid, a per-process random tag and a counter.
std::string temporary_name(std::string_view stem) {
  static const std::uint32_t process_tag = std::random_device{}();
  static std::atomic<std::uint64_t> counter{0};
  return std::string(disk_cache::temporary_prefix) + std::string(stem) + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(process_tag) + "-" + std::to_string(counter.fetch_add(1));
}

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// Writes `bytes` to `target` through a temporary file in the same directory and a rename.
std::optional<std::string> write_atomically(const fs::path& dir, const std::string& target_name,
                                            std::string_view bytes) {
  const fs::path temp = dir / temporary_name(target_name);
  file_descriptor fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (!fd.valid()) return "cannot create " + temp.string() + ": " + errno_text(errno);
  const bool written = write_all(fd.get(), bytes);
  const int write_errno = errno;
  if (!fd.close() || !written) {
    const int err = written ? errno : write_errno;
    ::unlink(temp.c_str());
    return "cannot write " + temp.string() + ": " + errno_text(err);
  }
  if (::rename(temp.c_str(), (dir / target_name).c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return "cannot rename " + temp.string() + ": " + errno_text(err);
  }
  return std::nullopt;
}

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

}  // namespace

std::filesystem::path disk_cache::entry_path(const digest256& key) const {
  return settings_.dir / (to_hex(key) + std::string(entry_extension));
}

std::filesystem::path disk_cache::source_path(const digest256& key) const {
  return settings_.dir / (to_hex(key) + std::string(source_extension));
}

std::string disk_cache::encode(const digest256& key, std::string_view payload) {
  std::string out;
  out.reserve(kHeaderSize + payload.size());
  out.append(kMagic, sizeof kMagic);
  put<std::uint32_t>(out, format_version);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(kHeaderSize));
  out.append(reinterpret_cast<const char*>(key.data()), key.size());
  put<std::uint64_t>(out, payload.size());
  put<std::uint64_t>(out, checksum64(payload));
  put<std::uint64_t>(out, checksum64(out));
  out.append(payload);
  return out;
}

std::optional<std::string_view> disk_cache::decode(std::string_view file, const digest256& key) {
  if (file.size() < kHeaderSize) return std::nullopt;
  if (std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  if (get<std::uint32_t>(file, 8) != format_version || get<std::uint32_t>(file, 12) != kHeaderSize)
    return std::nullopt;
  if (get<std::uint64_t>(file, kHeaderSize - 8) != checksum64(file.substr(0, kHeaderSize - 8))) return std::nullopt;
  if (std::memcmp(file.data() + 16, key.data(), key.size()) != 0) return std::nullopt;
  const std::string_view payload = file.substr(kHeaderSize);
  if (get<std::uint64_t>(file, 48) != payload.size()) return std::nullopt;
  if (get<std::uint64_t>(file, 56) != checksum64(payload)) return std::nullopt;
  return payload;
}

bool disk_cache::parse_entry_name(std::string_view name, digest256* key) {
  if (name.size() != 64 + entry_extension.size() || !name.ends_with(entry_extension)) return false;
  for (std::size_t i = 0; i < 64; ++i)
    if (!is_hex_digit(name[i])) return false;
  if (key) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    for (std::size_t i = 0; i < 32; ++i)
      (*key)[i] = static_cast<std::uint8_t>(nibble(name[2 * i]) << 4 | nibble(name[2 * i + 1]));
  }
  return true;
}

std::optional<std::string> disk_cache::load(const digest256& key) const {
  const fs::path path = entry_path(key);
  file_descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  std::optional<std::string> file = read_all(fd.get());
  if (!file) return std::nullopt;
  const std::optional<std::string_view> payload = decode(*file, key);
  if (!payload) return std::nullopt;
  ::futimens(fd.get(), nullptr);  // recently used; failure (a read-only cache) is harmless
  file->erase(0, kHeaderSize);
  return file;
}

std::optional<std::string> disk_cache::store(const digest256& key, std::string_view payload,
                                             std::string_view source) const {
  std::error_code ec;
  fs::create_directories(settings_.dir, ec);
  if (ec) return "cannot create directory " + settings_.dir.string() + ": " + ec.message();
  const std::string hex = to_hex(key);
  if (settings_.save_source) {
    // The source first: an entry is never without the source it was saved with.
    if (auto err = write_atomically(settings_.dir, hex + std::string(source_extension), source)) return err;
  }
  if (auto err = write_atomically(settings_.dir, hex + std::string(entry_extension), encode(key, payload)))
    return err;
  if (settings_.max_bytes > 0) evict_to(settings_.max_bytes, &key);
  return std::nullopt;
}

disk_cache::summary disk_cache::scan() const {
  summary out;
  std::error_code ec;
  for (fs::directory_iterator it(settings_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code size_ec;
    const std::uintmax_t size = it->is_regular_file(size_ec) ? it->file_size(size_ec) : 0;
    if (parse_entry_name(name)) {
      ++out.entries;
      out.entry_bytes += size_ec ? 0 : size;
    } else if (name.starts_with(temporary_prefix)) {
      ++out.temporaries;
    } else if (name.size() == 64 + source_extension.size() && name.ends_with(source_extension)) {
      ++out.sources;
      out.source_bytes += size_ec ? 0 : size;
    } else {
      ++out.others;
    }
  }
  return out;
}

std::size_t disk_cache::clear() const {
  std::size_t removed = 0;
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (fs::directory_iterator it(settings_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (parse_entry_name(name) || name.starts_with(temporary_prefix) ||
        (name.size() == 64 + source_extension.size() && name.ends_with(source_extension)))
      doomed.push_back(it->path());
  }
  for (const fs::path& p : doomed) {
    std::error_code remove_ec;
    if (fs::remove(p, remove_ec)) ++removed;
  }
  return removed;
}

std::size_t disk_cache::evict_to(std::uint64_t max_bytes, const digest256* keep) const {
  struct item {
    digest256 key;
    std::uint64_t bytes;
    struct timespec used;
    bool kept;
  };
  std::vector<item> items;
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(settings_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    digest256 key;
    if (!parse_entry_name(it->path().filename().string(), &key)) continue;
    struct stat st {};
    if (::stat(it->path().c_str(), &st) != 0) continue;
    std::uint64_t bytes = static_cast<std::uint64_t>(st.st_size);
    struct stat source_st {};
    if (::stat(source_path(key).c_str(), &source_st) == 0) bytes += static_cast<std::uint64_t>(source_st.st_size);
    items.push_back({key, bytes, st.st_mtim, keep != nullptr && key == *keep});
    total += bytes;
  }
  if (total <= max_bytes) return 0;
  // Oldest first; the entry just written is never removed.
  std::sort(items.begin(), items.end(), [](const item& a, const item& b) {
    if (a.used.tv_sec != b.used.tv_sec) return a.used.tv_sec < b.used.tv_sec;
    return a.used.tv_nsec < b.used.tv_nsec;
  });
  std::size_t removed = 0;
  for (const item& i : items) {
    if (total <= max_bytes) break;
    if (i.kept) continue;
    ::unlink(entry_path(i.key).c_str());  // another process may have removed it already
    ::unlink(source_path(i.key).c_str());
    total -= i.bytes;
    ++removed;
  }
  return removed;
}

}  // namespace cupp::detail
