// The built-in kernel table: its key, the blob's writer and its reader (see builtin_kernels.hpp).
#include "compiler/builtin_kernels.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "compiler/embedded_headers.hpp"

namespace cupp::detail {

namespace {

constexpr std::string_view magic = "CUPPAOT2";

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Reads the blob; every read checks the remaining length.
struct cursor {
  std::span<const std::byte> rest;
  bool ok = true;
  std::uint32_t u32() {
    if (rest.size() < 4) return fail(), 0;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(rest[static_cast<std::size_t>(i)]) << (8 * i);
    rest = rest.subspan(4);
    return v;
  }
  std::span<const std::byte> bytes(std::size_t n) {
    if (rest.size() < n) return fail(), std::span<const std::byte>{};
    std::span<const std::byte> out = rest.first(n);
    rest = rest.subspan(n);
    return out;
  }
  void fail() {
    ok = false;
    rest = {};
  }
};

}  // namespace

digest256 builtin_key(const program_source& program, int arch) {
  sha256 h;
  h.field("cupp built-in kernel 1").field(std::to_string(arch)).field(embedded_headers_digest());
  h.field("names");
  for (const std::string& expr : program.name_expressions) h.field(expr);
  h.field(program.name).field(program.source);
  if (!program.headers_digest.empty()) h.field("module headers").field(program.headers_digest);
  return h.finish();
}

bool builtin_eligible(const program_source& program, const compile_flags& flags) noexcept {
  return !flags.ptx && !flags.debug && flags.extra_options.empty() && !program.use_nvcc && program.options.empty() &&
         (program.headers.empty() || !program.headers_digest.empty());
}

namespace {

// One index record: key, architecture, name count, then the names' and the payload's regions as
// (offset, size) pairs from the blob's start, then the raw size: 32 + 7 * 4 bytes.
constexpr std::size_t record_size = 32 + 7 * 4;
constexpr std::size_t header_size = 8 + 4;  // magic, count

std::uint32_t u32_at(const std::byte* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return v;
}

struct record_view {
  const std::byte* key;
  std::uint32_t arch, name_count, names_offset, names_size, payload_offset, payload_size, raw_size;
};

record_view read_record(const std::byte* r) {
  return {r, u32_at(r + 32), u32_at(r + 36), u32_at(r + 40), u32_at(r + 44), u32_at(r + 48), u32_at(r + 52), u32_at(r + 56)};
}

int compare_key(const std::byte* a, const digest256& b) { return std::memcmp(a, b.data(), b.size()); }

}  // namespace

std::string write_builtin_blob(std::span<const builtin_entry> entries) {
  // Sorted by key, one entry per key: the reader binary-searches the index in place.
  std::vector<const builtin_entry*> sorted;
  for (const builtin_entry& e : entries) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(), [](const builtin_entry* a, const builtin_entry* b) { return a->key < b->key; });
  sorted.erase(std::unique(sorted.begin(), sorted.end(), [](const builtin_entry* a, const builtin_entry* b) { return a->key == b->key; }),
               sorted.end());
  std::string index, data;
  const std::size_t data_start = header_size + sorted.size() * record_size;
  for (const builtin_entry* e : sorted) {
    std::string names;
    for (const std::string& name : e->program.lowered_names) {
      put_u32(names, static_cast<std::uint32_t>(name.size()));
      names += name;
    }
    const std::string& raw = e->program.binary;
    uLongf bound = compressBound(static_cast<uLong>(raw.size()));
    std::string deflated(bound, '\0');
    if (compress2(reinterpret_cast<Bytef*>(deflated.data()), &bound, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
      throw std::runtime_error("zlib could not compress a built-in kernel");
    deflated.resize(bound);
    if (data_start + data.size() + names.size() + deflated.size() > 0xffffffffu)
      throw std::runtime_error("the built-in kernel blob would pass 4 GiB");
    index.append(reinterpret_cast<const char*>(e->key.data()), e->key.size());
    put_u32(index, static_cast<std::uint32_t>(e->arch));
    put_u32(index, static_cast<std::uint32_t>(e->program.lowered_names.size()));
    put_u32(index, static_cast<std::uint32_t>(data_start + data.size()));
    put_u32(index, static_cast<std::uint32_t>(names.size()));
    data += names;
    put_u32(index, static_cast<std::uint32_t>(data_start + data.size()));
    put_u32(index, static_cast<std::uint32_t>(deflated.size()));
    data += deflated;
    put_u32(index, static_cast<std::uint32_t>(raw.size()));
  }
  std::string out(magic);
  put_u32(out, static_cast<std::uint32_t>(sorted.size()));
  return out + index + data;
}

// Checks only the index (a few pages of the blob): its records are sorted, and their regions
// tile the rest of the blob in order. Names and payloads are read when an entry is found.
builtin_table::builtin_table(std::span<const std::byte> blob) {
  if (blob.empty()) return;
  malformed_ = true;
  if (blob.size() < header_size || std::memcmp(blob.data(), magic.data(), magic.size()) != 0) return;
  const std::uint32_t count = u32_at(blob.data() + magic.size());
  if ((blob.size() - header_size) / record_size < count) return;
  std::size_t expected = header_size + std::size_t{count} * record_size;
  const std::byte* previous = nullptr;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::byte* r = blob.data() + header_size + std::size_t{i} * record_size;
    const record_view v = read_record(r);
    if (previous != nullptr && std::memcmp(previous, r, 32) >= 0) return;
    if (v.names_offset != expected || v.names_size < std::size_t{v.name_count} * 4) return;
    expected += v.names_size;
    if (v.payload_offset != expected) return;
    expected += v.payload_size;
    if (expected > blob.size()) return;
    previous = r;
  }
  if (expected != blob.size()) return;
  malformed_ = false;
  blob_ = blob;
  count_ = count;
}

const std::byte* builtin_table::lookup(const digest256& key) const noexcept {
  std::size_t lo = 0, hi = count_;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::byte* r = blob_.data() + header_size + mid * record_size;
    const int c = compare_key(r, key);
    if (c == 0) return r;
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return nullptr;
}

bool builtin_table::contains(const digest256& key) const noexcept { return lookup(key) != nullptr; }

std::optional<compiled_program> builtin_table::find(const digest256& key) const {
  const std::byte* r = lookup(key);
  if (r == nullptr) return std::nullopt;
  const record_view v = read_record(r);
  compiled_program out;
  cursor names{blob_.subspan(v.names_offset, v.names_size)};
  out.lowered_names.reserve(v.name_count);
  for (std::uint32_t k = 0; k < v.name_count && names.ok; ++k) {
    const std::span<const std::byte> name = names.bytes(names.u32());
    out.lowered_names.emplace_back(reinterpret_cast<const char*>(name.data()), name.size());
  }
  if (!names.ok || !names.rest.empty()) return std::nullopt;  // a damaged entry: the caller compiles instead
  out.binary.resize(v.raw_size);
  uLongf size = v.raw_size;
  if (uncompress(reinterpret_cast<Bytef*>(out.binary.data()), &size,
                 reinterpret_cast<const Bytef*>(blob_.data() + v.payload_offset), static_cast<uLong>(v.payload_size)) != Z_OK ||
      size != v.raw_size)
    return std::nullopt;
  return out;
}

std::vector<int> builtin_table::architectures() const {
  std::vector<int> archs;
  for (std::size_t i = 0; i < count_; ++i) {
    const int arch = static_cast<int>(read_record(blob_.data() + header_size + i * record_size).arch);
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) archs.push_back(arch);
  }
  std::sort(archs.begin(), archs.end());
  return archs;
}

