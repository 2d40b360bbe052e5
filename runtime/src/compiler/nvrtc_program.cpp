// NVRTC compilation with RAII over nvrtcProgram, cupp's embedded headers, CUDA's include path
// (cupp::config), debug options, the numbered source on stderr on request, and every return
// code checked.
#include "compiler/nvrtc_program.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <span>
#include <sstream>

#include "cupp/config.hpp"
#include "cupp/errors.hpp"
#include "compiler/embedded_headers.hpp"

namespace cupp::detail {

namespace {

void check(nvrtcResult rc, const char* call) {
  if (rc != NVRTC_SUCCESS)
    throw CompileError(std::string(call) + " failed: " + nvrtcGetErrorString(rc), "", "");
}

// Owns one nvrtcProgram.
class program {
 public:
  program(const std::string& source, const std::string& name, std::span<const char* const> header_sources,
          std::span<const char* const> header_names) {
    check(nvrtcCreateProgram(&handle_, source.c_str(), name.c_str(), static_cast<int>(header_sources.size()),
                             header_sources.data(), header_names.data()),
          "nvrtcCreateProgram");
  }
  ~program() {
    if (handle_) nvrtcDestroyProgram(&handle_);  // only fails for an invalid handle
  }
  program(const program&) = delete;
  program& operator=(const program&) = delete;
  nvrtcProgram get() const noexcept { return handle_; }

 private:
  nvrtcProgram handle_ = nullptr;
};

std::atomic<std::uint64_t> compile_count{0};

// CUDA's headers for NVRTC: cupp::config's choice (CUDA_PATH, else beside nvcc, else
// /usr/local/cuda), or the toolkit cupp was built with when that folder does not exist. Found
// once per process.
const std::string& cuda_include_dir() {
  static const std::string dir = [] {
    std::string configured = config::cuda_include_dir();
    std::error_code ec;
    if (std::filesystem::is_directory(configured, ec)) return configured;
    return std::string(CUPP_CUDA_INCLUDE_DIR);
  }();
  return dir;
}

std::string numbered(std::string_view source) {
  std::ostringstream out;
  std::istringstream in{std::string(source)};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) out << n << '\t' << line << '\n';
  return out.str();
}

}  // namespace

nvrtc_output nvrtc_compile(const nvrtc_request& request) {
  std::vector<embedded_header> headers(embedded_headers().begin(), embedded_headers().end());
  headers.insert(headers.end(), request.extra_headers.begin(), request.extra_headers.end());
  std::vector<const char*> header_sources, header_names;
  std::vector<std::string> header_storage;  // NVRTC wants NUL-terminated strings
  header_storage.reserve(headers.size() * 2);
  for (const auto& h : headers) {
    header_storage.emplace_back(h.contents);
    header_storage.emplace_back(h.name);
  }
  for (std::size_t i = 0; i < headers.size(); ++i) {
    header_sources.push_back(header_storage[2 * i].c_str());
    header_names.push_back(header_storage[2 * i + 1].c_str());
  }

  const std::string source(request.source), name(request.program_name);
  const program prog(source, name, header_sources, header_names);
  for (const std::string& expr : request.name_expressions)
    check(nvrtcAddNameExpression(prog.get(), expr.c_str()), "nvrtcAddNameExpression");

  const std::vector<std::string> options = nvrtc_options(request);
  std::vector<const char*> option_ptrs;
  for (const auto& o : options) option_ptrs.push_back(o.c_str());

  compile_count.fetch_add(1, std::memory_order_relaxed);
  const nvrtcResult compiled = nvrtcCompileProgram(prog.get(), static_cast<int>(option_ptrs.size()), option_ptrs.data());
  nvrtc_output out;
  std::size_t log_size = 0;
  check(nvrtcGetProgramLogSize(prog.get(), &log_size), "nvrtcGetProgramLogSize");
  out.log.resize(log_size);
  if (log_size) check(nvrtcGetProgramLog(prog.get(), out.log.data()), "nvrtcGetProgramLog");
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  if (compiled != NVRTC_SUCCESS) {
    std::string opts;
    for (const auto& o : options) opts += " " + o;
    const std::string message = "NVRTC failed to compile " + name + " (" + nvrtcGetErrorString(compiled) +
                                ")\noptions:" + opts + "\nlog:\n" + out.log;
    std::string numbered_source = numbered(source);
    if (request.dump_source_on_error) {
      const std::string dump = "cupp: " + message + "\nsource of " + name + ":\n" + numbered_source;
      std::fwrite(dump.data(), 1, dump.size(), stderr);
      std::fflush(stderr);
    }
    throw CompileError(message, out.log, std::move(numbered_source));
  }

  std::size_t size = 0;
  if (request.lto) {
    check(nvrtcGetLTOIRSize(prog.get(), &size), "nvrtcGetLTOIRSize");
    out.binary.resize(size);
    check(nvrtcGetLTOIR(prog.get(), out.binary.data()), "nvrtcGetLTOIR");
  } else if (request.ptx) {
    check(nvrtcGetPTXSize(prog.get(), &size), "nvrtcGetPTXSize");
    out.binary.resize(size);
    check(nvrtcGetPTX(prog.get(), out.binary.data()), "nvrtcGetPTX");
  } else {
    check(nvrtcGetCUBINSize(prog.get(), &size), "nvrtcGetCUBINSize");
    out.binary.resize(size);
    check(nvrtcGetCUBIN(prog.get(), out.binary.data()), "nvrtcGetCUBIN");
  }
  for (const std::string& expr : request.name_expressions) {
    const char* lowered = nullptr;
    check(nvrtcGetLoweredName(prog.get(), expr.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered);
  }
  return out;
}

std::vector<std::string> nvrtc_options(const nvrtc_request& request) {
  std::vector<std::string> options = {
      (request.ptx ? "--gpu-architecture=compute_" : "--gpu-architecture=sm_") + std::to_string(request.arch),
      "--std=c++17", "-I" + cuda_include_dir(), "--device-as-default-execution-space"};
  if (request.lto) {
    options.emplace_back("--relocatable-device-code=true");
    options.emplace_back("-dlto");
  }
  if (request.debug) {
    options.emplace_back("--device-debug");
    options.emplace_back("--generate-line-info");
  }
  options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
  return options;
}

std::uint64_t nvrtc_compile_count() noexcept { return compile_count.load(std::memory_order_relaxed); }

int nvrtc_arch_for(int cc) {
  static const std::vector<int> supported = [] {
    int count = 0;
    check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
    std::vector<int> archs(static_cast<std::size_t>(count));
    if (count > 0) check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
    std::sort(archs.begin(), archs.end());
    return archs;
  }();
  int best = 0;
  for (const int arch : supported)
    if (arch <= cc) best = arch;
  if (best == 0)
    throw CompileError("NVRTC " + nvrtc_version_string() + " cannot compile for compute capability " +
                           std::to_string(cc / 10) + "." + std::to_string(cc % 10),
                       "", "");
  return best;
}

std::string nvrtc_version_string() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cupp::detail
