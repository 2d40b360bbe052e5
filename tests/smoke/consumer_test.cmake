# CTest script: installs cupp from the build tree into a fresh prefix, then configures, builds
# and runs tests/consumer against it (find_package(cupp)); with -DMODE=subdirectory it builds
# the consumer with cupp added through add_subdirectory instead.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... [-DMODE=...] -P consumer_test.cmake
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "consumer_test.cmake: ${v} not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(configure_args -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(DEFINED PYTHON)
  list(APPEND configure_args -DPython3_EXECUTABLE=${PYTHON})
endif()

if(MODE STREQUAL "subdirectory")
  # Without the nvcc-compiled CUB object: the main build compiles it; this checks the CMake wiring.
  run(${CMAKE_COMMAND} ${configure_args} -DCUPP_SOURCE_DIR=${SOURCE_DIR} -DCUPP_AOT_ACCELERATORS=OFF -DCUPP_AOT_KERNELS=OFF)
else()
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  foreach(f lib/libcupp_core.a include/cupp/promotion.hpp include/cupp/generated/type_id.hpp
            lib/cmake/cupp/cuppConfig.cmake bin/cupp)
    if(NOT EXISTS ${WORK_DIR}/prefix/${f})
      message(FATAL_ERROR "install is missing ${f}")
    endif()
  endforeach()
  run(${CMAKE_COMMAND} ${configure_args} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

execute_process(COMMAND ${WORK_DIR}/build/cupp_consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cupp_consumer exited with ${rc}")
endif()
if(NOT out MATCHES "result_type\\(int8, uint8\\) = int16")
  message(FATAL_ERROR "cupp_consumer printed an unexpected result")
endif()
if(NOT out MATCHES "module fft" OR NOT out MATCHES "module linalg")
  message(FATAL_ERROR "cupp_consumer does not list the modules cupp::cupp links")
endif()
execute_process(COMMAND ${WORK_DIR}/build/cupp_consumer_linalg RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "linalg cuBLAS [0-9]+\\.[0-9]+" OR NOT out MATCHES "= int16")
  message(FATAL_ERROR "cupp_consumer_linalg (cupp::linalg alone) exited with ${rc} or printed an unexpected result")
endif()
# Linked statically: no shared cupp library exists, and libcuda is never a direct dependency.
execute_process(COMMAND ldd ${WORK_DIR}/build/cupp_consumer OUTPUT_VARIABLE deps)
if(deps MATCHES "libcupp|libcuda\\.so")
  message(FATAL_ERROR "cupp_consumer links a shared cupp or libcuda:\n${deps}")
endif()
if(NOT MODE STREQUAL "subdirectory")
  # The installed tool runs too (its RPATH finds the CUDA libraries).
  run(${WORK_DIR}/prefix/bin/cupp --version)
endif()
