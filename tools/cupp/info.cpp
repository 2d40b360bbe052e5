// `cupp info`: what this cupp build is and what it finds on this machine: version and build
// options, CUDA runtime/driver/NVRTC and math-library versions, devices, the configuration
// from the environment and the kernel cache directory. Without a driver or a GPU it says so
// and still exits 0; only a malformed environment variable makes it fail (exit 1).

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "compiler/builtin_kernels.hpp"
#include "compiler/lto_link.hpp"
#include "compiler/nvcc_backend.hpp"
#include "cupp/config.hpp"
#include "cupp/modules.hpp"
#include "cupp/cuda/runtime_info.hpp"

namespace cupp::tool {

namespace {

void row(std::string_view key, const std::string& value, int width = 26) {
  std::cout << "  " << std::left << std::setw(width) << key << "  " << value << '\n';
}

template <class Fn>
std::string guarded(Fn fn) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return std::string("unknown (") + e.what() + ")";
  }
}

// A module's rows, or one row saying why they could not be had.
std::vector<module_info_row> guarded_rows(std::vector<module_info_row> (*info)()) {
  try {
    return info();
  } catch (const std::exception& e) {
    return {{"info", std::string("unknown (") + e.what() + ")"}};
  }
}

std::string gib(std::size_t bytes) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0)
     << " GiB";
  return os.str();
}

}  // namespace

int info(std::span<const std::string_view> args) {
  if (!args.empty()) {
    std::cerr << "cupp info: takes no arguments\n";
    return 2;
  }
  std::cout << "cupp " << CUPP_TOOL_VERSION << " (NumPy for NVIDIA GPUs, in C++)\n\n";

  std::cout << "Build\n";
  row("build type", CUPP_TOOL_BUILD_TYPE[0] ? CUPP_TOOL_BUILD_TYPE : "(none)");
  row("CUPP_NVCC_GENERATE_CODE", CUPP_TOOL_NVCC_GENERATE_CODE);
  row("C++ compiler", CUPP_TOOL_COMPILER);
  row("CUDA toolkit (build)", std::string(CUPP_TOOL_CUDA_TOOLKIT) + " at " + CUPP_TOOL_CUDA_TOOLKIT_ROOT);
  row("CMake", CUPP_TOOL_CMAKE_VERSION);

  std::cout << "\nCUDA\n";
  row("runtime (linked)", cuda::version_string(cuda::runtime_version_linked()) + " (cudart_static)");
  row("runtime (in use)", guarded([] { return cuda::version_string(cuda::runtime_version()); }));
  int driver = 0;
  std::string driver_text = guarded([&] {
    driver = cuda::driver_version();
    return driver == 0 ? std::string("none (no CUDA driver found)") : cuda::version_string(driver);
  });
  row("driver (local, supports)", driver_text);
  row("NVRTC", guarded([] { return cuda::version_string(cuda::nvrtc_version()); }));
  row("nvJitLink", guarded([] { return detail::nvjitlink_version_string(); }));
  row("nvcc (NVCC backend)", guarded([] { return detail::nvcc_command(); }));

  std::cout << "\nModules\n";  // each module's rows (cupp::modules(): the module folders cupp::cupp links)
  for (const module_entry& m : modules()) {
    row(m.name, "cupp::" + std::string(m.name));
    for (const module_info_row& r : guarded_rows(m.info)) row("  " + r.key, r.value);
  }

  std::cout << "\nDevices\n";
  int count = 0;
  std::string count_error;
  try {
    count = cuda::device_count();
  } catch (const std::exception& e) {
    count_error = e.what();
  }
  if (driver == 0) {
    std::cout << "  No CUDA driver found: GPU features unavailable (host-side features still work)\n";
  } else if (!count_error.empty()) {
    std::cout << "  CUDA cannot be used: " << count_error << "\n  GPU features unavailable\n";
  } else if (count == 0) {
    std::cout << "  No CUDA device found: GPU features unavailable\n";
  } else {
    row("device count", std::to_string(count));
    for (int id = 0; id < count; ++id) {
      try {
        const auto p = cuda::get_device_properties(id);
        std::ostringstream os;
        os << p.name << ", compute capability " << p.major << "." << p.minor << " (" << p.arch() << "), "
           << gib(p.total_memory) << ", " << p.multiprocessor_count << " SMs, PCI " << p.pci_bus_id;
        row("device " + std::to_string(id), os.str());
      } catch (const std::exception& e) {
        row("device " + std::to_string(id), std::string("properties unavailable: ") + e.what());
      }
    }
  }
  row("cupp::cuda::is_available()", cuda::is_available() ? "true" : "false");

  std::cout << "\nConfiguration (environment)\n";
  const config::settings* settings = nullptr;
  try {
    settings = &config::get();
  } catch (const std::exception& e) {
    std::cout << "  error: " << e.what() << '\n';
    return 1;
  }
  for (const auto& v : settings->variables) {
    std::string text = v.value;
    if (!v.is_set) text += "  (default)";
    row(v.name, text, 40);
  }

  std::string accel;
  for (const auto& a : settings->accelerators) {
    accel += (accel.empty() ? "" : ", ") + a + (a == "cub" ? " (available)" : " (unavailable: no cuTENSOR backend)");
  }
  row("accelerators in effect", accel.empty() ? "none (cupp's own kernels only)" : accel, 40);

  std::cout << "\nKernel cache\n";
  row("NVRTC headers from", config::cuda_include_dir());
  {  // the table compiled into the library (runtime/aot; docs/kernel-cache.md#built-in-kernels)
    const detail::builtin_table& table = detail::builtin_kernels();
    std::string archs;
    for (const int a : table.architectures()) archs += (archs.empty() ? "sm_" : ", sm_") + std::to_string(a);
    std::ostringstream text;
    if (table.size() == 0) text << "none (built with -DCUPP_AOT_KERNELS=OFF)";
    else text << table.size() << " programs for " << archs << ", " << detail::builtin_kernel_blob().size() / 1024 << " KiB";
    if (!settings->builtin_kernels) text << "  (passed over: CUPP_BUILTIN_KERNELS=0)";
    row("built-in kernels", text.str());
  }
  if (settings->cache_in_memory) {
    row("directory", "(in memory only: CUPP_CACHE_IN_MEMORY=1)");
  } else {
    std::error_code ec;
    const bool exists = std::filesystem::is_directory(settings->cache_dir, ec);
    row("directory", settings->cache_dir + (exists ? "" : "  (not created yet)"));
  }
  return 0;
}

}  // namespace cupp::tool
