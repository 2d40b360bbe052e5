// Internal to the sparse module: the NVRTC program of its own kernels (sparse/device/cupp/sparse/),
// for the module and for the host test that compiles it without a GPU.
#pragma once

#include <cstdint>

#include "compiler/launch.hpp"

namespace cupp::sparse::detail {

// cupp_sparse_expand_ptr_i32 (kernel 0) and _i64 (kernel 1) from the embedded device header
// cupp/sparse/expand.cuh, launched with expand_threads threads per block, one block per
// expand_chunk entries (the header's expand_threads * expand_per_thread).
cupp::detail::routine_program expand_program();
inline constexpr unsigned expand_threads = 256;
inline constexpr std::int64_t expand_chunk = 256 * 8;

}  // namespace cupp::sparse::detail
