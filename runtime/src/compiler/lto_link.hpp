// Internal: link-time optimisation across separately compiled pieces. Each piece is compiled by
// NVRTC to LTO-IR; nvJitLink links them (with whole-program optimisation) into one CUBIN for an
// architecture. cuFFT callbacks and multi-piece user modules use it. Runs without a GPU.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cupp::detail {

// One piece of source, compiled on its own (relocatable device code).
struct lto_piece {
  std::string name;                  // NVRTC program name, for errors
  std::string source;
  std::vector<std::string> options;  // extra NVRTC options
};

// LTO-IR of one piece for `arch` (e.g. 90); CompileError on failure.
std::string compile_to_ltoir(const lto_piece& piece, int arch);

// Links LTO-IR modules into a CUBIN for `arch`; CompileError with nvJitLink's error log on
// failure (an unresolved symbol, say).
std::string link_ltoir(std::span<const std::string> ltoir_modules, int arch);

// compile_to_ltoir for each piece, then link_ltoir.
std::string compile_and_link(std::span<const lto_piece> pieces, int arch);

// nvJitLink's version as "MAJOR.MINOR".
std::string nvjitlink_version_string();

}  // namespace cupp::detail
