# Finds what cupp builds against: the CUDA toolkit (FindCUDAToolkit, plus an imported target for
# nvJitLink, which CMake 3.25 lacks), yaml-cpp as a static library, and a Python 3 interpreter
# with Jinja2 and PyYAML for codegen/. Nothing is vendored; Debian package names are given
# when something is missing.
find_package(CUDAToolkit 13 REQUIRED)

# nvJitLink: FindCUDAToolkit in CMake 3.25 has no CUDA::nvJitLink target.
if(NOT TARGET cupp_nvjitlink)
  find_library(CUPP_NVJITLINK_LIBRARY nvJitLink HINTS ${CUDAToolkit_LIBRARY_DIR} REQUIRED)
  add_library(cupp_nvjitlink SHARED IMPORTED GLOBAL)
  set_target_properties(cupp_nvjitlink PROPERTIES
    IMPORTED_LOCATION ${CUPP_NVJITLINK_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${CUDAToolkit_INCLUDE_DIRS})
endif()

# yaml-cpp, statically: the GPU machine has no yaml-cpp and Debian's CMake package names the .so.
if(NOT TARGET cupp_yaml_cpp)
  find_library(CUPP_YAML_CPP_STATIC NAMES libyaml-cpp.a)
  find_path(CUPP_YAML_CPP_INCLUDE yaml-cpp/yaml.h)
  if(NOT CUPP_YAML_CPP_STATIC OR NOT CUPP_YAML_CPP_INCLUDE)
    message(FATAL_ERROR "yaml-cpp (static library and headers) not found: install Debian's libyaml-cpp-dev")
  endif()
  add_library(cupp_yaml_cpp STATIC IMPORTED GLOBAL)
  set_target_properties(cupp_yaml_cpp PROPERTIES
    IMPORTED_LOCATION ${CUPP_YAML_CPP_STATIC}
    INTERFACE_INCLUDE_DIRECTORIES ${CUPP_YAML_CPP_INCLUDE})
endif()

# Python for the generator: check the imports now and name what is missing.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
foreach(_mod_pkg "jinja2;python3-jinja2" "yaml;python3-yaml")
  list(GET _mod_pkg 0 _mod)
  list(GET _mod_pkg 1 _pkg)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import ${_mod}"
                  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "codegen needs the Python module '${_mod}', which ${Python3_EXECUTABLE} "
                        "cannot import: install Debian's ${_pkg} (or pass -DPython3_EXECUTABLE=...)")
  endif()
endforeach()

# zlib, for .npz archives (deflate and CRC-32).
find_package(ZLIB)
if(NOT ZLIB_FOUND)
  message(FATAL_ERROR "zlib (headers and library) not found: install Debian's zlib1g-dev")
endif()
