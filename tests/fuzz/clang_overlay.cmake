# Copies cupp/host_array.hpp and cupp/ndarray.hpp for the clang-built fuzzer (cmake -P), with
# `constexpr cupp::dtype f()` declarations made `inline`: clang 14 rejects a constexpr function
# returning the non-literal cupp::dtype, which g++ accepts. A no-op once the headers drop it.
#   -DINCLUDE_DIR=<runtime/include> -DOUTPUT=<overlay dir>
foreach(_h host_array.hpp ndarray.hpp)
  file(READ ${INCLUDE_DIR}/cupp/${_h} _text)
  string(REPLACE "constexpr cupp::dtype " "inline cupp::dtype " _text "${_text}")
  file(WRITE ${OUTPUT}/cupp/${_h}.tmp "${_text}")
  file(COPY_FILE ${OUTPUT}/cupp/${_h}.tmp ${OUTPUT}/cupp/${_h} ONLY_IF_DIFFERENT)
  file(REMOVE ${OUTPUT}/cupp/${_h}.tmp)
endforeach()
