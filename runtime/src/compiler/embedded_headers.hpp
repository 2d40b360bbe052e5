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
// SHA-256 (lower-case hex) of every header's name and contents, computed at build time
// (cmake/CuppEmbed.cmake says over what); part of every kernel cache key.
std::string_view embedded_headers_digest() noexcept;

}  // namespace cupp::detail
