// What CUDA offers this process: whether a usable GPU is present, how many devices there are,
// their properties, and the versions of the CUDA runtime (as linked), the local driver and
// NVRTC. Works on machines without an NVIDIA driver: the runtime is linked statically and
// loads the driver on first use, so these queries report "nothing there" instead of failing.
#pragma once

#include <cstddef>
#include <string>

namespace cupp::cuda {

// True when a CUDA driver is loaded and at least one device can be used. Never throws,
// whatever is wrong (no driver, no device, driver too old, partial installation).
bool is_available() noexcept;

// Number of CUDA devices; 0 when there is no driver or no device. Other failures throw
// cupp::CudaError naming the call and the CUDA error.
int device_count();

// CUDA versions are encoded as 1000 * major + 10 * minor (13000 is CUDA 13.0).
// The runtime version cupp was compiled and linked against (CUDART_VERSION).
int runtime_version_linked() noexcept;
// The runtime version reported by the runtime in use (cudaRuntimeGetVersion). With the
// statically linked runtime it equals runtime_version_linked().
int runtime_version();
// The newest CUDA version the local driver supports (cudaDriverGetVersion); 0 without a driver.
int driver_version();
// NVRTC's version, same encoding (nvrtcVersion).
int nvrtc_version();
// "13.0" for 13000; "none" for 0.
std::string version_string(int version);

// Properties of one device (a subset of cudaDeviceProp, plus its PCI address).
struct device_properties {
  int id = 0;
  std::string name;
  int major = 0;  // compute capability
  int minor = 0;
  std::size_t total_memory = 0;  // bytes of global memory
  int multiprocessor_count = 0;
  int max_threads_per_block = 0;
  int max_threads_per_multiprocessor = 0;
  int warp_size = 0;
  std::size_t shared_memory_per_block = 0;           // bytes (default limit)
  std::size_t shared_memory_per_block_optin = 0;     // bytes (opt-in limit)
  std::size_t shared_memory_per_multiprocessor = 0;  // bytes
  int registers_per_block = 0;
  int l2_cache_size = 0;      // bytes
  int memory_bus_width = 0;   // bits
  bool ecc_enabled = false;
  bool integrated = false;
  bool concurrent_managed_access = false;
  std::string pci_bus_id;  // "0000:3b:00.0"

  // "sm_90" for compute capability 9.0.
  std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
};

// Properties of device `id`. Throws cupp::ValueError for an id outside [0, device_count())
// and cupp::CudaError when a CUDA query fails.
device_properties get_device_properties(int id);

}  // namespace cupp::cuda
