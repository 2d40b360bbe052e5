// Reads and validates cupp's environment variables (cupp/config.hpp). One table below describes
// every variable: its name, CuPy's name, default, one-line effect and how its text is parsed
// into `settings`; parsing, listing and docs/environment.md follow that table.
#include "cupp/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <mutex>
#include <system_error>
#include <tuple>
#include <utility>

#include "cupp/errors.hpp"

namespace cupp::config {

namespace {

[[noreturn]] void malformed(std::string_view name, std::string_view value, std::string_view expected) {
  throw ValueError("Invalid value for environment variable " + std::string(name) + ": '" +
                   std::string(value) + "' (expected " + std::string(expected) + ")");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool parse_bool(std::string_view name, std::string_view text) {
  const std::string v = lower(trim(text));
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  malformed(name, text, "0 or 1");
}

// A whole non-negative decimal integer, no sign, no trailing characters.
std::uint64_t parse_uint(std::string_view name, std::string_view text, std::string_view expected) {
  const std::string_view v = trim(text);
  std::uint64_t out = 0;
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc{} || ptr != v.data() + v.size()) malformed(name, text, expected);
  return out;
}

memory_limit parse_memory_limit(std::string_view name, std::string_view text) {
  constexpr std::string_view expected = "a number of bytes, or a percentage such as 90%";
  const std::string_view v = trim(text);
  memory_limit limit;
  if (!v.empty() && v.back() == '%') {
    const std::string_view num = trim(v.substr(0, v.size() - 1));
    double pct = 0.0;
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), pct);
    if (num.empty() || ec != std::errc{} || ptr != num.data() + num.size() || !std::isfinite(pct) ||
        num.front() == '-' || num.front() == '+') {
      malformed(name, text, expected);
    }
    if (pct > 100.0) malformed(name, text, "a percentage between 0% and 100%");
    limit.fraction = pct / 100.0;
    return limit;
  }
  limit.bytes = parse_uint(name, text, expected);
  return limit;
}

// "MAJOR.MINOR" with small non-negative integers.
std::pair<int, int> parse_version(std::string_view name, std::string_view text) {
  constexpr std::string_view expected = "a DLPack version such as 0.6 or 1.0";
  const std::string_view v = trim(text);
  const auto dot = v.find('.');
  if (dot == std::string_view::npos) malformed(name, text, expected);
  int major = 0, minor = 0;
  const std::string_view a = v.substr(0, dot), b = v.substr(dot + 1);
  const auto ra = std::from_chars(a.data(), a.data() + a.size(), major);
  const auto rb = std::from_chars(b.data(), b.data() + b.size(), minor);
  if (a.empty() || b.empty() || ra.ec != std::errc{} || rb.ec != std::errc{} ||
      ra.ptr != a.data() + a.size() || rb.ptr != b.data() + b.size() || major < 0 || minor < 0) {
    malformed(name, text, expected);
  }
  if (major > 1) malformed(name, text, "a DLPack version up to 1.x");
  return {major, minor};
}

