// Internal: the shared layout behind a void or structured cupp::dtype (its itemsize, alignment
// and fields). Other runtime sources may include it to walk a layout directly.
#pragma once

#include <cstddef>
#include <vector>

#include "cupp/dtype.hpp"

namespace cupp::detail {

struct composite_layout {
  std::size_t itemsize = 0;
  std::size_t alignment = 1;  // 1 for void and packed structs; the largest field's when aligned
  bool aligned = false;       // made with align=true (NumPy's isalignedstruct)
  std::vector<field> fields;  // in declared order; empty for void
};

}  // namespace cupp::detail
