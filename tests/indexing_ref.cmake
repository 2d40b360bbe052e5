# NumPy reference data for the indexing routines (tests/gpu/test_indexing_gpu.cpp), made at build
# time by tests/conformance/make_indexing_ref.py with the configured Python when it can import
# NumPy (Debian's python3-numpy: NumPy 1.24 here; the GPU machine has NumPy 2.5). Without NumPy the
# GPU test skips its reference cases and says why.
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy" RESULT_VARIABLE _cupp_numpy_missing
                OUTPUT_QUIET ERROR_QUIET)
if(_cupp_numpy_missing EQUAL 0)
  set(_cupp_indexing_ref ${CUPP_CONFORMANCE_DIR}/indexing-ref)
  add_custom_command(
    OUTPUT ${_cupp_indexing_ref}/manifest.json
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/conformance/make_indexing_ref.py ${_cupp_indexing_ref}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/conformance/make_indexing_ref.py
    COMMENT "NumPy reference data for the indexing routines")
  add_custom_target(cupp_indexing_ref DEPENDS ${_cupp_indexing_ref}/manifest.json)
  add_dependencies(cupp_gpu_tests cupp_indexing_ref)
else()
  message(STATUS "cupp: ${Python3_EXECUTABLE} cannot import numpy: the indexing routines' GPU test will skip "
                 "its NumPy reference cases")
endif()
