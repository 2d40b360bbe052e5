// Internal to the fft module: cuFFT LTO ("JIT") callbacks. set_cufft_callbacks makes a callback
// set current for its thread; each distinct set (sources, symbol names, caller_info pointers) is
// interned once, so its address is the identity the plan cache keys on. A plan made under a set
// gets each callback's LTO-IR (NVRTC -dlto, relocatable, for the plan's device) attached with
// cufftXtSetJITCallback after cufftCreate and before planning.
#pragma once

#include <cstdint>
#include <string>

#include "plan_cache.hpp"

namespace cupp::fft::detail {

struct callback_set {
  std::string load, store;            // CUDA sources; empty: no such callback
  std::string load_name, store_name;  // the __device__ functions' names
  void* load_data = nullptr;
  void* store_data = nullptr;
};

// This thread's current set (null: none) and its identity for plan_key::callback (0: none).
const callback_set* current_callbacks() noexcept;
std::uintptr_t current_callback_identity() noexcept;

// The LTO-IR of one callback source for `arch`, with cuFFT's type names (cufftComplex, ...)
// declared first; cached in memory per (source, arch). CompileError from NVRTC.
const std::string& callback_ltoir(const std::string& source, int arch);

// Attaches the set's callbacks to the plan handle (before planning) for a transform of `kind`.
void attach_callbacks(int handle, const callback_set& set, transform_kind kind, bool double_precision, int device);

// Attaches cupp's own store callback, which multiplies every result by the float (single
// precision) or double at `factor` (device memory, its caller_info), to the plan handle before
// planning: the norm factor without a second pass.
void attach_scale_callback(int handle, transform_kind kind, bool double_precision, void* factor, int device);

// The source of cupp's store (or load, at_load) callback multiplying by `factor` written as a
// literal (hexadecimal, in the plan's precision), its symbol (one per factor, stored for the
// process: cuFFT keeps the pointer until planning) and its cufftXtCallbackType.
struct literal_scale_callback {
  const char* name;
  std::string source;
  int type;
};
literal_scale_callback literal_scale_source(transform_kind kind, bool double_precision, double factor, bool at_load);

// The same with the factor written into the callback's source as a literal (no caller_info), in a
// store callback or (at_load) in a load callback that scales each input as cuFFT reads it.
void attach_literal_scale_callback(int handle, transform_kind kind, bool double_precision, double factor, bool at_load,
                                   int device);

}  // namespace cupp::fft::detail
