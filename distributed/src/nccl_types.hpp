// Internal: how a cupp dtype travels through NCCL. A reduction needs NCCL's own element type
// (complex as pairs of floats, bool as uint8 with NumPy's logical meaning of sum and prod); data
// that only moves (broadcast, all_gather, send, recv) goes as bytes, whatever its dtype.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <string_view>

#include "cupp/cuda/nccl.hpp"
#include "cupp/dtype.hpp"

namespace cupp::cuda::nccl::detail {

struct reduction_type {
  ncclDataType_t type;      // NCCL's element type
  std::size_t per_element;  // NCCL elements per array element (2 for complex)
  ncclRedOp_t op;           // NCCL's op (bool: sum -> max, prod -> min)
};

// The NCCL form of reducing `type` with `op`; TypeError naming `routine`, the dtype and the op
// when NCCL cannot (int16, uint16, complex prod/max/min, bool avg, void and structured dtypes).
reduction_type reduction_type_of(const cupp::dtype& type, reduce_op op, std::string_view routine);

ncclRedOp_t nccl_op(reduce_op op) noexcept;

}  // namespace cupp::cuda::nccl::detail
