// Internal: what ufunc.reduce (reduction.cpp) and ufunc.accumulate (scan.cpp) share: NumPy's
// default result dtype of a reduction or accumulation, the loop that combines accumulators, and
// the device's multiprocessor count and a kernel's resident blocks (both size their grids by them).
#pragma once

#include <cstddef>
#include <string_view>

#include "cupp/dtype.hpp"
#include "cupp/ops.hpp"

namespace cupp::engine {

// NumPy's default result dtype of op.reduce / op.accumulate: ops whose spec says
// reduce_widens_ints (add, multiply) widen bool and integers narrower than 64 bits to int64
// (uint64 for unsigned); logical ops give bool; others keep the input's.
dtype default_result(const op_spec& op, const dtype& in);

// The loop of `op` that combines accumulators of dtype `acc` (acc, acc -> acc). `method` names
// the caller in errors ("reduce", "accumulate"): ValueError for an op that is not binary,
// TypeError when no loop combines `acc`.
std::size_t combining_loop(const op_spec& op, type_id acc, std::string_view method);

// The number of multiprocessors of `device` (asked once per device, then remembered).
int sm_count(int device);

// How many blocks of `threads` threads of `kernel` (a kernel_module function, no dynamic shared
// memory) fit on one multiprocessor at once (asked once per kernel, then remembered; 8 when the
// runtime cannot tell). Grids of sm_count * this many blocks run in one wave.
int resident_blocks(const void* kernel, int threads);

}  // namespace cupp::engine
