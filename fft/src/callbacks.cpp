// cuFFT LTO callbacks (callbacks.hpp): the thread's current callback set, interned sets (their
// address is the plan cache's callback key), NVRTC LTO-IR for each callback source (cached in
// memory per source and architecture, and on disk through the kernel cache), and
// cufftXtSetJITCallback on a plan before it is planned.
#include "callbacks.hpp"

#include <cufft.h>
#include <cufftXt.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "compiler/kernel_cache.hpp"
#include "compiler/lto_link.hpp"
#include "compiler/nvrtc_program.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"

namespace cupp::fft::detail {

namespace {

thread_local const callback_set* current = nullptr;

std::mutex interned_mutex;
std::vector<std::unique_ptr<callback_set>>& interned() {
  static std::vector<std::unique_ptr<callback_set>> all;
  return all;
}

const callback_set* intern(callback_set s) {
  std::lock_guard lock(interned_mutex);
  for (const auto& p : interned())
    if (p->load == s.load && p->store == s.store && p->load_name == s.load_name && p->store_name == s.store_name &&
        p->load_data == s.load_data && p->store_data == s.store_data)
      return p.get();
  interned().push_back(std::make_unique<callback_set>(std::move(s)));
  return interned().back().get();
}

// cuFFT's type names, so that a callback needs no cuFFT header (NVRTC has float2 and double2).
constexpr const char* prelude =
    "typedef float2 cufftComplex;\ntypedef double2 cufftDoubleComplex;\n"
    "typedef float cufftReal;\ntypedef double cufftDoubleReal;\n#line 1\n";

void check(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS)
    throw CudaError(std::string(call) + " failed: cufftResult " + std::to_string(static_cast<int>(r)), static_cast<int>(r));
}

}  // namespace

const callback_set* current_callbacks() noexcept { return current; }
std::uintptr_t current_callback_identity() noexcept { return reinterpret_cast<std::uintptr_t>(current); }

const std::string& callback_ltoir(const std::string& source, int arch) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, std::string> cache;
  std::lock_guard lock(mutex);
  auto key = std::make_pair(source, arch);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  // through the kernel cache's disk layer: a later process reads the LTO-IR instead of compiling
  std::string ir = cupp::detail::kernel_cache::global().ltoir(
      {.name = "cupp_fft_callback", .source = prelude + source, .options = {}}, arch);
  return cache.emplace(std::move(key), std::move(ir)).first->second;
}

void attach_callbacks(int handle, const callback_set& set, transform_kind kind, bool dbl, int device) {
  const int arch = cupp::detail::nvrtc_arch_for(cuda::Device(device).compute_capability());
  const cufftHandle h = static_cast<cufftHandle>(handle);
  const bool real_in = kind == transform_kind::r2c, real_out = kind == transform_kind::c2r;
  if (!set.load.empty()) {
    const std::string& ir = callback_ltoir(set.load, arch);
    const cufftXtCallbackType type = real_in ? (dbl ? CUFFT_CB_LD_REAL_DOUBLE : CUFFT_CB_LD_REAL)
                                             : (dbl ? CUFFT_CB_LD_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX);
    void* info = set.load_data;
    check(cufftXtSetJITCallback(h, set.load_name.c_str(), ir.data(), ir.size(), type, &info), "cufftXtSetJITCallback (load)");
  }
  if (!set.store.empty()) {
    const std::string& ir = callback_ltoir(set.store, arch);
    const cufftXtCallbackType type = real_out ? (dbl ? CUFFT_CB_ST_REAL_DOUBLE : CUFFT_CB_ST_REAL)
                                              : (dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX);
    void* info = set.store_data;
    check(cufftXtSetJITCallback(h, set.store_name.c_str(), ir.data(), ir.size(), type, &info), "cufftXtSetJITCallback (store)");
  }
}

namespace {

// cupp's scaling store callbacks: complex and real results, single and double precision.
struct scale_callback {
  const char* name;
  const char* source;
  cufftXtCallbackType type;
};

scale_callback scale_callback_for(bool real_out, bool dbl) {
  if (real_out && dbl)
    return {"cupp_fft_scale_d",
            "__device__ void cupp_fft_scale_d(void* out, unsigned long long i, cufftDoubleReal v, void* info, void*) {\n"
            "  static_cast<cufftDoubleReal*>(out)[i] = v * __ldg(static_cast<const double*>(info));\n}\n",
            CUFFT_CB_ST_REAL_DOUBLE};
  if (real_out)
    return {"cupp_fft_scale_r",
            "__device__ void cupp_fft_scale_r(void* out, unsigned long long i, cufftReal v, void* info, void*) {\n"
            "  static_cast<cufftReal*>(out)[i] = v * __ldg(static_cast<const float*>(info));\n}\n",
            CUFFT_CB_ST_REAL};
  if (dbl)
    return {"cupp_fft_scale_z",
            "__device__ void cupp_fft_scale_z(void* out, unsigned long long i, cufftDoubleComplex v, void* info, void*) {\n"
            "  const double s = __ldg(static_cast<const double*>(info));\n"
            "  v.x *= s;\n  v.y *= s;\n  static_cast<cufftDoubleComplex*>(out)[i] = v;\n}\n",
            CUFFT_CB_ST_COMPLEX_DOUBLE};
  return {"cupp_fft_scale_c",
          "__device__ void cupp_fft_scale_c(void* out, unsigned long long i, cufftComplex v, void* info, void*) {\n"
          "  const float s = __ldg(static_cast<const float*>(info));\n"
          "  v.x *= s;\n  v.y *= s;\n  static_cast<cufftComplex*>(out)[i] = v;\n}\n",
          CUFFT_CB_ST_COMPLEX};
}

}  // namespace

