// The kernel cache: sharded in-memory table of loaded programs per device, one compile per key
// (others wait on the key's slot), the disk cache underneath, and one warning when the disk
// cache cannot be written.
#include "compiler/kernel_cache.hpp"

#include <chrono>
#include <cstdio>

#include "cupp/config.hpp"
#include "cupp/cuda/stream.hpp"
#include "compiler/builtin_kernels.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::detail {

// One program on one device: built once under `mutex`, then read without it through `ready`.
struct kernel_cache::slot {
  std::mutex mutex;
  std::unique_ptr<kernel_module> module;
  std::atomic<const kernel_module*> ready{nullptr};
  std::atomic<bool> absent{false};  // get_if_builtin found it not built in
};

kernel_cache::settings kernel_cache::settings::from_config(const config::settings& c) {
  settings s;
  s.dir = c.cache_dir;
  s.use_disk = !c.cache_in_memory;
  s.save_source = c.cache_save_cuda_source;
  s.max_bytes = c.cache_max_bytes;
  s.ptx = c.compile_with_ptx;
  s.debug = c.cuda_compile_with_debug;
  s.dump_source_on_error = c.dump_cuda_source_on_error;
  s.log_compiles = c.log_compiles;
  s.use_builtin = c.builtin_kernels;
  return s;
}

kernel_cache::kernel_cache(settings s)
    : settings_(std::move(s)),
      disk_(disk_cache::settings{settings_.dir, settings_.save_source, settings_.max_bytes}),
      disk_writable_(settings_.use_disk) {
  if (!settings_.arch_of) settings_.arch_of = [](int device) { return nvrtc_arch_for(cuda::Device(device).compute_capability()); };
  if (!settings_.load) settings_.load = load_module;
  if (!settings_.warn) {
    settings_.warn = [](std::string_view message) {
      std::fprintf(stderr, "%.*s\n", static_cast<int>(message.size()), message.data());
      std::fflush(stderr);
    };
  }
}

kernel_cache::~kernel_cache() = default;

std::size_t kernel_cache::key_hash::operator()(const lookup_key& k) const noexcept {
  std::uint64_t h = std::hash<std::string_view>{}(k.name);
  h ^= (k.variant + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
  h ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.device)) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
  return static_cast<std::size_t>(h);
}

const kernel_module& kernel_cache::get(int device, kernel_key key, const source_fn& make_source) {
  slot& s = slot_for(device, key);
  if (const kernel_module* m = s.ready.load(std::memory_order_acquire)) return *m;
  return build(s, device, make_source);
}

const kernel_module* kernel_cache::get_if_builtin(int device, kernel_key key, const source_fn& make_source) {
  if (!settings_.use_builtin) return nullptr;
  slot& s = slot_for(device, key);
  if (const kernel_module* m = s.ready.load(std::memory_order_acquire)) return m;
  if (s.absent.load(std::memory_order_acquire)) return nullptr;
  const std::lock_guard lock(s.mutex);
  if (const kernel_module* m = s.ready.load(std::memory_order_acquire)) return m;
  if (s.absent.load(std::memory_order_relaxed)) return nullptr;
  if (load_builtin(s, make_source(), flags_for(device), device)) return s.module.get();
  s.absent.store(true, std::memory_order_release);
  return nullptr;
}

kernel_cache::slot& kernel_cache::slot_for(int device, kernel_key key) {
  const lookup_key lookup{device, key.name, key.variant};
  const std::size_t h = key_hash{}(lookup);
  shard& sh = shards_[(h >> 32 ^ h) % shard_count];
  {
    std::shared_lock lock(sh.mutex);
    if (auto it = sh.map.find(lookup); it != sh.map.end()) return *it->second;
  }
  std::unique_lock lock(sh.mutex);
  auto it = sh.map.find(lookup);
  if (it == sh.map.end())
    it = sh.map.emplace(stored_key{device, std::string(key.name), key.variant}, std::make_unique<slot>()).first;
  return *it->second;
}

compile_flags kernel_cache::flags_for(int device) const {
  compile_flags flags;
  flags.arch = settings_.arch_of(device);
  flags.ptx = settings_.ptx;
  flags.debug = settings_.debug;
  flags.dump_source_on_error = settings_.dump_source_on_error;
  return flags;
}

bool kernel_cache::load_builtin(slot& s, const program_source& program, const compile_flags& flags, int device) {
  if (!settings_.use_builtin || !builtin_eligible(program, flags)) return false;
  const auto start = std::chrono::steady_clock::now();
  const digest256 key = builtin_key(program, flags.arch);
  const builtin_table* table = settings_.table ? (settings_.table->contains(key) ? settings_.table : nullptr) : builtin_table_for(key);
  if (table == nullptr) return false;
  // The disk first: a built-in program that an earlier process used is there uninflated.
  std::optional<digest256> disk_key;
  std::optional<compiled_program> found;
  bool from_disk = false;
  if (settings_.use_disk) {
    disk_key = program_key(program, flags);
    if (std::optional<std::string> payload = disk_.load(*disk_key)) {
      found = deserialize(*payload, program.name_expressions.size());
      if (found && found->ptx) found.reset();
      from_disk = found.has_value();
    }
  }
  if (!found) {
    found = table->find(key);
    if (!found) return false;  // a damaged entry: compile instead
    if (disk_key && disk_writable()) disk_.store(*disk_key, serialize(*found), program.source);  // a failed write is harmless here
  }
  s.module = settings_.load(*found, device);
  (from_disk ? disk_hits_ : builtin_hits_).fetch_add(1, std::memory_order_relaxed);
  if (settings_.log_compiles) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char line[512];
    std::snprintf(line, sizeof line, "cupp: compile %s: %.1f ms (%s), %zu B source, %zu kernel%s, sm_%d%s%s",
                  program.name.c_str(), ms, from_disk ? "disk cache" : "built in", program.source.size(), program.name_expressions.size(),
                  program.name_expressions.size() == 1 ? "" : "s", flags.arch, program.label.empty() ? "" : ": ",
                  program.label.c_str());
    settings_.warn(line);
  }
  s.ready.store(s.module.get(), std::memory_order_release);
  return true;
}

