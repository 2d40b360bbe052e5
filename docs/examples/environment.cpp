// Example for docs/environment.md, built and run by the tests (CTest example_environment, label
// gpu): the process's configuration and a configuration parsed from a map of its own. Needs no
// GPU: it runs (and checks) everywhere. It sets CUPP_GPU_MEMORY_LIMIT=1073741824 in its own
// environment before the first read, then checks that cupp::config::get() sees it, that the
// parsed map gives a 50% limit (half of a 16 GiB device), that unset variables keep their
// defaults, and that a malformed value is a ValueError naming the variable.
#include <cupp/config.hpp>
#include <cupp/errors.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  ::setenv("CUPP_GPU_MEMORY_LIMIT", "1073741824", 1);  // before cupp reads the environment
  // [snippet config]
  const cupp::config::settings& s = cupp::config::get();   // process environment, read once
  if (s.gpu_memory_limit.unlimited()) { /* ... */ }

  // Parse any map, e.g. in tests:
  auto t = cupp::config::from_environment([](std::string_view name) -> std::optional<std::string> {
    if (name == "CUPP_GPU_MEMORY_LIMIT") return "50%";
    return std::nullopt;
  });
  // [end snippet]
  const bool process_limit = !s.gpu_memory_limit.unlimited() && s.gpu_memory_limit.bytes == (1ull << 30) &&
                  s.gpu_memory_limit.resolve(16ull << 30) == (1ull << 30);
  expect(process_limit, "config::get() reads CUPP_GPU_MEMORY_LIMIT from the process environment");
  ::setenv("CUPP_GPU_MEMORY_LIMIT", "0", 1);
  expect(&cupp::config::get() == &s && s.gpu_memory_limit.bytes == (1ull << 30), "the environment is read once");
  expect(t.gpu_memory_limit.fraction == 0.5 && t.gpu_memory_limit.resolve(16ull << 30) == (8ull << 30),
         "from_environment parses 50%");
  expect(t.accelerators.size() == 1 && t.accelerators[0] == "cub" && t.accelerator_enabled("cub") && !t.tf32 &&
             t.cuda_array_interface_export_version == 3,
         "unset variables keep their defaults");
  bool named = false;
  try {
    (void)cupp::config::from_environment([](std::string_view name) -> std::optional<std::string> {
      if (name == "CUPP_TF32") return "maybe";
      return std::nullopt;
    });
  } catch (const cupp::ValueError& e) {
    named = std::string(e.what()).find("CUPP_TF32") != std::string::npos;
  }
  expect(named, "a malformed value is a ValueError naming the variable");
  if (failures != 0) return 1;
  std::puts("environment: all checks passed");
  return 0;
}
