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

// Whether the test/benchmark override (detail::set_cub_accelerators(true)) forces CUB on. The
// CUB paths that measured slower than cupp's own kernels on the H200 benchmark (max/min/argmax/
// argmin and stream compaction: docs/performance.md) run only then; CUPP_ACCELERATORS=cub alone
// takes the ones that pay (sorting, sum/prod, integer scans).
bool cub_forced_on() noexcept;

}  // namespace cupp::detail::accel
