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
#include "engine/kernel_composer.hpp"

namespace cupp::engine {

struct ew_input {
  ndarray array;                  // broadcast to the outputs' shape; a null handle for a value
  std::vector<std::byte> value;   // a scalar already in the loop's input dtype (when no array)
};

// One operand of a launch, as the kernel reaches it.
struct launch_operand {
  std::byte* pointer = nullptr;                  // element 0 (arrays)
  detail::operand_access kind = detail::operand_access::dense;
  type_id storage = type_id::float64;            // dtype in memory (a value: the loop's dtype)
  std::span<const std::int64_t> strides;         // planned byte strides (strided and rows)
  std::span<const std::byte> value;              // a value's bytes
};

// Runs loop `loop` of `op`: outputs share one shape and device; inputs are arrays broadcast to
// that shape (any dtype: cast in registers) or values; `where` is a bool array broadcast to the
// shape, or a null handle.
void run_elementwise(const op_spec& op, std::size_t loop, std::span<const ew_input> inputs,
                     std::span<const ndarray> outputs, const ndarray& where);

// The fast path of a call whose arrays are all C-contiguous with the result's n elements (dense
// operands) or values: no planning. Operands are the inputs, then the outputs.
void run_contiguous(const op_spec& op, std::size_t loop, std::int64_t n, std::span<launch_operand> operands,
                    int device);

// The kernel description a launch makes for planned operands (inputs then outputs; `extents` the
// plan's collapsed extents, `where` the mask or null): layout class, index and vector widths and
// each operand's access. It marks transposed inputs of a 2-D launch tiled and vector-aligned
// strided operands rows (in `ops`). No GPU: the tests check with it which program serves a layout.
detail::kernel_desc describe_launch(const op_spec& op, std::size_t loop, std::int64_t n,
                                    std::span<const std::int64_t> extents, std::int64_t max_byte_offset,
                                    std::span<launch_operand> ops, launch_operand* where);

}  // namespace cupp::engine
