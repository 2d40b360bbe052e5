// The built-in kernel table: its key, the blob's writer and its reader (see builtin_kernels.hpp).
#include "compiler/builtin_kernels.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "compiler/embedded_headers.hpp"

namespace cupp::detail {

namespace {

constexpr std::string_view magic = "CUPPAOT1";

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
  return h.finish();
}

bool builtin_eligible(const program_source& program, const compile_flags& flags) noexcept {
  return !flags.ptx && !flags.debug && flags.extra_options.empty() && !program.use_nvcc && program.options.empty() &&
         program.headers.empty();
}

std::string write_builtin_blob(std::span<const builtin_entry> entries) {
  std::string out(magic);
  put_u32(out, static_cast<std::uint32_t>(entries.size()));
  for (const builtin_entry& e : entries) {
    out.append(reinterpret_cast<const char*>(e.key.data()), e.key.size());
    put_u32(out, static_cast<std::uint32_t>(e.arch));
    put_u32(out, static_cast<std::uint32_t>(e.program.lowered_names.size()));
    for (const std::string& name : e.program.lowered_names) {
      put_u32(out, static_cast<std::uint32_t>(name.size()));
      out += name;
    }
    const std::string& raw = e.program.binary;
    uLongf bound = compressBound(static_cast<uLong>(raw.size()));
    std::string deflated(bound, '\0');
    if (compress2(reinterpret_cast<Bytef*>(deflated.data()), &bound, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
      throw std::runtime_error("zlib could not compress a built-in kernel");
    deflated.resize(bound);
    put_u32(out, static_cast<std::uint32_t>(raw.size()));
    put_u32(out, static_cast<std::uint32_t>(deflated.size()));
    out += deflated;
  }
  return out;
}

builtin_table::builtin_table(std::span<const std::byte> blob) {
  if (blob.empty()) return;
  cursor in{blob};
  const std::span<const std::byte> head = in.bytes(magic.size());
  if (!in.ok || std::memcmp(head.data(), magic.data(), magic.size()) != 0) {
    malformed_ = true;
    return;
  }
  const std::uint32_t count = in.u32();
  for (std::uint32_t i = 0; i < count && in.ok; ++i) {
    entry e;
    const std::span<const std::byte> key = in.bytes(e.key.size());
    if (!in.ok) break;
    std::memcpy(e.key.data(), key.data(), e.key.size());
    e.arch = static_cast<int>(in.u32());
    const std::uint32_t names = in.u32();
    for (std::uint32_t k = 0; k < names && in.ok; ++k) {
      const std::span<const std::byte> name = in.bytes(in.u32());
      e.lowered_names.emplace_back(reinterpret_cast<const char*>(name.data()), name.size());
    }
    e.raw_size = in.u32();
    e.deflated = in.bytes(in.u32());
    if (in.ok) entries_.push_back(std::move(e));
  }
  if (!in.ok || !in.rest.empty()) {
    malformed_ = true;
    entries_.clear();
    return;
  }
  std::sort(entries_.begin(), entries_.end(), [](const entry& a, const entry& b) { return a.key < b.key; });
}

const builtin_table::entry* builtin_table::lookup(const digest256& key) const noexcept {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const entry& e, const digest256& k) { return e.key < k; });
  return it == entries_.end() || it->key != key ? nullptr : &*it;
}

bool builtin_table::contains(const digest256& key) const noexcept { return lookup(key) != nullptr; }

std::optional<compiled_program> builtin_table::find(const digest256& key) const {
  const entry* it = lookup(key);
  if (it == nullptr) return std::nullopt;
  compiled_program out;
  out.binary.resize(it->raw_size);
  uLongf size = it->raw_size;
  if (uncompress(reinterpret_cast<Bytef*>(out.binary.data()), &size, reinterpret_cast<const Bytef*>(it->deflated.data()),
                 static_cast<uLong>(it->deflated.size())) != Z_OK ||
      size != it->raw_size)
    return std::nullopt;  // a damaged entry: the caller compiles instead
  out.lowered_names = it->lowered_names;
  return out;
}

std::vector<int> builtin_table::architectures() const {
  std::vector<int> archs;
  for (const entry& e : entries_)
    if (std::find(archs.begin(), archs.end(), e.arch) == archs.end()) archs.push_back(e.arch);
  std::sort(archs.begin(), archs.end());
  return archs;
}

const builtin_table& builtin_kernels() {
  static const builtin_table table(builtin_kernel_blob());
  return table;
}

}  // namespace cupp::detail
