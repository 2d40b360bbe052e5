# The DLPack interop library for the GPU check with PyTorch and CuPy (tests/dlpack_interop):
# a shared library with a C ABI that check_interop.py loads with ctypes. A shared library needs
# position-independent code in the static libraries it links, so the static modules of cupp::cupp
# are built with -fPIC (no measurable cost on x86-64), and cupp::cupp's own registry too.
set_target_properties(cupp_all PROPERTIES POSITION_INDEPENDENT_CODE ON)
get_target_property(_cupp_modules cupp_all INTERFACE_LINK_LIBRARIES)
foreach(_module IN LISTS _cupp_modules)
  if(TARGET ${_module})
    get_target_property(_type ${_module} TYPE)
    if(_type STREQUAL "STATIC_LIBRARY")
      set_target_properties(${_module} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
  endif()
endforeach()

add_library(cupp_dlpack_interop SHARED ${CMAKE_CURRENT_LIST_DIR}/dlpack_interop/cupp_dlpack_interop.cpp)
target_link_libraries(cupp_dlpack_interop PRIVATE cupp::cupp)
set_target_properties(cupp_dlpack_interop PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden
  OUTPUT_NAME cupp_dlpack_interop)
