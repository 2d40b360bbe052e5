// Internal: the host side of the element-wise engine's layout classes, as pure functions (no
// CUDA): NumPy's order='K' axis order for new outputs, and the plan of one launch — length-1
// axes dropped, axes that every operand walks backwards flipped, axes sorted so the innermost
// comes last, adjacent axes collapsed where every operand allows, and each operand classified
// (dense, broadcast single element, or strided). One dense dimension after collapsing is the
// contiguous class (vector loads); anything else the strided class with N dimensions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/host_array.hpp"  // shape_t

namespace cupp::engine {

// One array operand as the planner sees it: strides already broadcast to the common shape.
struct plan_input {
  std::span<const std::int64_t> strides;  // bytes, one per axis of the common shape
  std::int64_t itemsize;
};

enum class access { dense, broadcast, strided };

struct operand_plan {
  access kind = access::dense;
  shape_t strides;                 // bytes, one per planned dimension (outermost first)
  std::int64_t byte_shift = 0;     // added to the operand's data pointer (flipped axes)
};

struct launch_plan {
  std::int64_t size = 0;           // elements; 0: nothing to launch
  bool contiguous = false;         // the contiguous class: one dense dimension
  shape_t extents;                 // planned dimensions, outermost first
  std::vector<operand_plan> operands;
  // The largest |byte offset| any operand reaches from its (shifted) pointer: decides 32-bit
  // indexing together with `size`.
  std::int64_t max_byte_offset = 0;
};

// NumPy's order='K': the axes of `shape` from outermost to innermost as the operands' strides
// suggest (the first operand with nonzero strides on both axes decides; ties keep C order).
std::vector<int> k_order(std::span<const std::int64_t> shape, std::span<const plan_input> operands);
// C-contiguous strides of `shape` laid out in `order` (outermost first).
shape_t strides_in_order(std::span<const std::int64_t> shape, std::span<const int> order, std::int64_t itemsize);

launch_plan plan_launch(std::span<const std::int64_t> shape, std::span<const plan_input> operands);

}  // namespace cupp::engine
