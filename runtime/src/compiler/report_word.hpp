// Internal: the host side of a program's data-dependent error report (DESIGN.md: an op that
// checks its data, such as an out-of-bounds index or an integer to a negative power, reads the
// result once at its end). A kernel that reports also sets a word of mapped pinned host memory
// through the program's `extern "C" __device__ unsigned int* <symbol>`, so an op without an error
// learns so from the stream sync that ends it, with no copy back; only a set word makes the op
// read the program's device-side details. One word per (module, device, symbol), for the process.
#pragma once

#include <cuda_runtime.h>

namespace cupp::detail {

class kernel_module;

// The host address of module m's report word on `device` (which must be current). The first call
// for a (module, device, symbol) allocates the word and writes its device address into the
// program's pointer `symbol`; call it before the first launch that may report. Thread-safe.
volatile unsigned* report_word(const kernel_module& m, int device, const char* symbol);

// Waits for `stream`; returns true when the word was set (a kernel reported), and clears it.
bool wait_for_report(volatile unsigned* word, cudaStream_t stream);

}  // namespace cupp::detail
