// Internal: the NVCC backend for user modules that ask for it (RawModule {.backend = "nvcc"}),
// as CuPy's backend='nvcc': the source is written to a private temporary folder and compiled by
// the `nvcc` that the NVCC variable names (default: nvcc on PATH, else CUDA's bin/nvcc) to a
// CUBIN. Slower than NVRTC (a process per compile); the kernel cache keeps the result.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace cupp::detail {

// Compiles `source` to a CUBIN for sm_<arch>; CompileError with nvcc's output on failure.
std::string nvcc_compile(std::string_view program_name, std::string_view source, int arch,
                         std::span<const std::string> options, bool debug);

// The nvcc command in use, and its `--version` text (read once; part of the cache key).
const std::string& nvcc_command();
const std::string& nvcc_version_text();

}  // namespace cupp::detail
