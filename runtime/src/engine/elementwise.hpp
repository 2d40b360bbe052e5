// Internal: runs one loop of an op over arrays on the GPU — the element-wise engine's launcher.
// It plans the layout (layout_plan.hpp), describes the kernel (kernel_composer.hpp), finds it in
// the kernel cache (compiling on a miss), packs the parameters the accessors expect and launches
// on the current stream of the arrays' device. Callers have resolved the loop, allocated the
// outputs, broadcast the inputs and checked casting; nothing here synchronizes.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/ops.hpp"

namespace cupp::engine {

struct ew_input {
  ndarray array;                  // broadcast to the outputs' shape; a null handle for a value
  std::vector<std::byte> value;   // a scalar already in the loop's input dtype (when no array)
};

// Runs loop `loop` of `op`: outputs share one shape and device; inputs are arrays broadcast to
// that shape (any dtype: cast in registers) or values; `where` is a bool array broadcast to the
// shape, or a null handle.
void run_elementwise(const op_spec& op, std::size_t loop, std::span<const ew_input> inputs,
                     std::span<const ndarray> outputs, const ndarray& where);

}  // namespace cupp::engine
