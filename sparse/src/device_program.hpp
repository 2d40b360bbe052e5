// Internal to the sparse module: the NVRTC program of its own kernels (sparse/device/cupp/sparse/),
// for the module and for the host test that compiles it without a GPU.
#pragma once

#include "compiler/launch.hpp"

namespace cupp::sparse::detail {

// cupp_sparse_expand_ptr_i64 from the embedded device header cupp/sparse/expand.cuh.
cupp::detail::routine_program expand_program();

}  // namespace cupp::sparse::detail
