// The implementation of cupp/sorting.hpp: the sorting routines: sort, argsort, lexsort, partition, argpartition.
#include "cupp/sorting.hpp"

namespace cupp {

std::span<const routine_info> sorting_routines() noexcept { return {}; }

}  // namespace cupp
