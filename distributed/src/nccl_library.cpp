// libnccl at run time: dlopen of the first library that loads, its entry points by dlsym, and
// NCCL's results as cupp::CudaError. The library is never closed once loaded (NCCL keeps
// threads and handles for the process).
#include "nccl_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "cupp/config.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda::nccl::detail {

namespace {

template <class F>
bool resolve(void* handle, const char* symbol, F& out, std::string& error) {
  dlerror();
  void* p = dlsym(handle, symbol);
  if (p == nullptr) {
    const char* why = dlerror();
    error = std::string("dlsym(") + symbol + ") failed" + (why ? std::string(": ") + why : std::string());
    return false;
  }
  out = reinterpret_cast<F>(p);
  return true;
}

struct process_library {
  bool loaded = false;
  api functions;
  std::string errors;
};

const process_library& the_library() noexcept {
  static const process_library lib = []() noexcept {
    process_library out;
    try {
      std::string root;
      try {
        const std::string include = cupp::config::cuda_include_dir();
        root = include.size() > 8 && include.ends_with("/include") ? include.substr(0, include.size() - 8) : include;
      } catch (...) {
        root.clear();
      }
      for (const std::string& name : library_candidates(std::getenv("CUPP_NCCL_LIBRARY"), root)) {
        load_result r = load_library(name);
        if (r.loaded) {
          out.loaded = true;
          out.functions = std::move(r.functions);
          out.errors.clear();
          return out;
        }
        if (!out.errors.empty()) out.errors += "; ";
        out.errors += r.error;
      }
    } catch (...) {
      out.errors = "loading libnccl failed with an exception";
    }
    return out;
  }();
  return lib;
}

}  // namespace

load_result load_library(const std::string& name) {
  load_result r;
  dlerror();
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    r.error = "dlopen(" + name + ") failed: " + (why ? why : "unknown error");
    return r;
  }
  api& f = r.functions;
  f.handle = handle;
  f.path = name;
  std::string& e = r.error;
  const bool ok =
      resolve(handle, "ncclGetVersion", f.GetVersion, e) && resolve(handle, "ncclGetUniqueId", f.GetUniqueId, e) &&
      resolve(handle, "ncclCommInitRank", f.CommInitRank, e) && resolve(handle, "ncclCommInitAll", f.CommInitAll, e) &&
      resolve(handle, "ncclCommDestroy", f.CommDestroy, e) && resolve(handle, "ncclCommAbort", f.CommAbort, e) &&
      resolve(handle, "ncclCommCount", f.CommCount, e) && resolve(handle, "ncclCommCuDevice", f.CommCuDevice, e) &&
      resolve(handle, "ncclCommUserRank", f.CommUserRank, e) &&
      resolve(handle, "ncclCommGetAsyncError", f.CommGetAsyncError, e) &&
      resolve(handle, "ncclGetErrorString", f.GetErrorString, e) &&
      resolve(handle, "ncclGetLastError", f.GetLastError, e) && resolve(handle, "ncclAllReduce", f.AllReduce, e) &&
      resolve(handle, "ncclReduce", f.Reduce, e) && resolve(handle, "ncclBroadcast", f.Broadcast, e) &&
      resolve(handle, "ncclBcast", f.Bcast, e) && resolve(handle, "ncclAllGather", f.AllGather, e) &&
      resolve(handle, "ncclReduceScatter", f.ReduceScatter, e) && resolve(handle, "ncclSend", f.Send, e) &&
      resolve(handle, "ncclRecv", f.Recv, e) && resolve(handle, "ncclGroupStart", f.GroupStart, e) &&
      resolve(handle, "ncclGroupEnd", f.GroupEnd, e);
  if (ok) {
    int version = 0;
    const ncclResult_t rc = f.GetVersion(&version);
    if (rc != ncclSuccess) {
      e = name + ": ncclGetVersion failed: " + result_name(rc);
    } else if (version < min_version) {
      e = name + ": NCCL " + std::to_string(version) + " is older than 2.10 (" + std::to_string(min_version) +
          "), the first with bfloat16 and ncclAvg";
    } else {
      f.version = version;
      r.loaded = true;
      return r;
    }
  } else {
    e = name + ": " + e;
  }
  dlclose(handle);
  r.functions = api{};
  return r;
}

std::vector<std::string> library_candidates(const char* override_value, const std::string& cuda_root) {
  if (override_value != nullptr && *override_value != '\0') return {override_value};
  std::vector<std::string> names{"libnccl.so.2"};
  if (!cuda_root.empty() && cuda_root != "/usr/local/cuda") names.push_back(cuda_root + "/lib64/libnccl.so.2");
  names.push_back("/usr/local/cuda/lib64/libnccl.so.2");
  return names;
}

const api* try_library() noexcept {
  const process_library& lib = the_library();
  return lib.loaded ? &lib.functions : nullptr;
}

const std::string& load_errors() noexcept { return the_library().errors; }

const api& library(const char* call) {
  const api* nccl = try_library();
  if (nccl == nullptr)
    throw CudaError(std::string(call) + ": NCCL is not available: " + load_errors() +
                        " (set CUPP_NCCL_LIBRARY to libnccl's path, or add its folder to LD_LIBRARY_PATH)",
                    -1);
  return *nccl;
}

const char* result_name(int result) noexcept {
  switch (result) {
    case ncclSuccess: return "ncclSuccess";
    case ncclUnhandledCudaError: return "ncclUnhandledCudaError";
    case ncclSystemError: return "ncclSystemError";
    case ncclInternalError: return "ncclInternalError";
    case ncclInvalidArgument: return "ncclInvalidArgument";
    case ncclInvalidUsage: return "ncclInvalidUsage";
    case ncclRemoteError: return "ncclRemoteError";
    case ncclInProgress: return "ncclInProgress";
    default: return "unknown ncclResult_t";
  }
}

void throw_nccl_error(const api& nccl, int result, const char* call, ncclComm_t comm) {
  std::string msg = std::string(call) + " failed: " + result_name(result);
  if (nccl.GetErrorString != nullptr) {
    const char* text = nccl.GetErrorString(static_cast<ncclResult_t>(result));
    if (text != nullptr && *text != '\0') msg += std::string(" (") + text + ")";
  }
  if (nccl.GetLastError != nullptr) {
    const char* last = nccl.GetLastError(comm);
    if (last != nullptr && *last != '\0') msg += std::string(": ") + last;
  }
  throw CudaError(msg, result);
}

}  // namespace cupp::cuda::nccl::detail
