// Internal: one NVRTC compilation (source + cupp's embedded device headers -> CUBIN or PTX),
// with name expressions for template kernels. The kernel cache (compiler/) builds on this; it
// needs no GPU. CUDA's headers come from cupp::config::cuda_include_dir().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "compiler/embedded_headers.hpp"

namespace cupp::detail {

struct nvrtc_request {
  std::string_view program_name;              // shown in errors, e.g. "cupp_add"
  std::string_view source;
  std::vector<std::string> name_expressions;  // kernels to instantiate and look up
  int arch = 90;                              // compute capability, e.g. 90 for sm_90
  bool ptx = false;                           // PTX (compute_XX) instead of CUBIN (sm_XX)
  bool lto = false;                           // LTO-IR for nvJitLink (relocatable, -dlto)
  std::vector<std::string> extra_options;
  bool debug = false;                         // --device-debug --generate-line-info
  bool dump_source_on_error = false;          // also print the numbered source to stderr on failure
  std::span<const embedded_header> extra_headers{};  // a module's device headers, besides cupp's own
};

struct nvrtc_output {
  std::string binary;                       // CUBIN, PTX text, or LTO-IR
  std::vector<std::string> lowered_names;   // one per name expression
  std::string log;
};

// Compiles; throws CompileError with the log, the options and the numbered source on failure.
nvrtc_output nvrtc_compile(const nvrtc_request& request);

// The NVRTC options nvrtc_compile passes for `request` (part of the kernel cache's key).
std::vector<std::string> nvrtc_options(const nvrtc_request& request);

// How many times this process has run nvrtcCompileProgram (tests count cache misses with it).
std::uint64_t nvrtc_compile_count() noexcept;

// The architecture to compile for on a device of compute capability `cc` (10 * major + minor):
// the largest one NVRTC supports that is not above `cc`.
int nvrtc_arch_for(int cc);

// "MAJOR.MINOR" of the NVRTC library in use.
std::string nvrtc_version_string();

}  // namespace cupp::detail
