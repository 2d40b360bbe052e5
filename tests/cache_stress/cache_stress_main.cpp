// Kernel cache concurrency test (issue 4, CI, no GPU): P processes x T threads compile the same
// K tiny kernels into one empty cache directory at once. Every compile must succeed; afterwards
// the directory must hold exactly K valid entries and no temporary or other files. In each
// process, half the threads share the process's cache (they race on its memory table) and the
// others have a cache of their own (they race on the disk). Loading is replaced by a check of
// the binary, so no GPU is needed.
//   cupp_cache_stress [--processes P] [--threads T] [--kernels K] [--dir BASE]
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "compiler/compiler.hpp"
#include "compiler/disk_cache.hpp"
#include "compiler/kernel_cache.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace cupp::detail;

constexpr int kArch = 90;

program_source stress_program(int k) {
  return {"cupp_stress_" + std::to_string(k),
          "extern \"C\" __global__ void stress(float* x) { x[threadIdx.x] = x[threadIdx.x] * 2.0f + " +
              std::to_string(k) + ".0f; }\n",
          {"stress"},
          {}};
}

compile_flags stress_flags() {
  compile_flags f;
  f.arch = kArch;
  return f;
}

std::unique_ptr<kernel_cache> make_cache(const fs::path& dir) {
  kernel_cache::settings s;
  s.dir = dir;
  s.arch_of = [](int) { return kArch; };
  s.load = [](const compiled_program& p, int) {
    if (p.lowered_names.size() != 1 || p.binary.size() < 4 || p.binary.compare(0, 4, "\x7f" "ELF") != 0)
      throw std::runtime_error("compiled program is not a one-kernel CUBIN");
    return std::make_unique<kernel_module>(library{}, std::vector<cudaKernel_t>(1));
  };
  s.warn = [](std::string_view m) { throw std::runtime_error("unexpected warning: " + std::string(m)); };
  return std::make_unique<kernel_cache>(std::move(s));
}

int worker(const fs::path& dir, int index, int threads, int kernels) {
  const std::unique_ptr<kernel_cache> shared = make_cache(dir);
  std::atomic<int> failures{0};
  std::atomic<std::uint64_t> compiles{0}, disk_hits{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        std::unique_ptr<kernel_cache> own = t % 2 == 0 ? nullptr : make_cache(dir);
        kernel_cache& cache = own ? *own : *shared;
        const int start = (index * threads + t) % kernels;
        for (int i = 0; i < kernels; ++i) {
          const int k = (start + i) % kernels;
          cache.get(0, {"stress", static_cast<std::uint64_t>(k)}, [k] { return stress_program(k); });
        }
        if (own) {
          compiles += own->stats().compiles;
          disk_hits += own->stats().disk_hits;
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "worker %d thread %d: %s\n", index, t, e.what());
        ++failures;
      }
    });
  }
  for (auto& t : pool) t.join();
  compiles += shared->stats().compiles;
  disk_hits += shared->stats().disk_hits;
  std::printf("worker %2d: %2llu compiles, %2llu disk hits\n", index, static_cast<unsigned long long>(compiles.load()),
              static_cast<unsigned long long>(disk_hits.load()));
  return failures == 0 ? 0 : 1;
}

// Exactly `kernels` valid entries, each the expected program, and nothing else.
bool check_directory(const fs::path& dir, int kernels) {
  const disk_cache disk({dir});
  const disk_cache::summary s = disk.scan();
  bool ok = true;
  if (s.entries != static_cast<std::size_t>(kernels) || s.temporaries != 0 || s.sources != 0 || s.others != 0) {
    std::fprintf(stderr, "FAIL: directory holds %zu entries (want %d), %zu temporaries, %zu sources, %zu others\n",
                 s.entries, kernels, s.temporaries, s.sources, s.others);
    ok = false;
  }
  for (int k = 0; k < kernels; ++k) {
    const std::optional<std::string> payload = disk.load(program_key(stress_program(k), stress_flags()));
    if (!payload || !deserialize(*payload, 1)) {
      std::fprintf(stderr, "FAIL: no valid entry for kernel %d\n", k);
      ok = false;
    }
  }
  return ok;
}

int parent(const fs::path& base, int processes, int threads, int kernels) {
  std::error_code ec;
  fs::create_directories(base, ec);
  std::string pattern = (base / "run-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const fs::path dir = fs::path(pattern) / "kernel_cache";  // created by the workers, racing
  std::printf("%d processes x %d threads, %d kernels, into %s\n", processes, threads, kernels, dir.c_str());
  std::fflush(stdout);  // before the children write to the same stream

  const auto start = std::chrono::steady_clock::now();
  std::vector<pid_t> children;
  for (int i = 0; i < processes; ++i) {
    std::vector<std::string> args = {"/proc/self/exe", "--worker",    dir.string(),
                                     "--index",        std::to_string(i), "--threads",
                                     std::to_string(threads), "--kernels", std::to_string(kernels)};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (const int err = ::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ); err != 0) {
      std::fprintf(stderr, "FAIL: posix_spawn: %s\n", std::strerror(err));
      return 1;
    }
    children.push_back(pid);
  }
  int failed = 0;
  for (const pid_t pid : children) {
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("all workers done in %.2f s; %d failed\n", seconds, failed);
  const bool ok = failed == 0 && check_directory(dir, kernels);
  if (ok) {
    fs::remove_all(pattern, ec);
    std::printf("PASS: %d valid entries, no temporary files\n", kernels);
  } else {
    std::fprintf(stderr, "FAIL (directory kept: %s)\n", pattern.c_str());
  }
  return ok ? 0 : 1;
}

int usage(int code) {
  std::fputs("usage: cupp_cache_stress [--processes P] [--threads T] [--kernels K] [--dir BASE]\n"
             "Compiles the same K kernels from P processes x T threads into one empty kernel cache\n"
             "directory under BASE (default: the temporary directory) and checks the result.\n",
             code == 0 ? stdout : stderr);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  int processes = 16, threads = 4, kernels = 20, index = -1;
  fs::path base = fs::temp_directory_path() / "cupp-cache-stress", worker_dir;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a == "-h" || a == "--help") return usage(0);
      if (i + 1 >= argc) return usage(2);
      const std::string value = argv[++i];
      if (a == "--processes") processes = std::stoi(value);
      else if (a == "--threads") threads = std::stoi(value);
      else if (a == "--kernels") kernels = std::stoi(value);
      else if (a == "--dir") base = value;
      else if (a == "--worker") worker_dir = value;
      else if (a == "--index") index = std::stoi(value);
      else return usage(2);
    }
    if (processes < 1 || threads < 1 || kernels < 1) return usage(2);
    if (!worker_dir.empty()) return worker(worker_dir, index, threads, kernels);
    return parent(base, processes, threads, kernels);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cupp_cache_stress: %s\n", e.what());
    return 1;
  }
}
