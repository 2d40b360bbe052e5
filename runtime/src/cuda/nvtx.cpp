// NVTX ranges and markers for cupp::profiler and CUPP_NVTX_OPS, through the CUDA toolkit's
// header-only NVTX 3: without a profiler (or an NVTX_INJECTION64_PATH library) each call is a
// check of a null function pointer.
#include "cuda/nvtx.hpp"

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <array>
#include <string>
#include <type_traits>

#include "cupp/config.hpp"

namespace cupp::detail {
namespace {

// The attributes of a range or marker: an ASCII message, a colour when one is asked for, the payload.
struct attributes {
  nvtxEventAttributes_t value{};
  std::string text;

  attributes(std::string_view message, const profiler::range_options& options) : text(message) {
    value.version = NVTX_VERSION;
    value.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    value.messageType = NVTX_MESSAGE_TYPE_ASCII;
    value.message.ascii = text.c_str();
    const std::optional<std::uint32_t> color =
        options.argb_color ? options.argb_color : options.color_id ? palette_color(*options.color_id) : std::nullopt;
    if (color) {
      value.colorType = NVTX_COLOR_ARGB;
      value.color = *color;
    }
    std::visit(
        [&](auto p) {
          using P = decltype(p);
          if constexpr (std::is_same_v<P, std::int64_t>) {
            value.payloadType = NVTX_PAYLOAD_TYPE_INT64;
            value.payload.llValue = p;
          } else if constexpr (std::is_same_v<P, std::uint64_t>) {
            value.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
            value.payload.ullValue = p;
          } else if constexpr (std::is_same_v<P, double>) {
            value.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
            value.payload.dValue = p;
          }
        },
        options.payload);
  }
};

}  // namespace

std::optional<std::uint32_t> palette_color(int color_id) noexcept {
  // CuPy's nvtx colours: green, blue, yellow, magenta, cyan, red, white.
  static constexpr std::array<std::uint32_t, 7> palette = {0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF,
                                                           0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF};
  if (color_id < 0) return std::nullopt;
  return palette[static_cast<std::size_t>(color_id) % palette.size()];
}

void nvtx_push(std::string_view message, const profiler::range_options& options) {
  const attributes a(message, options);
  nvtxRangePushEx(&a.value);
}

void nvtx_pop() noexcept { nvtxRangePop(); }

void nvtx_mark(std::string_view message, const profiler::range_options& options) {
  const attributes a(message, options);
  nvtxMarkEx(&a.value);
}

bool nvtx_ops_enabled() noexcept {
  static const bool enabled = [] {
    try {
      return config::get().nvtx_ops;
    } catch (...) {  // a malformed environment is reported by the first call that needs it
      return false;
    }
  }();
  return enabled;
}

std::string kernel_label(const void* kernel) {
  const char* name = nullptr;
  if (cudaFuncGetName(&name, kernel) != cudaSuccess || name == nullptr) {
    static_cast<void>(cudaGetLastError());  // not sticky: clear it
    return "kernel";
  }
  return std::string("kernel ") + name;
}

void launch_range::push(const std::string& what) { nvtx_push("cupp." + what, {}); }

}  // namespace cupp::detail
