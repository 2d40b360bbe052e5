// cupp's the searching, counting and set routines: searchsorted, digitize, bincount, histogram, unique and its forms, isin, intersect1d, union1d, setdiff1d, setxor1d.
#pragma once

#include <span>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/ndarray.hpp"

namespace cupp {

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> searching_routines() noexcept;

}  // namespace cupp