std::vector<std::string> parse_accelerators(std::string_view name, std::string_view text) {
  static constexpr std::string_view known[] = {"cub", "cutensor", "cutensornet"};
  std::vector<std::string> out;
  std::string_view rest = text;
  while (!trim(rest).empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (item.empty()) malformed(name, text, "a comma-separated list of cub, cutensor, cutensornet");
    const std::string lowered = lower(item);
    if (std::find(std::begin(known), std::end(known), lowered) == std::end(known)) {
      throw ValueError("Invalid value for environment variable " + std::string(name) + ": unknown accelerator '" +
                       std::string(item) + "' (known: cub, cutensor, cutensornet)");
    }
    if (std::find(out.begin(), out.end(), lowered) == out.end()) out.push_back(lowered);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
    if (trim(rest).empty()) malformed(name, text, "a comma-separated list of cub, cutensor, cutensornet");
  }
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string bool_text(bool b) { return b ? "1" : "0"; }

std::string limit_text(const memory_limit& m) {
  if (m.fraction > 0.0) {
    std::string s = std::to_string(m.fraction * 100.0);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s + "%";
  }
  return std::to_string(m.bytes);
}

std::string default_cache_dir(const lookup_fn& lookup) {
  auto home = lookup("HOME");
  std::string base = home && !home->empty() ? *home : std::string(".");
  return base + "/.cupp/kernel_cache";
}

// One row per variable: how to parse it into settings and how to show its effective value.
struct var_def {
  std::string_view name;
  std::string_view cupy_name;
  std::string_view effect;
  bool empty_is_value;  // an empty string is a value (not "unset")
  void (*parse)(settings&, std::string_view name, std::string_view text);
  std::string (*show)(const settings&);
};

#define CUPP_BOOL_VAR(NAME, CUPY, FIELD, EFFECT)                                                   \
  var_def {                                                                                        \
    NAME, CUPY, EFFECT, false,                                                                     \
        [](settings& s, std::string_view n, std::string_view t) { s.FIELD = parse_bool(n, t); },   \
        [](const settings& s) { return bool_text(s.FIELD); }                                       \
  }

const var_def kVariables[] = {
    {"CUDA_PATH", "CUDA_PATH",
     "CUDA installation whose headers NVRTC uses; unset: the toolkit holding the first nvcc on PATH, "
     "else /usr/local/cuda",
     false, [](settings& s, std::string_view, std::string_view t) { s.cuda_path = std::string(trim(t)); },
     [](const settings& s) { return s.cuda_path.empty() ? std::string("(unset)") : s.cuda_path; }},
    {"CUPP_CACHE_DIR", "CUPY_CACHE_DIR", "directory of the on-disk kernel cache", false,
     [](settings& s, std::string_view, std::string_view t) { s.cache_dir = std::string(trim(t)); },
     [](const settings& s) { return s.cache_dir; }},
    CUPP_BOOL_VAR("CUPP_CACHE_SAVE_CUDA_SOURCE", "CUPY_CACHE_SAVE_CUDA_SOURCE", cache_save_cuda_source,
                  "1: save each kernel's CUDA source beside its cached binary"),
    CUPP_BOOL_VAR("CUPP_CACHE_IN_MEMORY", "CUPY_CACHE_IN_MEMORY", cache_in_memory,
                  "1: keep compiled kernels in memory only (CUPP_CACHE_DIR and "
                  "CUPP_CACHE_SAVE_CUDA_SOURCE are ignored)"),
    {"CUPP_CACHE_MAX_BYTES", "(none)",
     "size cap of the on-disk kernel cache in bytes; least recently used kernels are removed; 0: no cap",
     false,
     [](settings& s, std::string_view n, std::string_view t) {
       s.cache_max_bytes = parse_uint(n, t, "a number of bytes (0: no cap)");
     },
     [](const settings& s) { return std::to_string(s.cache_max_bytes); }},
    CUPP_BOOL_VAR("CUPP_DUMP_CUDA_SOURCE_ON_ERROR", "CUPY_DUMP_CUDA_SOURCE_ON_ERROR", dump_cuda_source_on_error,
                  "1: write the CUDA source of a kernel that fails to compile to standard error"),
    CUPP_BOOL_VAR("CUPP_CUDA_COMPILE_WITH_DEBUG", "CUPY_CUDA_COMPILE_WITH_DEBUG", cuda_compile_with_debug,
                  "1: compile kernels with debug information (--device-debug, --generate-line-info)"),
    CUPP_BOOL_VAR("CUPP_NVTX_OPS", "(none)", nvtx_ops,
                  "1: an NVTX range around every kernel launch cupp makes, named by its op, loop and layout "
                  "class (for Nsight Systems)"),
    CUPP_BOOL_VAR("CUPP_LOG_COMPILES", "(none)", log_compiles,
                  "1: one line on standard error per kernel program compiled or read from the disk cache "
                  "(name, milliseconds, source size, kernels, architecture)"),
    CUPP_BOOL_VAR("CUPP_BUILTIN_KERNELS", "(none)", builtin_kernels,
                  "0: compile every kernel at run time, passing over the kernels built into the library "
                  "ahead of time"),
    {"CUPP_SEED", "CUPY_SEED", "seed of the default random generator; unset: seeded from the OS", false,
     [](settings& s, std::string_view n, std::string_view t) {
       s.seed = parse_uint(n, t, "a non-negative integer below 2^64");
     },
     [](const settings& s) { return s.seed ? std::to_string(*s.seed) : std::string("(unset)"); }},
    {"CUPP_ACCELERATORS", "CUPY_ACCELERATORS",
     "comma-separated accelerated backends, in order of preference (cub; cutensor and cutensornet are "
     "reported unavailable); empty: none",
     true, [](settings& s, std::string_view n, std::string_view t) { s.accelerators = parse_accelerators(n, t); },
     [](const settings& s) { return s.accelerators.empty() ? std::string("(none)") : join(s.accelerators); }},
    CUPP_BOOL_VAR("CUPP_TF32", "CUPY_TF32", tf32,
                  "1: let cuBLAS use TF32 tensor cores for float32 matrix products (cupp::matmul and the linalg products)"),
    {"CUPP_DLPACK_EXPORT_VERSION", "CUPY_DLPACK_EXPORT_VERSION",
     "DLPack version that decides how exported managed memory is reported: as kDLCUDA below 1.0, as "
     "kDLCUDAManaged from 1.0",
     false,
     [](settings& s, std::string_view n, std::string_view t) {
       std::tie(s.dlpack_export_major, s.dlpack_export_minor) = parse_version(n, t);
     },
     [](const settings& s) {
       return std::to_string(s.dlpack_export_major) + "." + std::to_string(s.dlpack_export_minor);
     }},
    {"NVCC", "NVCC", "nvcc command used by the NVCC backend for raw modules", false,
     [](settings& s, std::string_view, std::string_view t) { s.nvcc = std::string(trim(t)); },
     [](const settings& s) { return s.nvcc; }},
    CUPP_BOOL_VAR("CUPP_CUDA_PER_THREAD_DEFAULT_STREAM", "CUPY_CUDA_PER_THREAD_DEFAULT_STREAM",
                  per_thread_default_stream, "1: the per-thread default stream is the default stream"),
    CUPP_BOOL_VAR("CUPP_COMPILE_WITH_PTX", "CUPY_COMPILE_WITH_PTX", compile_with_ptx,
                  "1: NVRTC compiles kernels to PTX instead of CUBIN"),
    {"CUPP_GPU_MEMORY_LIMIT", "CUPY_GPU_MEMORY_LIMIT",
     "limit of the default device memory pool per device: bytes, or a percentage of the device's memory; "
     "0: unlimited",
     false,
     [](settings& s, std::string_view n, std::string_view t) { s.gpu_memory_limit = parse_memory_limit(n, t); },
     [](const settings& s) { return limit_text(s.gpu_memory_limit); }},
    CUPP_BOOL_VAR("CUPP_CUDA_ARRAY_INTERFACE_SYNC", "CUPY_CUDA_ARRAY_INTERFACE_SYNC", cuda_array_interface_sync,
                  "0: no stream synchronisation when importing a foreign array (through DLPack)"),
    {"CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION",
     "3: an exported array hands over its stream; 2: it does not", false,
     [](settings& s, std::string_view n, std::string_view t) {
       const auto v = parse_uint(n, t, "2 or 3");
       if (v != 2 && v != 3) malformed(n, t, "2 or 3");
       s.cuda_array_interface_export_version = static_cast<int>(v);
     },
     [](const settings& s) { return std::to_string(s.cuda_array_interface_export_version); }},
    CUPP_BOOL_VAR("CUPP_EXPERIMENTAL_SLICE_COPY", "CUPY_EXPERIMENTAL_SLICE_COPY", experimental_slice_copy,
                  "accepted, no effect: host data into a device slice is always allowed in C++"),
    CUPP_BOOL_VAR("CUPP_DISABLE_JITIFY_CACHE", "CUPY_DISABLE_JITIFY_CACHE", disable_jitify_cache,
                  "accepted, no effect: cupp does not use Jitify"),
    {"CUTENSOR_PATH", "CUTENSOR_PATH", "cuTENSOR installation; accepted, no effect (no cuTENSOR backend)", false,
     [](settings& s, std::string_view, std::string_view t) { s.cutensor_path = std::string(trim(t)); },
     [](const settings& s) { return s.cutensor_path.empty() ? std::string("(unset)") : s.cutensor_path; }},
};

#undef CUPP_BOOL_VAR

}  // namespace

