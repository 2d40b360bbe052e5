# Script mode (cmake -P): writes OUTPUT, a C++ file defining <NAMESPACE>::embedded_headers(),
# the list of the device headers HEADER_ROOT/**/*.cuh as (include name, contents) pairs, and
# embedded_headers_digest(): SHA-256 of them all, computed here so that a process does not hash
# about 180 KB of headers before its first kernel cache lookup. Its input is, for each header in
# the list's order, "<bytes of name>:<name><bytes of contents>:<contents>" (the unit test
# EmbeddedHeaders.DigestMatchesTheHeaders recomputes it). NAMESPACE defaults to cupp::detail (the
# runtime's, runtime/device/); a module's (cmake/CuppModule.cmake) is cupp::<module>::detail, and
# HEADER (optional) is then also written: the declarations of its two functions.
if(NOT NAMESPACE)
  set(NAMESPACE cupp::detail)
endif()
file(GLOB_RECURSE _headers RELATIVE ${HEADER_ROOT} ${HEADER_ROOT}/*.cuh)
list(SORT _headers)
set(_body "")
# A module's embedded_headers() first registers the module's built-in kernel table
# (cmake/CuppAotKernels.cmake), so that every program the module makes can be found there.
set(_register_decl "")
set(_register_call "")
if(HEADER)
  set(_register_decl "void register_builtin_kernels() noexcept;  // cmake/CuppAotKernels.cmake\n")
  set(_register_call "  register_builtin_kernels();\n")
endif()
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
"// Generated at build time by cmake/CuppEmbed.cmake from ${HEADER_ROOT}: do not edit.
// Device headers, embedded so that NVRTC finds them without files on disk.
#include \"compiler/embedded_headers.hpp\"

namespace ${NAMESPACE} {
${_register_decl}std::span<const cupp::detail::embedded_header> embedded_headers() noexcept {
${_register_call}  static constexpr cupp::detail::embedded_header headers[] = {
${_body}  };
  return headers;
}
std::string_view embedded_headers_digest() noexcept { return \"${_digest}\"; }
}  // namespace ${NAMESPACE}
")
if(HEADER)
  file(WRITE ${HEADER}.tmp
"// Generated at build time by cmake/CuppEmbed.cmake: do not edit. The module's device headers
// (${HEADER_ROOT}), embedded; a routine_program (compiler/launch.hpp) of the module names them
// as {.headers = embedded_headers(), .headers_digest = embedded_headers_digest()}.
#pragma once

#include <span>
#include <string_view>

#include \"compiler/embedded_headers.hpp\"

namespace ${NAMESPACE} {
std::span<const cupp::detail::embedded_header> embedded_headers() noexcept;
std::string_view embedded_headers_digest() noexcept;
// Registers the module's built-in kernel table (defined in libcupp_<module>_kernels.a:
// cmake/CuppAotKernels.cmake); embedded_headers() calls it.
void register_builtin_kernels() noexcept;
}  // namespace ${NAMESPACE}
")
  file(COPY_FILE ${HEADER}.tmp ${HEADER} ONLY_IF_DIFFERENT)
  file(REMOVE ${HEADER}.tmp)
endif()
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
