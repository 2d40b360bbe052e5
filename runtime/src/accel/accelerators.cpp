// The switch and launch counters of the ahead-of-time CUB accelerators (accel/accelerators.hpp,
// cupp/accelerators.hpp). Compiled in every build: without the nvcc-compiled objects
// (CUPP_AOT_ACCELERATORS=OFF) the accelerators are never on and every counter stays 0.
#include "accel/accelerators.hpp"

#include <atomic>
#include <optional>

#include "cupp/accelerators.hpp"
#include "cupp/config.hpp"
#include "cupp/sorting.hpp"

namespace cupp::detail {

namespace {

std::atomic<std::uint64_t> reduce_launches{0}, scan_launches{0}, select_launches{0};
std::atomic<bool> forced_set{false}, forced_value{false};

std::atomic<std::uint64_t>& counter(accel::cub_family f) noexcept {
  switch (f) {
    case accel::cub_family::reduce: return reduce_launches;
    case accel::cub_family::scan: return scan_launches;
    case accel::cub_family::select: break;
  }
  return select_launches;
}

}  // namespace

void accel::note_cub_launch(cub_family family) noexcept { counter(family).fetch_add(1, std::memory_order_relaxed); }

std::uint64_t accel::cub_launches(cub_family family) noexcept { return counter(family).load(std::memory_order_relaxed); }

bool accel::cub_enabled() noexcept {
  if (!CUPP_HAVE_AOT_ACCELERATORS) return false;  // built without the nvcc-compiled CUB objects
  if (forced_set.load(std::memory_order_acquire)) return forced_value.load(std::memory_order_relaxed);
  try {
    return config::get().accelerator_enabled("cub");
  } catch (...) {
    return false;  // a malformed environment is reported by the calls that read it
  }
}

bool accel::cub_forced_on() noexcept {
  return CUPP_HAVE_AOT_ACCELERATORS && forced_set.load(std::memory_order_acquire) &&
         forced_value.load(std::memory_order_relaxed);
}

void set_cub_accelerators(std::optional<bool> use_cub) noexcept {
  forced_value.store(use_cub.value_or(false), std::memory_order_relaxed);
  forced_set.store(use_cub.has_value(), std::memory_order_release);
}

bool cub_accelerators_enabled() noexcept { return accel::cub_enabled(); }

accelerator_counts accelerator_launch_counts() noexcept {
  return {cub_sort_launches(), accel::cub_launches(accel::cub_family::reduce),
          accel::cub_launches(accel::cub_family::scan), accel::cub_launches(accel::cub_family::select)};
}

std::uint64_t accelerator_launches() noexcept {
  const accelerator_counts c = accelerator_launch_counts();
  return c.sort + c.reduce + c.scan + c.select;
}

}  // namespace cupp::detail
