// Internal: the built-in kernels, compiled ahead of time for the architectures the library is
// built for (CUPP_NVCC_GENERATE_CODE) by runtime/aot/build_builtin_kernels.cpp and embedded in
// libcupp_core.a as one blob. A kernel cache miss looks its program up here before it reaches
// NVRTC. The lookup key covers what the binary is made from (program name, source, name
// expressions, architecture, the embedded device headers) but not the NVRTC version, so that a
// user's newer libnvrtc still finds every built-in kernel. The blob (little-endian):
//   "CUPPAOT2", u32 entry count, an index of fixed-size records sorted by key (32-byte key, u32
//   architecture, u32 kernel count, u32 offset and u32 size of the lowered names, u32 offset and
//   u32 size of the zlib bytes, u32 raw size), then each entry's names ((u32 length, bytes) each)
//   and zlib bytes, in index order. The reader searches the index in place: the first lookup of a
//   process touches a few pages of the blob, not all of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/compiler.hpp"
#include "compiler/hash.hpp"

namespace cupp::detail {

// The embedded blob: defined by the generated builtin_kernels_blob.cpp, or empty (built with
// -DCUPP_AOT_KERNELS=OFF, and in the bootstrap library the builder itself links).
std::span<const std::byte> builtin_kernel_blob() noexcept;

// The lookup key of `program` compiled for sm_`arch` (a CUBIN without debug information). A
// module's program (headers_digest set) also keys on its headers' digest.
digest256 builtin_key(const program_source& program, int arch);

// Whether a program may come from a table: no PTX, no debug, no options, cupp's own headers or a
// module's embedded headers with their digest.
bool builtin_eligible(const program_source& program, const compile_flags& flags) noexcept;

struct builtin_entry {
  digest256 key{};
  int arch = 0;
  compiled_program program;  // CUBIN and lowered names
};

// A blob holding `entries` (the builder writes it; tests read it back).
std::string write_builtin_blob(std::span<const builtin_entry> entries);

// The embedded blob's index, read in place (nothing is copied or allocated). A malformed blob reads
// as empty.
class builtin_table {
 public:
  explicit builtin_table(std::span<const std::byte> blob);
  // The program for `key`, inflated; nullopt when it is not built in, or its entry is damaged.
  std::optional<compiled_program> find(const digest256& key) const;
  // Whether `key` is built in (no inflate).
  bool contains(const digest256& key) const noexcept;
  std::size_t size() const noexcept { return count_; }
  bool malformed() const noexcept { return malformed_; }
  std::vector<int> architectures() const;

 private:
  const std::byte* lookup(const digest256& key) const noexcept;  // the key's index record

  std::span<const std::byte> blob_;  // set when the index checks out
  std::size_t count_ = 0;
  bool malformed_ = false;
};

// The table of the embedded blob (parsed on first use).
const builtin_table& builtin_kernels();

// The modules' tables. A module's table (cmake/CuppAotKernels.cmake: its own blob, embedded in
// its static library) is registered by the module's code when it first makes a program (its
// embedded_headers() does), so that the linker keeps it wherever the module is used. Registering
// takes a lock and is idempotent; at most max_builtin_tables tables (core's included).
inline constexpr std::size_t max_builtin_tables = 16;
void register_builtin_table(const builtin_table& table) noexcept;
// The registered table that holds `key` (core's first, then the modules' in registration order),
// or null. Lock-free: the kernel cache's miss path calls it; a hit never does.
const builtin_table* builtin_table_for(const digest256& key) noexcept;
// Every registered table, core's first.
std::vector<const builtin_table*> builtin_tables();

}  // namespace cupp::detail
