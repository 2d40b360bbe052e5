// cupp's the statistics and logic routines: median, percentile, quantile and their nan forms, average, cov, corrcoef, isclose, allclose, array_equal, array_equiv.
#pragma once

#include <span>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/ndarray.hpp"

namespace cupp {

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> statistics_routines() noexcept;

}  // namespace cupp
