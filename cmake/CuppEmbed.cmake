# Script mode (cmake -P): writes OUTPUT, a C++ file defining cupp::detail::embedded_headers(),
# the list of cupp's device headers (HEADER_ROOT/**/*.cuh) as (include name, contents) pairs, and
# embedded_headers_digest(): SHA-256 of them all, computed here so that a process does not hash
# about 180 KB of headers before its first kernel cache lookup. Its input is, for each header in
# the list's order, "<bytes of name>:<name><bytes of contents>:<contents>" (the unit test
# EmbeddedHeaders.DigestMatchesTheHeaders recomputes it).
file(GLOB_RECURSE _headers RELATIVE ${HEADER_ROOT} ${HEADER_ROOT}/*.cuh)
list(SORT _headers)
set(_body "")
set(_digest_input "")
foreach(_h IN LISTS _headers)
  file(READ ${HEADER_ROOT}/${_h} _text)
  string(LENGTH "${_h}" _name_bytes)
  string(LENGTH "${_text}" _text_bytes)
  string(APPEND _digest_input "${_name_bytes}:${_h}${_text_bytes}:${_text}")
  string(APPEND _body "    {\"${_h}\", R\"cupp_embed(${_text})cupp_embed\"},\n")
endforeach()
string(SHA256 _digest "${_digest_input}")
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
std::string_view embedded_headers_digest() noexcept { return \"${_digest}\"; }
}  // namespace cupp::detail
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