std::uint64_t memory_limit::resolve(std::uint64_t device_total) const noexcept {
  if (fraction > 0.0) {
    return static_cast<std::uint64_t>(std::floor(static_cast<long double>(device_total) * fraction));
  }
  return bytes;
}

bool settings::accelerator_enabled(std::string_view name) const noexcept {
  return std::find(accelerators.begin(), accelerators.end(), name) != accelerators.end();
}

lookup_fn process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

settings from_environment(const lookup_fn& lookup) {
  settings s;
  s.cache_dir = default_cache_dir(lookup);
  const settings defaults = s;
  for (const var_def& def : kVariables) {
    const std::optional<std::string> raw = lookup(def.name);
    const bool is_set = raw.has_value() && (def.empty_is_value || !trim(*raw).empty());
    if (is_set) def.parse(s, def.name, *raw);
    s.variables.push_back(variable{def.name, def.show(s), def.show(defaults), is_set, def.cupy_name, def.effect});
  }
  return s;
}

const settings& get() {
  // A function-local static is initialised once, thread-safely; a throwing initialiser is
  // retried on the next call, so a fixed environment can be read again.
  static const settings s = from_environment(process_environment());
  return s;
}

namespace {
// The toolkit holding `nvcc` when `nvcc` sits in a toolkit's bin/ (symlinks followed), else
// nothing: a wrapper script such as /usr/local/bin/nvcc has no headers beside it.
std::optional<std::filesystem::path> toolkit_of_nvcc(const std::filesystem::path& nvcc) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(nvcc, ec)) return std::nullopt;
  for (const auto& candidate : {std::filesystem::absolute(nvcc, ec), std::filesystem::canonical(nvcc, ec)}) {
    if (candidate.empty()) continue;
    const std::filesystem::path root = candidate.lexically_normal().parent_path().parent_path();
    if (std::filesystem::is_regular_file(root / "include" / "cuda_runtime.h", ec)) return root;
  }
  return std::nullopt;
}
}  // namespace

std::string cuda_root(const settings& s, const lookup_fn& lookup) {
  if (!s.cuda_path.empty()) return s.cuda_path;
  if (const auto path = lookup("PATH")) {
    std::string_view rest = *path;
    while (true) {
      const auto colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty()) {
        if (auto root = toolkit_of_nvcc(std::filesystem::path(dir) / "nvcc")) return root->string();
      }
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return "/usr/local/cuda";
}

std::string cuda_include_dir() { return cuda_root(get(), process_environment()) + "/include"; }

}  // namespace cupp::config