void attach_scale_callback(int handle, transform_kind kind, bool dbl, void* factor, int device) {
  const int arch = cupp::detail::nvrtc_arch_for(cuda::Device(device).compute_capability());
  const scale_callback cb = scale_callback_for(kind == transform_kind::c2r, dbl);
  const std::string& ir = callback_ltoir(cb.source, arch);
  void* info = factor;
  check(cufftXtSetJITCallback(static_cast<cufftHandle>(handle), cb.name, ir.data(), ir.size(), cb.type, &info),
        "cufftXtSetJITCallback (the norm's store callback)");
}

literal_scale_callback literal_scale_source(transform_kind kind, bool dbl, double factor, bool at_load) {
  // The value side: real for an r2c load and a c2r store, complex otherwise.
  const bool real = at_load ? kind == transform_kind::r2c : kind == transform_kind::c2r;
  const char* type = real ? (dbl ? "cufftDoubleReal" : "cufftReal") : (dbl ? "cufftDoubleComplex" : "cufftComplex");
  char literal[64];
  if (dbl) std::snprintf(literal, sizeof literal, "%a", factor);
  else std::snprintf(literal, sizeof literal, "%af", static_cast<double>(static_cast<float>(factor)));
  // Each factor gets its own symbol (cupp_fft_scale_store_cs_<the factor's bits>), so that no
  // two callback sources share a name, kept in storage that lives as long as the process: with a
  // std::string that died after cufftXtSetJITCallback, every such plan fell back to the pass on
  // the H200 (cuFFT probably keeps the name's pointer until planning links the callback).
  std::uint64_t bits = 0;
  std::memcpy(&bits, &factor, sizeof bits);
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "_%016llx", static_cast<unsigned long long>(bits));
  const std::string name = std::string(at_load ? "cupp_fft_scale_load_" : "cupp_fft_scale_store_") + (real ? "r" : "c") +
                           (dbl ? "d" : "s") + suffix;
  static std::mutex names_mutex;
  static std::set<std::string> names;  // (nodes: a name's c_str() never moves)
  const char* stable = nullptr;
  {
    std::lock_guard lock(names_mutex);
    stable = names.insert(name).first->c_str();
  }
  const std::string scaled = real ? std::string("v * ") + literal
                                  : std::string("v; r.x *= ") + literal + "; r.y *= " + literal;
  std::string source;
  if (at_load)
    source = "__device__ " + std::string(type) + " " + name + "(void* in, unsigned long long i, void*, void*) {\n  const " +
             type + " v = static_cast<const " + type + "*>(in)[i];\n  " + type + " r = " + scaled + ";\n  return r;\n}\n";
  else
    source = "__device__ void " + name + "(void* out, unsigned long long i, " + type + " v, void*, void*) {\n  " + type +
             " r = " + scaled + ";\n  static_cast<" + type + "*>(out)[i] = r;\n}\n";
  const int cb_type =
      at_load ? (real ? (dbl ? CUFFT_CB_LD_REAL_DOUBLE : CUFFT_CB_LD_REAL) : (dbl ? CUFFT_CB_LD_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX))
              : (real ? (dbl ? CUFFT_CB_ST_REAL_DOUBLE : CUFFT_CB_ST_REAL)
                      : (dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX));
  return {stable, std::move(source), cb_type};
}

void attach_literal_scale_callback(int handle, transform_kind kind, bool dbl, double factor, bool at_load, int device) {
  const int arch = cupp::detail::nvrtc_arch_for(cuda::Device(device).compute_capability());
  const literal_scale_callback cb = literal_scale_source(kind, dbl, factor, at_load);
  const std::string& ir = callback_ltoir(cb.source, arch);
  void* info = nullptr;
  check(cufftXtSetJITCallback(static_cast<cufftHandle>(handle), cb.name, ir.data(), ir.size(),
                              static_cast<cufftXtCallbackType>(cb.type), &info),
        "cufftXtSetJITCallback (the norm's literal callback)");
}

}  // namespace cupp::fft::detail

namespace cupp::fft {

set_cufft_callbacks::set_cufft_callbacks(const cufft_callbacks& callbacks) : previous_(detail::current) {
  if (callbacks.load.empty() && callbacks.store.empty())
    throw ValueError("set_cufft_callbacks: give a load or a store callback (or both)");
  if ((!callbacks.load.empty() && callbacks.load_name.empty()) || (!callbacks.store.empty() && callbacks.store_name.empty()))
    throw ValueError("set_cufft_callbacks: a callback needs the name of its __device__ function");
  detail::current = detail::intern({.load = callbacks.load, .store = callbacks.store, .load_name = callbacks.load_name,
                                    .store_name = callbacks.store_name, .load_data = callbacks.load_data,
                                    .store_data = callbacks.store_data});
}

set_cufft_callbacks::~set_cufft_callbacks() { detail::current = static_cast<const detail::callback_set*>(previous_); }

}  // namespace cupp::fft
