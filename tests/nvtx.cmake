# NVTX tests (included by tests/CMakeLists.txt): cupp_nvtx_recorder, an NVTX injection library that
# records ranges and markers in memory, and cupp_nvtx_tests, which checks what cupp::profiler and
# CUPP_NVTX_OPS emit through it. CTest entry nvtx_ranges needs no GPU (its launch-name test skips
# without one); the GPU machine runs the same binary with a device.
add_library(cupp_nvtx_recorder SHARED ${CMAKE_CURRENT_SOURCE_DIR}/nvtx/nvtx_recorder.cpp)
target_include_directories(cupp_nvtx_recorder PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
set_target_properties(cupp_nvtx_recorder PROPERTIES CXX_VISIBILITY_PRESET hidden)
add_executable(cupp_nvtx_tests ${CMAKE_CURRENT_SOURCE_DIR}/nvtx/test_nvtx_ranges.cpp
                               ${CMAKE_CURRENT_SOURCE_DIR}/support/test_main.cpp)
target_link_libraries(cupp_nvtx_tests PRIVATE cupp::cupp cupp::core_internal GTest::gtest ${CMAKE_DL_LIBS})
target_include_directories(cupp_nvtx_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
add_test(NAME nvtx_ranges COMMAND cupp_nvtx_tests --gtest_brief=1)
set_tests_properties(nvtx_ranges PROPERTIES
  ENVIRONMENT "NVTX_INJECTION64_PATH=$<TARGET_FILE:cupp_nvtx_recorder>;CUPP_NVTX_OPS=1")
