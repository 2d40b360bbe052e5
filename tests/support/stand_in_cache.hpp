// Test support: a kernel cache that loads nothing onto a device. Its loader records each program's
// binary in `loaded` and returns an empty module, so host tests can see where a program came from
// (built-in table or NVRTC) without a GPU.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/builtin_kernels.hpp"
#include "compiler/kernel_cache.hpp"

namespace cupp::test {

// No disk cache; `table` null: the registered tables (core's and the modules').
inline std::unique_ptr<cupp::detail::kernel_cache> stand_in_cache(bool use_builtin, int arch,
                                                                  const cupp::detail::builtin_table* table,
                                                                  std::vector<std::string>& loaded) {
  cupp::detail::kernel_cache::settings s;
  s.use_disk = false;
  s.use_builtin = use_builtin;
  s.table = table;
  s.arch_of = [arch](int) { return arch; };
  s.load = [&loaded](const cupp::detail::compiled_program& c, int) {
    loaded.push_back(c.binary);
    return std::make_unique<cupp::detail::kernel_module>(cupp::detail::library{},
                                                         std::vector<cudaKernel_t>(c.lowered_names.size()));
  };
  return std::make_unique<cupp::detail::kernel_cache>(s);
}

}  // namespace cupp::test
