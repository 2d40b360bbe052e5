# Script mode (cmake -P): writes OUTPUT, a C++ file defining cupp::detail::embedded_headers(),
# the list of cupp's device headers (HEADER_ROOT/**/*.cuh) as (include name, contents) pairs.
file(GLOB_RECURSE _headers RELATIVE ${HEADER_ROOT} ${HEADER_ROOT}/*.cuh)
list(SORT _headers)
set(_body "")
foreach(_h IN LISTS _headers)
  file(READ ${HEADER_ROOT}/${_h} _text)
  string(APPEND _body "    {\"${_h}\", R\"cupp_embed(${_text})cupp_embed\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp
"// Generated at build time by cmake/CuppEmbed.cmake from runtime/device/: do not edit.
// cupp's device headers, embedded so that NVRTC finds them without files on disk.
#include \"compiler/embedded_headers.hpp\"

namespace cupp::detail {
std::span<const embedded_header> embedded_headers() noexcept {
  static constexpr embedded_header headers[] = {
${_body}  };
  return headers;
}
}  // namespace cupp::detail
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
