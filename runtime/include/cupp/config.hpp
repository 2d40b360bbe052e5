// cupp's configuration from environment variables (docs/environment.md lists them all): each
// CuPy variable has a CUPP_ twin with the same meaning and default. The process environment is
// read once, at first use, thread-safely; a malformed value throws cupp::ValueError naming the
// variable and the value. Tests and tools can parse any name -> value map with from_environment.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cupp::config {

// CUPP_GPU_MEMORY_LIMIT: unlimited (0), a number of bytes, or a percentage of each device's
// total memory ("90%").
struct memory_limit {
  std::uint64_t bytes = 0;  // absolute limit; used when fraction == 0
  double fraction = 0.0;    // of the device's total memory, in (0, 1]; 0 = not a percentage

  bool unlimited() const noexcept { return bytes == 0 && fraction == 0.0; }
  // The limit in bytes for a device with `device_total` bytes; 0 means unlimited.
  std::uint64_t resolve(std::uint64_t device_total) const noexcept;
};

// One variable as read: for `cupp info` and docs.
struct variable {
  std::string_view name;        // e.g. "CUPP_CACHE_DIR"
  std::string value;            // the effective value, as text
  std::string default_value;    // the default, as text ("(unset)" where there is none)
  bool is_set = false;          // whether the environment gave a value
  std::string_view cupy_name;   // CuPy's variable with the same meaning
  std::string_view effect;      // one line: what it does (and "no effect" / "pending" notes)
};

// The effective configuration.
struct settings {
  std::string cuda_path;                  // CUDA_PATH; empty when unset (see cuda_root)
  std::string cache_dir;                  // CUPP_CACHE_DIR; default $HOME/.cupp/kernel_cache
  bool cache_save_cuda_source = false;    // CUPP_CACHE_SAVE_CUDA_SOURCE
  bool cache_in_memory = false;           // CUPP_CACHE_IN_MEMORY
  std::uint64_t cache_max_bytes = 0;      // CUPP_CACHE_MAX_BYTES; 0: no size cap
  bool dump_cuda_source_on_error = false; // CUPP_DUMP_CUDA_SOURCE_ON_ERROR
  bool cuda_compile_with_debug = false;   // CUPP_CUDA_COMPILE_WITH_DEBUG
  bool nvtx_ops = false;                  // CUPP_NVTX_OPS (no CuPy twin)
  bool log_compiles = false;              // CUPP_LOG_COMPILES (no CuPy twin)
  bool builtin_kernels = true;            // CUPP_BUILTIN_KERNELS (no CuPy twin)
  std::optional<std::uint64_t> seed;      // CUPP_SEED; unset: seeded from the OS
  std::vector<std::string> accelerators{"cub"};  // CUPP_ACCELERATORS; empty value: none
  bool tf32 = false;                      // CUPP_TF32
  int dlpack_export_major = 0;            // CUPP_DLPACK_EXPORT_VERSION ("0.6")
  int dlpack_export_minor = 6;
  std::string nvcc = "nvcc";              // NVCC
  bool per_thread_default_stream = false; // CUPP_CUDA_PER_THREAD_DEFAULT_STREAM
  bool compile_with_ptx = false;          // CUPP_COMPILE_WITH_PTX
  memory_limit gpu_memory_limit;          // CUPP_GPU_MEMORY_LIMIT
  bool cuda_array_interface_sync = true;  // CUPP_CUDA_ARRAY_INTERFACE_SYNC
  int cuda_array_interface_export_version = 3;  // CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION (2 or 3)
  bool experimental_slice_copy = false;   // CUPP_EXPERIMENTAL_SLICE_COPY (accepted, no effect)
  bool disable_jitify_cache = false;      // CUPP_DISABLE_JITIFY_CACHE (accepted, no effect)
  std::string cutensor_path;              // CUTENSOR_PATH (no cuTENSOR backend yet)

  // Every variable in documentation order, with its effective value.
  std::vector<variable> variables;

  // Whether an accelerator ("cub", "cutensor", ...) is listed in CUPP_ACCELERATORS.
  bool accelerator_enabled(std::string_view name) const noexcept;
};

// Looks a variable up: its value, or nullopt when unset.
using lookup_fn = std::function<std::optional<std::string>(std::string_view name)>;

// The process environment as a lookup_fn (std::getenv).
lookup_fn process_environment();

// Parses and validates every variable through `lookup`. Throws cupp::ValueError naming the
// variable and the value when one is malformed. An empty value counts as unset, except for
// CUPP_ACCELERATORS, where it means "no accelerator".
settings from_environment(const lookup_fn& lookup);

// The configuration of this process: from_environment(process_environment()), parsed on the
// first call (thread-safe) and kept. If parsing throws, the next call tries again.
const settings& get();

// The CUDA installation whose headers NVRTC uses: CUDA_PATH when set, else the toolkit holding
// the first `nvcc` on PATH (looked up through `lookup`; symlinks are followed, and an `nvcc`
// with no include/cuda_runtime.h two levels up, such as a wrapper script, is passed over),
// else /usr/local/cuda.
std::string cuda_root(const settings& s, const lookup_fn& lookup);
// <cuda_root>/include for this process's configuration and environment.
std::string cuda_include_dir();

}  // namespace cupp::config
