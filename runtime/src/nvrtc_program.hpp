// Internal: one NVRTC compilation (source + cupp's embedded device headers -> CUBIN or PTX),
// with name expressions for template kernels. The kernel cache and module loading (issue 4)
// build on this; it needs no GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cupp::detail {

struct nvrtc_request {
  std::string_view program_name;              // shown in errors, e.g. "cupp_add"
  std::string_view source;
  std::vector<std::string> name_expressions;  // kernels to instantiate and look up
  int arch = 90;                              // compute capability, e.g. 90 for sm_90
  bool ptx = false;                           // PTX (compute_XX) instead of CUBIN (sm_XX)
  std::vector<std::string> extra_options;
};

struct nvrtc_output {
  std::string binary;                       // CUBIN, or PTX text
  std::vector<std::string> lowered_names;   // one per name expression
  std::string log;
};

// Compiles; throws CompileError with the log, the options and the numbered source on failure.
nvrtc_output nvrtc_compile(const nvrtc_request& request);

// "MAJOR.MINOR" of the NVRTC library in use.
std::string nvrtc_version_string();

}  // namespace cupp::detail
