// Internal: the handle of this thread's current stream on a device, without building a Stream
// (no CUDA call, no reference count): the element-wise launcher's hot path.
#pragma once

#include "cupp/cuda/stream.hpp"

namespace cupp::cuda::detail {

stream_handle current_stream_handle(int device);

}  // namespace cupp::cuda::detail
