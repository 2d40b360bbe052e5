// The modules cupp::cupp holds (linalg, fft, random, sparse: cmake/CuppModule.cmake's template),
// each with what `cupp info` prints for it, such as the version of the CUDA library it wraps.
// modules() is defined in cupp::cupp (a file CMake writes from the module folders it found), not
// in cupp::core, which cannot name a module.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cupp {

struct module_info_row {
  std::string key;    // e.g. "cuBLAS"
  std::string value;  // e.g. "13.0.0.19"
};

struct module_entry {
  std::string_view name;                      // "linalg", "fft", ...
  std::vector<module_info_row> (*info)();     // cupp::<name>::info()
};

// Every module linked into cupp::cupp, by folder name.
std::span<const module_entry> modules() noexcept;

}  // namespace cupp
