// `cupp cache [info|clear|warm [OP...]]`: the on-disk kernel cache. info shows the directory,
// its entry count and size; clear removes cupp's files from it; warm compiles every built-in
// op's element-wise kernels (both index widths; all ops, or the ones named) for the present
// GPU's architecture (sm_90 without a GPU) in parallel threads, so a deployment pays compile
// time once. See docs/kernel-cache.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "compiler/kernel_cache.hpp"
#include "cupp/config.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/ops.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::tool {

namespace {

constexpr std::string_view kUsage =
    "usage: cupp cache [info]          directory, entry count and size of the kernel cache\n"
    "       cupp cache clear           remove every cached kernel\n"
    "       cupp cache warm [OP...]    compile the kernels of every op (or of the ops named)\n"
    "                                  for the present GPU (sm_90 without one) into the cache\n";

std::string bytes_text(std::uint64_t bytes) {
  char buf[64];
  if (bytes < 1024)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < (1u << 20))
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / 1048576.0);
  return buf;
}

int info(const detail::kernel_cache& cache) {
  const config::settings& s = config::get();
  std::cout << "directory:   " << cache.disk().dir().string() << '\n';
  if (s.cache_in_memory) std::cout << "             (not used: CUPP_CACHE_IN_MEMORY=1 keeps kernels in memory only)\n";
  const detail::disk_cache::summary sum = cache.disk().scan();
  std::cout << "entries:     " << sum.entries << " (" << bytes_text(sum.entry_bytes) << ")\n";
  if (sum.sources) std::cout << "sources:     " << sum.sources << " (" << bytes_text(sum.source_bytes) << ")\n";
  std::cout << "total size:  " << bytes_text(sum.entry_bytes + sum.source_bytes) << '\n';
  std::cout << "size cap:    " << (s.cache_max_bytes ? bytes_text(s.cache_max_bytes) : std::string("none")) << '\n';
  if (sum.temporaries) std::cout << "temporaries: " << sum.temporaries << " (writes in progress or interrupted)\n";
  return 0;
}

int clear(const detail::kernel_cache& cache) {
  const std::size_t removed = cache.disk().clear();
  std::cout << "removed " << removed << " file" << (removed == 1 ? "" : "s") << " from " << cache.disk().dir().string()
            << '\n';
  return 0;
}

// The architecture to warm for: the current GPU's, or sm_90 without one.
int warm_arch() {
  if (cuda::is_available()) {
    const int cc = cuda::Device().compute_capability();
    const int arch = detail::nvrtc_arch_for(cc);
    std::cout << "GPU " << cuda::current_device() << " has compute capability " << cc / 10 << '.' << cc % 10
              << ": compiling for sm_" << arch << '\n';
    return arch;
  }
  std::cout << "no GPU found: compiling for sm_90\n";
  return 90;
}

int warm(detail::kernel_cache& cache, std::span<const std::string_view> names) {
  if (config::get().cache_in_memory) {
    std::cerr << "cupp cache warm: CUPP_CACHE_IN_MEMORY=1 turns the disk cache off; nothing to warm\n";
    return 1;
  }
  std::vector<const op_spec*> ops;
  if (names.empty()) {
    for (const op_spec& op : builtin_ops()) ops.push_back(&op);
  } else {
    for (const std::string_view name : names) {
      const op_spec* op = find_op(name);
      if (op == nullptr) {
        std::cerr << "cupp cache warm: no op named '" << name << "' (run `cupp ops` for the list)\n";
        return 1;
      }
      if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
    }
  }
  const int arch = warm_arch();
  struct job {
    const op_spec* op;
    detail::index_width width;
  };
  std::vector<job> jobs;
  for (const op_spec* op : ops)
    for (const auto width : {detail::index_width::i32, detail::index_width::i64}) jobs.push_back({op, width});

  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                          static_cast<unsigned>(jobs.size())));
  std::cout << "warming " << jobs.size() << " programs (" << ops.size() << " ops x 2 index widths) in " << threads
            << " thread" << (threads == 1 ? "" : "s") << " into " << cache.disk().dir().string() << '\n'
            << std::flush;
  std::atomic<std::size_t> next{0}, compiled{0}, cached{0}, built_in{0}, failed{0};
  std::mutex print;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < jobs.size(); i = next++) {
        const job& j = jobs[i];
        const char* width = j.width == detail::index_width::i32 ? "32-bit" : "64-bit";
        try {
          const detail::composed_program p = detail::compose_elementwise(*j.op, j.width);
          const detail::program_source program{p.name, p.source, p.kernels, {}};
          if (cache.builtin(program, arch)) {  // in the library: nothing to compile or store
            ++built_in;
            continue;
          }
          const detail::compile_result r = cache.compile(program, arch);
          ++(r.from_disk ? cached : compiled);
        } catch (const std::exception& e) {
          ++failed;
          const std::lock_guard lock(print);
          std::cerr << "cupp cache warm: " << j.op->name << " (" << width << " indices): " << e.what() << '\n';
        }
      }
    });
  }
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("done in %.1f s: %zu compiled, %zu already cached, %zu built into the library, %zu failed\n", seconds,
              compiled.load(), cached.load(), built_in.load(), failed.load());
  if (!cache.disk_writable()) {
    std::cerr << "cupp cache warm: the cache directory could not be written\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int cache(std::span<const std::string_view> args) {
  detail::kernel_cache& cache = detail::kernel_cache::global();
  const std::string_view sub = args.empty() ? "info" : args.front();
  const auto rest = args.empty() ? args : args.subspan(1);
  if (sub == "info" && rest.empty()) return info(cache);
  if (sub == "clear" && rest.empty()) return clear(cache);
  if (sub == "warm") return warm(cache, rest);
  if (sub == "-h" || sub == "--help") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << kUsage;
  return 2;
}

}  // namespace cupp::tool
