// Internal: cupp's NVTX calls (the header-only NVTX 3 of the CUDA toolkit stays in nvtx.cpp). A
// range is pushed on the calling thread and popped by the guard's destructor; launch_range names
// a kernel launch when CUPP_NVTX_OPS=1 and costs one predictable branch otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cupp/profiler.hpp"

namespace cupp::detail {

void nvtx_push(std::string_view message, const profiler::range_options& options);
void nvtx_pop() noexcept;
void nvtx_mark(std::string_view message, const profiler::range_options& options);

// The ARGB colour of CuPy's palette entry `color_id` (taken modulo 7; negative: none).
std::optional<std::uint32_t> palette_color(int color_id) noexcept;

// CUPP_NVTX_OPS, read once from cupp::config.
bool nvtx_ops_enabled() noexcept;

// A kernel's name as CUDA reports it (cudaFuncGetName), for launches that have no op to name.
std::string kernel_label(const void* kernel);

// A range around one kernel launch, named "cupp.<what>": active only when CUPP_NVTX_OPS=1, when
// the label (a callable returning the name, built only then) is made.
class launch_range {
 public:
  template <class Label>
  explicit launch_range(Label&& label) : active_(nvtx_ops_enabled()) {
    if (active_) [[unlikely]]
      push(std::forward<Label>(label)());
  }
  ~launch_range() {
    if (active_) nvtx_pop();
  }
  launch_range(const launch_range&) = delete;
  launch_range& operator=(const launch_range&) = delete;

 private:
  static void push(const std::string& what);
  bool active_;
};

}  // namespace cupp::detail
