// Test and benchmark hooks of the ahead-of-time CUB accelerators (CUPP_ACCELERATORS=cub, the
// default): which routines use them is listed in docs/environment.md, docs/reductions.md and
// docs/scans.md. Process-wide switches, not for concurrent use with running work.
#pragma once

#include <cstdint>
#include <optional>

namespace cupp::detail {

// Overrides CUPP_ACCELERATORS for every CUB accelerator (reductions, scans, stream compaction
// and sorting): true / false force CUB on / off, nullopt follows the environment again.
// detail::set_sort_accelerator, where set, still decides for sorting alone. A build without the
// nvcc-compiled accelerators (CUPP_AOT_ACCELERATORS=OFF) never uses CUB.
void set_cub_accelerators(std::optional<bool> use_cub) noexcept;
// Whether the CUB accelerators are on now (the override, else CUPP_ACCELERATORS).
bool cub_accelerators_enabled() noexcept;

// How many CUB device algorithms this process has launched, by family, and in all.
struct accelerator_counts {
  std::uint64_t sort = 0, reduce = 0, scan = 0, select = 0;
};
accelerator_counts accelerator_launch_counts() noexcept;
std::uint64_t accelerator_launches() noexcept;

}  // namespace cupp::detail
