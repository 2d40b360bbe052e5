// Device and version queries behind cupp/cuda/runtime_info.hpp. Every CUDA return code is
// checked; "no driver" and "no device" are answers here, not errors.
#include "cupp/cuda/runtime_info.hpp"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <array>
#include <string>

#include "check.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {

namespace {

using detail::check;

// Errors of cudaGetDeviceCount that mean "CUDA cannot be used here" rather than a fault.
bool means_no_device(cudaError_t err) noexcept {
  return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver;
}

}  // namespace

bool is_available() noexcept {
  try {
    return device_count() > 0;
  } catch (...) {
    return false;
  }
}

int device_count() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess) return count;
  // The failed query leaves a non-sticky error behind; clear it so later calls start clean.
  (void)cudaGetLastError();
  if (means_no_device(err)) return 0;
  detail::throw_cuda_error(err, "cudaGetDeviceCount");
}

int runtime_version_linked() noexcept { return CUDART_VERSION; }

int runtime_version() {
  int version = 0;
  check(cudaRuntimeGetVersion(&version), "cudaRuntimeGetVersion");
  return version;
}

int driver_version() {
  int version = 0;
  // Succeeds with 0 when no driver is installed.
  check(cudaDriverGetVersion(&version), "cudaDriverGetVersion");
  return version;
}

int nvrtc_version() {
  int major = 0, minor = 0;
  const nvrtcResult res = nvrtcVersion(&major, &minor);
  if (res != NVRTC_SUCCESS) {
    throw CudaError(std::string("nvrtcVersion failed: ") + nvrtcGetErrorString(res),
                    static_cast<int>(res));
  }
  return major * 1000 + minor * 10;
}

std::string version_string(int version) {
  if (version <= 0) return "none";
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

device_properties get_device_properties(int id) {
  const int count = device_count();
  if (id < 0 || id >= count) {
    throw ValueError("Invalid CUDA device id " + std::to_string(id) + " (" + std::to_string(count) +
                     " device(s) present)");
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, id), "cudaGetDeviceProperties");

  device_properties p;
  p.id = id;
  p.name = prop.name;
  p.major = prop.major;
  p.minor = prop.minor;
  p.total_memory = prop.totalGlobalMem;
  p.multiprocessor_count = prop.multiProcessorCount;
  p.max_threads_per_block = prop.maxThreadsPerBlock;
  p.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
  p.warp_size = prop.warpSize;
  p.shared_memory_per_block = prop.sharedMemPerBlock;
  p.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
  p.shared_memory_per_multiprocessor = prop.sharedMemPerMultiprocessor;
  p.registers_per_block = prop.regsPerBlock;
  p.l2_cache_size = prop.l2CacheSize;
  p.memory_bus_width = prop.memoryBusWidth;
  p.ecc_enabled = prop.ECCEnabled != 0;
  p.integrated = prop.integrated != 0;
  p.concurrent_managed_access = prop.concurrentManagedAccess != 0;

  std::array<char, 32> bus{};
  check(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), id), "cudaDeviceGetPCIBusId");
  p.pci_bus_id = bus.data();
  return p;
}

}  // namespace cupp::cuda
