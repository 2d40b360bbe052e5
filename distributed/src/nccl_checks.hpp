// Internal: the argument checks of the collectives, before any NCCL call (nccl.cpp), so that
// the unit tests reach them without a GPU.
#pragma once

#include <cstdint>
#include <string>

#include "cupp/ndarray.hpp"

namespace cupp::cuda::nccl::detail {

// "nccl <routine>", the start of every argument error.
std::string where(const char* routine);
// A buffer NCCL can take: a non-null array on `device`, C-contiguous, writeable when `written`
// (ValueError naming the routine and `name` otherwise).
void require_buffer(const ndarray& a, const char* routine, const char* name, int device, bool written);
// TypeError unless send and recv have one dtype.
void require_same_dtype(const ndarray& send, const ndarray& recv, const char* routine);
// ValueError unless a has `expected` elements (`why` says where the count comes from).
void require_elements(const ndarray& a, std::int64_t expected, const char* routine, const char* name,
                      const std::string& why);
// ValueError unless 0 <= r < size (`what`: "rank", "root", "peer").
void require_rank(int r, int size, const char* routine, const char* what);

}  // namespace cupp::cuda::nccl::detail