const kernel_module& kernel_cache::build(slot& s, int device, const source_fn& make_source) {
  const std::lock_guard lock(s.mutex);
  if (const kernel_module* m = s.ready.load(std::memory_order_acquire)) return *m;  // another thread built it
  const program_source program = make_source();
  const compile_flags flags = flags_for(device);
  if (load_builtin(s, program, flags, device)) return *s.module;
  const compile_result compiled = compile_with_flags(program, flags);
  s.module = settings_.load(compiled.program, device);
  s.ready.store(s.module.get(), std::memory_order_release);
  return *s.module;
}

compile_result kernel_cache::compile(const program_source& program, int arch) {
  compile_flags flags;
  flags.arch = arch;
  flags.ptx = settings_.ptx;
  flags.debug = settings_.debug;
  flags.dump_source_on_error = settings_.dump_source_on_error;
  return compile_with_flags(program, flags);
}

std::optional<compiled_program> kernel_cache::builtin(const program_source& program, int arch) const {
  compile_flags flags;
  flags.arch = arch;
  flags.ptx = settings_.ptx;
  flags.debug = settings_.debug;
  if (!settings_.use_builtin || !builtin_eligible(program, flags)) return std::nullopt;
  const digest256 key = builtin_key(program, arch);
  const builtin_table* table = settings_.table ? settings_.table : builtin_table_for(key);
  return table ? table->find(key) : std::nullopt;
}

compile_result kernel_cache::compile_with_flags(const program_source& program, const compile_flags& flags) {
  const auto start = std::chrono::steady_clock::now();
  compile_result result = compile_program(program, flags, settings_.use_disk ? &disk_ : nullptr, disk_writable());
  if (settings_.log_compiles) {
    // "cupp: compile cupp_add: 182.4 ms (nvrtc), 5321 B source, 3 kernels, sm_90"
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char line[512];
    std::snprintf(line, sizeof line, "cupp: compile %s: %.1f ms (%s), %zu B source, %zu kernel%s, sm_%d%s%s%s",
                  program.name.c_str(), ms, result.from_disk ? "disk cache" : program.use_nvcc ? "nvcc" : "nvrtc",
                  program.source.size(), program.name_expressions.size(),
                  program.name_expressions.size() == 1 ? "" : "s", flags.arch, flags.ptx ? " (PTX)" : "",
                  program.label.empty() ? "" : ": ", program.label.c_str());
    settings_.warn(line);
  }
  count(result.from_disk, result.store_error);
  return result;
}

void kernel_cache::count(bool from_disk, const std::optional<std::string>& store_error) {
  (from_disk ? disk_hits_ : compiles_).fetch_add(1, std::memory_order_relaxed);
  if (!store_error) return;
  write_failures_.fetch_add(1, std::memory_order_relaxed);
  disk_writable_.store(false, std::memory_order_release);
  std::call_once(warned_, [&] {
    settings_.warn("cupp: warning: the kernel cache directory " + settings_.dir.string() + " cannot be written (" +
                   *store_error + "); compiled kernels are kept in memory only in this process");
  });
}

std::string kernel_cache::ltoir(const lto_piece& piece, int arch) {
  const auto start = std::chrono::steady_clock::now();
  ltoir_result result = compile_ltoir(piece, arch, settings_.use_disk ? &disk_ : nullptr, disk_writable());
  if (settings_.log_compiles) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    char line[512];
    std::snprintf(line, sizeof line, "cupp: compile %s: %.1f ms (%s), %zu B source, LTO-IR, sm_%d", piece.name.c_str(), ms,
                  result.from_disk ? "disk cache" : "nvrtc", piece.source.size(), arch);
    settings_.warn(line);
  }
  count(result.from_disk, result.store_error);
  return std::move(result.ltoir);
}

kernel_cache::counters kernel_cache::stats() const noexcept {
  counters c;
  c.disk_hits = disk_hits_.load(std::memory_order_relaxed);
  c.compiles = compiles_.load(std::memory_order_relaxed);
  c.builtin_hits = builtin_hits_.load(std::memory_order_relaxed);
  c.disk_write_failures = write_failures_.load(std::memory_order_relaxed);
  return c;
}

kernel_cache& kernel_cache::global() {
  // Never destroyed: unloading modules after CUDA's runtime has shut down at exit would fail,
  // and the driver frees them with the context anyway.
  static kernel_cache* const cache = std::make_unique<kernel_cache>(settings::from_config()).release();
  return *cache;
}

}  // namespace cupp::detail
