// Internal: the kernel cache. A program's loaded kernels are found per device by a cheap key
// (an op's name and a variant number for layout class and index width, or a user kernel's
// identity), never by hashing source: a hit takes a shared lock on one of 16 shards and a hash
// of the key (well under 1 µs). On a miss the source is built, compiled through the disk cache
// (compiler.hpp) and loaded; threads missing on the same key wait for one compile. A disk cache
// that cannot be written is dropped with one warning, and the cache goes on in memory. Before a
// compile, a miss looks in the table of kernels built into the library ahead of time
// (compiler/builtin_kernels.hpp), which needs neither NVRTC nor the disk.
// Loading and the architecture lookup are injectable, so tests run everything but loading
// without a GPU.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "compiler/builtin_kernels.hpp"
#include "compiler/compiler.hpp"
#include "cupp/config.hpp"
#include "compiler/disk_cache.hpp"
#include "compiler/module.hpp"

namespace cupp::detail {

// What identifies a program in memory: `name` is stable text chosen by the caller (an op name,
// a user kernel's identity string that cannot collide with an op name), `variant` separates
// programs of one name (layout class, index width, ...). A key must always stand for the same
// source and name expressions. The device is passed separately.
struct kernel_key {
  std::string_view name;
  std::uint64_t variant = 0;
};

class kernel_cache {
 public:
  using source_fn = std::function<program_source()>;
  using loader_fn = std::function<std::unique_ptr<kernel_module>(const compiled_program&, int device)>;
  using arch_fn = std::function<int(int device)>;
  using warn_fn = std::function<void(std::string_view message)>;

  struct settings {
    std::filesystem::path dir;     // CUPP_CACHE_DIR
    bool use_disk = true;          // !CUPP_CACHE_IN_MEMORY
    bool save_source = false;      // CUPP_CACHE_SAVE_CUDA_SOURCE
    std::uint64_t max_bytes = 0;   // CUPP_CACHE_MAX_BYTES; 0: no cap
    bool ptx = false;              // CUPP_COMPILE_WITH_PTX
    bool debug = false;            // CUPP_CUDA_COMPILE_WITH_DEBUG
    bool dump_source_on_error = false;  // CUPP_DUMP_CUDA_SOURCE_ON_ERROR
    bool log_compiles = false;     // CUPP_LOG_COMPILES: a line through `warn` per compile or disk read
    bool use_builtin = true;       // CUPP_BUILTIN_KERNELS
    const builtin_table* table = nullptr;  // default: every registered table (builtin_table_for)
    arch_fn arch_of;               // default: nvrtc_arch_for(the device's compute capability)
    loader_fn load;                // default: load_module
    warn_fn warn;                  // default: one line on stderr

    // From cupp's configuration (the process's by default), with the defaults above.
    static settings from_config(const config::settings& c = config::get());
  };

  explicit kernel_cache(settings s);
  ~kernel_cache();
  kernel_cache(const kernel_cache&) = delete;
  kernel_cache& operator=(const kernel_cache&) = delete;

  // The program `key` on `device`, loaded; on a miss `make_source` is called (once) and the
  // program compiled or read from disk. Throws CompileError or CudaError; a failure is not
  // cached (the next call tries again).
  const kernel_module& get(int device, kernel_key key, const source_fn& make_source);
  // The program `key` on `device` when it is built into the library (or already loaded), else
  // null without compiling; a key found absent stays absent. For programs that are worth loading
  // only when built in (the scalar programs: engine/kernel_composer.hpp).
  const kernel_module* get_if_builtin(int device, kernel_key key, const source_fn& make_source);

  // The compiled binary a miss of `program` on a device of architecture `arch` would load
  // (through the disk cache when it is on). For `cupp cache warm` and tests.
  compile_result compile(const program_source& program, int arch);
  // LTO-IR of `piece` for `arch` through the disk cache when it is on (compile_ltoir), counted as
  // a compile or a disk hit and logged as the programs are (CUPP_LOG_COMPILES). Throws
  // CompileError. Not kept in memory here: the caller keeps what it links.
  std::string ltoir(const lto_piece& piece, int arch);
  // The built-in binary of `program` for `arch`, when the library has one (and use_builtin).
  std::optional<compiled_program> builtin(const program_source& program, int arch) const;

  struct counters {
    std::uint64_t disk_hits = 0;
    std::uint64_t compiles = 0;
    std::uint64_t builtin_hits = 0;  // misses served by the built-in table
    std::uint64_t disk_write_failures = 0;
  };
  counters stats() const noexcept;
  // Whether the disk cache is read (false with CUPP_CACHE_IN_MEMORY=1), and written (also false
  // after a failed write: a read-only cache that was warmed elsewhere is still read).
  bool disk_enabled() const noexcept { return settings_.use_disk; }
  bool disk_writable() const noexcept { return disk_writable_.load(std::memory_order_acquire); }
  const settings& config() const noexcept { return settings_; }
  const disk_cache& disk() const noexcept { return disk_; }

  // The process's cache, configured from the environment on first use. It lives until the
  // process exits (loaded modules are freed with the CUDA context, not unloaded at exit).
  static kernel_cache& global();

 private:
  struct slot;
  struct stored_key {
    int device;
    std::string name;
    std::uint64_t variant;
  };
  struct lookup_key {
    int device;
    std::string_view name;
    std::uint64_t variant;
  };
  struct key_hash {
    using is_transparent = void;
    std::size_t operator()(const lookup_key& k) const noexcept;
    std::size_t operator()(const stored_key& k) const noexcept {
      return (*this)(lookup_key{k.device, k.name, k.variant});
    }
  };
  struct key_equal {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const noexcept {
      return a.device == b.device && a.variant == b.variant && std::string_view(a.name) == std::string_view(b.name);
    }
  };
  struct shard {
    mutable std::shared_mutex mutex;
    std::unordered_map<stored_key, std::unique_ptr<slot>, key_hash, key_equal> map;
  };
  static constexpr std::size_t shard_count = 16;

  slot& slot_for(int device, kernel_key key);
  const kernel_module& build(slot& s, int device, const source_fn& make_source);
  compile_flags flags_for(int device) const;
  // Loads a built-in `program` into `s` (s.mutex held): from the disk cache when an earlier
  // process left it there (no inflate), else from the table, storing it on disk for the next
  // process. False, having done no disk work, when it is not built in.
  bool load_builtin(slot& s, const program_source& program, const compile_flags& flags, int device);
  compile_result compile_with_flags(const program_source& program, const compile_flags& flags);
  // One compile or disk read counted; a failed write turns the disk off for writing, warning once.
  void count(bool from_disk, const std::optional<std::string>& store_error);

  settings settings_;
  disk_cache disk_;
  std::atomic<bool> disk_writable_;
  std::once_flag warned_;
  std::array<shard, shard_count> shards_;
  std::atomic<std::uint64_t> disk_hits_{0}, compiles_{0}, write_failures_{0}, builtin_hits_{0};
};

}  // namespace cupp::detail
