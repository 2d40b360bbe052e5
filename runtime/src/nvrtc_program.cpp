// NVRTC compilation with RAII over nvrtcProgram, cupp's embedded headers, CUDA's include path and
// every return code checked.
#include "nvrtc_program.hpp"

#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>
#include <span>
#include <sstream>

#include "cupp/errors.hpp"
#include "embedded_headers.hpp"

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

// CUDA's headers for NVRTC: CUDA_PATH, else the toolkit cupp was built with.
std::string cuda_include_dir() {
  if (const char* p = std::getenv("CUDA_PATH"); p && *p) return std::string(p) + "/include";
  return CUPP_CUDA_INCLUDE_DIR;
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
  const auto headers = embedded_headers();
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

  std::vector<std::string> options = {
      (request.ptx ? "--gpu-architecture=compute_" : "--gpu-architecture=sm_") + std::to_string(request.arch),
      "--std=c++17", "-I" + cuda_include_dir(), "--device-as-default-execution-space"};
  options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
  std::vector<const char*> option_ptrs;
  for (const auto& o : options) option_ptrs.push_back(o.c_str());

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
    throw CompileError("NVRTC failed to compile " + name + " (" + nvrtcGetErrorString(compiled) + ")\noptions:" +
                           opts + "\nlog:\n" + out.log,
                       out.log, numbered(source));
  }

  std::size_t size = 0;
  if (request.ptx) {
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

std::string nvrtc_version_string() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cupp::detail
