// Internal: the switch and the launch counters of the ahead-of-time CUB accelerators
// (CUPP_ACCELERATORS=cub). Plain C++ (the .cu files include it too); the public test hooks are
// in cupp/accelerators.hpp.
#pragma once

#include <cstdint>

namespace cupp::detail::accel {

enum class cub_family { reduce, scan, select };

// Counts one CUB device-algorithm launch of `family` (called by the .cu files).
void note_cub_launch(cub_family family) noexcept;
std::uint64_t cub_launches(cub_family family) noexcept;

// Whether cupp was built with the nvcc-compiled accelerators and they are on now (the test
// override, else CUPP_ACCELERATORS lists `cub`).
bool cub_enabled() noexcept;

// Whether the test/benchmark override (detail::set_cub_accelerators(true)) forces CUB on: then
// every CUB path runs, also those cub_dispatch.hpp's cub_pays leaves to cupp's own kernels.
bool cub_forced_on() noexcept;

}  // namespace cupp::detail::accel
