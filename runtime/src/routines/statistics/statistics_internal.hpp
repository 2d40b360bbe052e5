// Internal: what the statistics routines (statistics.cpp, quantile.cpp) share: NumPy's
// normalize_axis_tuple, the null-array check, and isclose's fused kernel.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/statistics.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::detail::stats {

// numpy.normalize_axis_tuple: every axis in [-ndim, ndim) made non-negative, in the given order;
// AxisError "axis 3 is out of bounds for array of dimension 2", ValueError "repeated axis".
std::vector<int> normalize_axes(std::span<const std::int64_t> axes, int ndim, std::string_view routine);

// A null array is a ValueError naming the routine.
void require_array(const ndarray& a, std::string_view routine);

// isclose's fused kernel for one compute dtype D = result_type(a, y) (float16, bfloat16, float32,
// float64): "D x, Y y, Y atol, Y rtol" -> "bool z", y of its inexact dtype Y.
const ElementwiseKernel& isclose_kernel(const dtype& compute, bool equal_nan);
// isclose as NumPy's composition of ufuncs (any operands; what the fused kernel must agree with).
ndarray isclose_composed(const operand& a, const operand& b, const isclose_options& options);

}  // namespace cupp::detail::stats
