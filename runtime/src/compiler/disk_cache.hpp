// Internal: the on-disk kernel cache, a flat directory of files named by a SHA-256 key.
// Each entry is "<64 hex>.kernel": a header (magic, format version, the key, payload size,
// payload checksum, header checksum) followed by the payload. Entries are written to a
// temporary file in the same directory and renamed into place, so readers never see a partial
// file; a file that fails any check (corrupt, truncated, empty, foreign, another key) is a miss.
// With a size cap, the least recently used entries (oldest modification time; a hit refreshes
// it) are removed after each write. Needs no GPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/hash.hpp"

namespace cupp::detail {

class disk_cache {
 public:
  struct settings {
    std::filesystem::path dir;
    bool save_source = false;     // also write "<key>.cu" beside each new entry
    std::uint64_t max_bytes = 0;  // size cap of entries + sources; 0: none
  };

  static constexpr std::string_view entry_extension = ".kernel";
  static constexpr std::string_view source_extension = ".cu";
  static constexpr std::string_view temporary_prefix = ".tmp-";
  static constexpr std::uint32_t format_version = 1;

  explicit disk_cache(settings s) : settings_(std::move(s)) {}

  const std::filesystem::path& dir() const noexcept { return settings_.dir; }
  const settings& config() const noexcept { return settings_; }

  std::filesystem::path entry_path(const digest256& key) const;
  std::filesystem::path source_path(const digest256& key) const;

  // The payload stored under `key`, or nullopt when there is no valid entry. A hit refreshes
  // the entry's modification time (least-recently-used order). Never throws for I/O problems.
  std::optional<std::string> load(const digest256& key) const;

  // Writes the entry (and the source when save_source is set) atomically, then applies the size
  // cap. Returns an error message when the directory cannot be written (nothing is thrown).
  std::optional<std::string> store(const digest256& key, std::string_view payload, std::string_view source) const;

  struct summary {
    std::size_t entries = 0;
    std::uint64_t entry_bytes = 0;
    std::size_t sources = 0;
    std::uint64_t source_bytes = 0;
    std::size_t temporaries = 0;
    std::size_t others = 0;  // files cupp did not write
  };
  // What the directory holds (an absent directory is empty).
  summary scan() const;
  // Removes every entry, source and temporary file; returns how many files were removed.
  std::size_t clear() const;
  // Removes least recently used entries until entries + sources fit in `max_bytes`; `keep` is
  // never removed. Returns how many entries were removed.
  std::size_t evict_to(std::uint64_t max_bytes, const digest256* keep = nullptr) const;

  // The whole file for `payload` under `key`, and the check of a file's bytes: the payload when
  // the bytes are a complete, intact entry for `key`.
  static std::string encode(const digest256& key, std::string_view payload);
  static std::optional<std::string_view> decode(std::string_view file, const digest256& key);
  // Whether a file name is an entry's ("<64 hex>.kernel"); its key is written to *key.
  static bool parse_entry_name(std::string_view file_name, digest256* key = nullptr);

 private:
  settings settings_;
};

}  // namespace cupp::detail
