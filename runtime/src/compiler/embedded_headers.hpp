// Internal: cupp's own device headers (runtime/device/), embedded in the library at build time
// (cmake/CuppEmbed.cmake) and handed to NVRTC by include name.
#pragma once

#include <span>
#include <string_view>

namespace cupp::detail {

struct embedded_header {
  std::string_view name;      // include name, e.g. "cupp/dev/prelude.cuh"
  std::string_view contents;
};

std::span<const embedded_header> embedded_headers() noexcept;

}  // namespace cupp::detail
