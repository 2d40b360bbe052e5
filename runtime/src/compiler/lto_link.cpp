// nvJitLink over NVRTC's LTO-IR: RAII for the link handle, every return code checked, the error
// log in the CompileError.
#include "compiler/lto_link.hpp"

#include <nvJitLink.h>

#include "compiler/compiler.hpp"
#include "cupp/errors.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::detail {

namespace {

// Owns one nvJitLinkHandle.
class link_handle {
 public:
  explicit link_handle(std::span<const char* const> options) {
    const nvJitLinkResult rc =
        nvJitLinkCreate(&handle_, static_cast<std::uint32_t>(options.size()), const_cast<const char**>(options.data()));
    if (rc != NVJITLINK_SUCCESS) throw CompileError("nvJitLinkCreate failed (error " + std::to_string(rc) + ")", "", "");
  }
  ~link_handle() {
    if (handle_) nvJitLinkDestroy(&handle_);  // only fails for an invalid handle
  }
  link_handle(const link_handle&) = delete;
  link_handle& operator=(const link_handle&) = delete;
  nvJitLinkHandle get() const noexcept { return handle_; }

  std::string error_log() const {
    std::size_t size = 0;
    if (nvJitLinkGetErrorLogSize(handle_, &size) != NVJITLINK_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (nvJitLinkGetErrorLog(handle_, log.data()) != NVJITLINK_SUCCESS) return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }

  void check(nvJitLinkResult rc, const char* call) const {
    if (rc == NVJITLINK_SUCCESS) return;
    const std::string log = error_log();
    throw CompileError(std::string(call) + " failed (nvJitLink error " + std::to_string(rc) + ")" +
                           (log.empty() ? "" : "\nlog:\n" + log),
                       log, "");
  }

 private:
  nvJitLinkHandle handle_ = nullptr;
};

}  // namespace

std::string compile_to_ltoir(const lto_piece& piece, int arch) { return compile_ltoir(piece, arch, nullptr).ltoir; }

std::string link_ltoir(std::span<const std::string> ltoir_modules, int arch) {
  const std::string arch_option = "-arch=sm_" + std::to_string(arch);
  const char* options[] = {arch_option.c_str(), "-lto"};
  const link_handle link(options);
  for (std::size_t i = 0; i < ltoir_modules.size(); ++i) {
    const std::string name = "piece" + std::to_string(i);
    link.check(nvJitLinkAddData(link.get(), NVJITLINK_INPUT_LTOIR, ltoir_modules[i].data(), ltoir_modules[i].size(),
                                name.c_str()),
               "nvJitLinkAddData");
  }
  link.check(nvJitLinkComplete(link.get()), "nvJitLinkComplete");
  std::size_t size = 0;
  link.check(nvJitLinkGetLinkedCubinSize(link.get(), &size), "nvJitLinkGetLinkedCubinSize");
  std::string cubin(size, '\0');
  link.check(nvJitLinkGetLinkedCubin(link.get(), cubin.data()), "nvJitLinkGetLinkedCubin");
  return cubin;
}

std::string compile_and_link(std::span<const lto_piece> pieces, int arch) {
  std::vector<std::string> modules;
  modules.reserve(pieces.size());
  for (const lto_piece& piece : pieces) modules.push_back(compile_to_ltoir(piece, arch));
  return link_ltoir(modules, arch);
}

std::string nvjitlink_version_string() {
  unsigned major = 0, minor = 0;
  if (nvJitLinkVersion(&major, &minor) != NVJITLINK_SUCCESS) throw CompileError("nvJitLinkVersion failed", "", "");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cupp::detail
