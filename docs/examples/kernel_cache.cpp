// Example for docs/kernel-cache.md, built and run by the tests (CTest example_kernel_cache, label
// gpu): the disk cache in a fresh directory. Before cupp reads its configuration the program sets
// CUPP_CACHE_DIR to an empty temporary directory and CUPP_CACHE_SAVE_CUDA_SOURCE=1, runs an
// ElementwiseKernel twice, and checks the results, that the directory now holds <sha256>.kernel
// entries (64 hex digits) with a <sha256>.cu source beside each new one and no .tmp- file left, and
// that the second call compiled nothing new.
#include <cupp/config.hpp>
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/elementwise_kernel.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
// The file names in `dir` that end in `suffix`.
std::set<std::string> files(const std::filesystem::path& dir, const std::string& suffix) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.insert(name);
  }
  return out;
}
}  // namespace

int main() {
  std::filesystem::path dir;
  for (int k = 0;; ++k) {
    dir = std::filesystem::temp_directory_path() / ("cupp_example_kernel_cache_" + std::to_string(k));
    if (std::filesystem::create_directory(dir)) break;
  }
  struct remove_at_exit {
    std::filesystem::path path;
    ~remove_at_exit() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{dir};
  // Read once per process, at cupp's first use: set them first.
  ::setenv("CUPP_CACHE_DIR", dir.c_str(), 1);
  ::setenv("CUPP_CACHE_SAVE_CUDA_SOURCE", "1", 1);
  ::unsetenv("CUPP_CACHE_IN_MEMORY");
  ::unsetenv("CUPP_CACHE_MAX_BYTES");  // no eviction during the checks
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  expect(cupp::config::get().cache_dir == dir.string(), "CUPP_CACHE_DIR is the cache directory");
  const cupp::ndarray x = cupp::arange(0.0, 8.0, 1.0);
  const std::set<std::string> before = files(dir, ".kernel");  // arange's own program
  // [snippet disk_cache]
  // CUPP_CACHE_DIR=<dir> and CUPP_CACHE_SAVE_CUDA_SOURCE=1, set before cupp's first use
  cupp::ElementwiseKernel axpy("T x, T y", "T z", "z = 2 * x + y", "axpy");
  cupp::ndarray z1 = axpy(x, x);     // a miss: NVRTC compiles the program, <dir>/<key>.kernel is written
  cupp::ndarray z2 = axpy(z1, x);    // a hit in memory: no compile, no disk access
  // <dir> now also holds <key>.cu, the program's source; <key> is a SHA-256 in hex
  // [end snippet]
  expect(z1.to_vector<double>() == std::vector<double>{0, 3, 6, 9, 12, 15, 18, 21}, "z1 = 2 * x + x");
  const std::set<std::string> after_first = files(dir, ".kernel");
  const cupp::ndarray z3 = axpy(x, z2);
  expect(z3.to_vector<double>() == std::vector<double>{0, 11, 22, 33, 44, 55, 66, 77}, "z3 = 2 * x + (2 * z1 + x)");
  const std::set<std::string> entries = files(dir, ".kernel");
  expect(entries.size() > before.size(), "the kernel's program is written to the disk cache");
  expect(entries == after_first, "later calls compile nothing new");
  for (const std::string& name : entries) {
    const std::string key = name.substr(0, name.size() - 7);
    expect(key.size() == 64 && key.find_first_not_of("0123456789abcdef") == std::string::npos,
           "an entry is named <sha256 in hex>.kernel");
  }
  for (const std::string& name : entries)
    if (before.count(name) == 0)
      expect(std::filesystem::exists(dir / (name.substr(0, name.size() - 7) + ".cu")), "the source is saved beside the entry");
  expect(files(dir, "").size() == entries.size() + files(dir, ".cu").size(), "no temporary file is left");
  if (failures != 0) return 1;
  std::puts("kernel_cache: all checks passed");
  return 0;
}