const builtin_table& builtin_kernels() {
  static const builtin_table table(builtin_kernel_blob());
  return table;
}

namespace {

// Core's table is slot 0 (filled on first use); the modules' follow. Slots are written once,
// under the lock, before `count` covers them; readers load `count` and walk the slots.
struct table_registry {
  std::mutex mutex;
  std::array<std::atomic<const builtin_table*>, max_builtin_tables> slots{};
  std::atomic<std::size_t> count{0};
  table_registry() {
    slots[0].store(&builtin_kernels(), std::memory_order_relaxed);
    count.store(1, std::memory_order_release);
  }
};

table_registry& registry() {
  static table_registry r;
  return r;
}

}  // namespace

void register_builtin_table(const builtin_table& table) noexcept {
  table_registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const std::size_t n = r.count.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < n; ++i)
    if (r.slots[i].load(std::memory_order_relaxed) == &table) return;
  if (n == r.slots.size()) return;  // full: that module's programs compile at run time
  r.slots[n].store(&table, std::memory_order_relaxed);
  r.count.store(n + 1, std::memory_order_release);
}

const builtin_table* builtin_table_for(const digest256& key) noexcept {
  table_registry& r = registry();
  const std::size_t n = r.count.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < n; ++i) {
    const builtin_table* t = r.slots[i].load(std::memory_order_relaxed);
    if (t->contains(key)) return t;
  }
  return nullptr;
}

std::vector<const builtin_table*> builtin_tables() {
  table_registry& r = registry();
  const std::size_t n = r.count.load(std::memory_order_acquire);
  std::vector<const builtin_table*> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(r.slots[i].load(std::memory_order_relaxed));
  return out;
}

}  // namespace cupp::detail
