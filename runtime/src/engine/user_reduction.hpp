// Internal: ReductionKernel's entry into the reduction engine (engine/reduce_plan.hpp, run from
// reduction_kernel.cpp). The user's composed functors (kernel_composer.hpp's user_reduction) run
// through the same collapse of kept and reduced dimensions, rows/columns classes and two-pass
// split as the built-in reductions.
#pragma once

#include <string>

#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"
#include "engine/kernel_composer.hpp"

namespace cupp::engine {

// Reduces `a` over `axis` (AxisError, ValueError for repeated axes, as NumPy) with `r`,
// accumulating in `acc`, into a new array of dtype `result` (keepdims: the reduced axes kept
// with length 1); with `out`, the result is copied there (shape checked, same_kind cast) and
// `out` returned. An empty reduction without identity is a ValueError naming `function`.
ndarray run_user_reduction(const detail::user_reduction& r, const ndarray& a, const axes& axis, bool keepdims,
                           const ndarray& out, type_id acc, type_id result, const std::string& function);

}  // namespace cupp::engine
