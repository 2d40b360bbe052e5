// Internal: libnccl loaded at run time (dlopen), its entry points, and NCCL's error reporting.
// nccl.h gives the types and the functions' signatures only; nothing links libnccl, so a
// program that links the distributed module starts where NCCL is absent.
#pragma once

#include <nccl.h>

#include <string>
#include <vector>

namespace cupp::cuda::nccl::detail {

// The entry points cupp calls, resolved by name from one loaded libnccl.
struct api {
  void* handle = nullptr;  // dlopen's handle (the library stays loaded for the process)
  std::string path;        // the name or path it was loaded from
  int version = 0;         // ncclGetVersion
  decltype(&ncclGetVersion) GetVersion = nullptr;
  decltype(&ncclGetUniqueId) GetUniqueId = nullptr;
  decltype(&ncclCommInitRank) CommInitRank = nullptr;
  decltype(&ncclCommInitAll) CommInitAll = nullptr;
  decltype(&ncclCommDestroy) CommDestroy = nullptr;
  decltype(&ncclCommAbort) CommAbort = nullptr;
  decltype(&ncclCommCount) CommCount = nullptr;
  decltype(&ncclCommCuDevice) CommCuDevice = nullptr;
  decltype(&ncclCommUserRank) CommUserRank = nullptr;
  decltype(&ncclCommGetAsyncError) CommGetAsyncError = nullptr;
  decltype(&ncclGetErrorString) GetErrorString = nullptr;
  decltype(&ncclGetLastError) GetLastError = nullptr;
  decltype(&ncclAllReduce) AllReduce = nullptr;
  decltype(&ncclReduce) Reduce = nullptr;
  decltype(&ncclBroadcast) Broadcast = nullptr;
  decltype(&ncclBcast) Bcast = nullptr;
  decltype(&ncclAllGather) AllGather = nullptr;
  decltype(&ncclReduceScatter) ReduceScatter = nullptr;
  decltype(&ncclSend) Send = nullptr;
  decltype(&ncclRecv) Recv = nullptr;
  decltype(&ncclGroupStart) GroupStart = nullptr;
  decltype(&ncclGroupEnd) GroupEnd = nullptr;
};

// The oldest NCCL cupp accepts: 2.10 (bfloat16 and ncclAvg).
inline constexpr int min_version = 21000;

// The outcome of loading one library: `loaded` set, or `error` saying why not (dlopen's or
// dlsym's message, or a version too old). Never throws; a failed load leaves nothing open.
struct load_result {
  bool loaded = false;
  api functions;
  std::string error;
};
load_result load_library(const std::string& name);

// The names the process-wide library is looked for under: CUPP_NCCL_LIBRARY alone when set (a
// name or a path), else "libnccl.so.2" (the loader's search path), then <CUDA root>/lib64 and
// /usr/local/cuda/lib64.
std::vector<std::string> library_candidates(const char* override_value, const std::string& cuda_root);

// The process-wide library, loaded on first use (thread-safe): nullptr when none loaded, with
// the reasons in load_errors().
const api* try_library() noexcept;
const std::string& load_errors() noexcept;
// try_library(), or CudaError("dlopen(libnccl) failed: ..." ) naming `call`.
const api& library(const char* call);

// "ncclInvalidArgument" and the like ("ncclResult_t <n>" for an unknown value).
const char* result_name(int result) noexcept;
// Throws CudaError("<call> failed: <name> (<NCCL's string>)[: <NCCL's last error>]", result).
[[noreturn]] void throw_nccl_error(const api& nccl, int result, const char* call, ncclComm_t comm);
inline void check(const api& nccl, ncclResult_t result, const char* call, ncclComm_t comm = nullptr) {
  if (result != ncclSuccess) [[unlikely]]
    throw_nccl_error(nccl, static_cast<int>(result), call, comm);
}

}  // namespace cupp::cuda::nccl::detail
