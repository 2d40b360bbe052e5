// Internal: what the statistics routines (statistics.cpp, quantile.cpp) share: NumPy's
// normalize_axis_tuple and the 0-d helpers.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::detail::stats {

// numpy.normalize_axis_tuple: every axis in [-ndim, ndim) made non-negative, in the given order;
// AxisError "axis 3 is out of bounds for array of dimension 2", ValueError "repeated axis".
std::vector<int> normalize_axes(std::span<const std::int64_t> axes, int ndim, std::string_view routine);

// A null array is a ValueError naming the routine.
void require_array(const ndarray& a, std::string_view routine);

}  // namespace cupp::detail::stats
