// cupp's the sorting routines: sort, argsort, lexsort, partition, argpartition.
#pragma once

#include <span>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/ndarray.hpp"

namespace cupp {

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> sorting_routines() noexcept;

}  // namespace cupp
