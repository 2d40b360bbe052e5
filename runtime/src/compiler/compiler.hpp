// Internal: the compiler front without a GPU. From a program's source, its kernels' name
// expressions and the compile flags (architecture, PTX, debug) it yields the binary and the
// kernels' lowered names, through the disk cache when one is given. The disk key is a SHA-256
// of everything that determines the binary: source, name expressions, NVRTC options (with the
// CUDA include path), NVRTC version, architecture, cupp's version and its embedded headers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/disk_cache.hpp"
#include "compiler/embedded_headers.hpp"
#include "compiler/hash.hpp"
#include "compiler/lto_link.hpp"

namespace cupp::detail {

struct program_source {
  std::string name;                           // NVRTC program name, e.g. "cupp_add"
  std::string source;
  std::vector<std::string> name_expressions;  // one per kernel, e.g. "k<float>" or "my_kernel"
  std::vector<std::string> options;           // program-specific compiler options (user kernels)
  bool use_nvcc = false;                      // the NVCC backend (extern "C" kernels only; CUBIN)
  // A module's own device headers (<module>/device/, embedded by cmake/CuppModule.cmake) and
  // their build-time digest, which joins the cache key; cupp's headers are always there.
  std::span<const embedded_header> headers{};
  std::string_view headers_digest{};
  // What CUPP_LOG_COMPILES says the program is for ("subtract float32,float32->float32 strided2d
  // vec4"); not part of any key.
  std::string label{};
};

struct compile_flags {
  int arch = 90;                     // architecture to compile for (see nvrtc_arch_for)
  bool ptx = false;                  // CUPP_COMPILE_WITH_PTX
  bool debug = false;                // CUPP_CUDA_COMPILE_WITH_DEBUG
  bool dump_source_on_error = false; // CUPP_DUMP_CUDA_SOURCE_ON_ERROR (not part of the key)
  std::vector<std::string> extra_options;
};

// Flags for `arch` with PTX, debug and dump-on-error taken from cupp::config::get().
compile_flags compile_flags_from_config(int arch);

struct compiled_program {
  bool ptx = false;
  std::string binary;                       // CUBIN, or PTX text (NUL-terminated)
  std::vector<std::string> lowered_names;   // one per name expression
};

// The disk cache's key of a program compiled with `flags`.
digest256 program_key(const program_source& program, const compile_flags& flags);

// A compiled program as a disk cache payload, and back (nullopt when the payload does not
// describe `expected_kernels` kernels or is malformed).
std::string serialize(const compiled_program& program);
std::optional<compiled_program> deserialize(std::string_view payload, std::size_t expected_kernels);

struct compile_result {
  compiled_program program;
  bool from_disk = false;                 // found in the disk cache (NVRTC did not run)
  std::optional<std::string> store_error; // the disk cache could not be written
};

// Compiles `program` (throws CompileError on failure), looking it up in `disk` first when
// `disk` is not null, and writing it there after a compile when `write` is also set.
compile_result compile_program(const program_source& program, const compile_flags& flags,
                               const disk_cache* disk, bool write = true);

// LTO-IR of one piece of source for a later nvJitLink link (an fft callback, say), through the
// disk cache in the same way: its key is the process part, "ltoir", the architecture, the NVRTC
// options, the name and the source; its payload the LTO-IR bytes.
digest256 ltoir_key(const lto_piece& piece, int arch);
struct ltoir_result {
  std::string ltoir;
  bool from_disk = false;
  std::optional<std::string> store_error;
};
ltoir_result compile_ltoir(const lto_piece& piece, int arch, const disk_cache* disk, bool write = true);

}  // namespace cupp::detail
