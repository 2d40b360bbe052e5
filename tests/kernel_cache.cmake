# Kernel cache tests that need more than the unit test binary (included by tests/CMakeLists.txt):
#  - kernel_cache_concurrency: 16 processes x 4 threads compile the same 20 kernels into one
#    empty directory; all must succeed, leaving exactly 20 valid entries and no temporary files
#    (tests/cache_stress/cache_stress_main.cpp). No GPU needed.
#  - cupp_cache_tool: see below.
add_executable(cupp_cache_stress ${CMAKE_CURRENT_SOURCE_DIR}/cache_stress/cache_stress_main.cpp)
target_link_libraries(cupp_cache_stress PRIVATE cupp::cupp CUDA::nvrtc)
target_link_libraries(cupp_cache_stress PRIVATE cupp::core_internal)
target_compile_options(cupp_cache_stress PRIVATE -Wall -Wextra -Wpedantic)
add_test(NAME kernel_cache_concurrency
         COMMAND cupp_cache_stress --processes 16 --threads 4 --kernels 20 --dir ${CMAKE_CURRENT_BINARY_DIR}/cache_stress)
set_tests_properties(kernel_cache_concurrency PROPERTIES TIMEOUT 300 LABELS cache)

#  - cupp_cache_tool: `cupp cache warm/info/clear` end to end in a directory of the build tree.
add_test(NAME cupp_cache_tool
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cache_stress/check_cupp_cache.sh $<TARGET_FILE:cupp_tool>
                 ${CMAKE_CURRENT_BINARY_DIR}/cupp_cache_tool_dir)
# `cupp cache warm` of every op compiles every program (minutes on a busy 2-core machine, where
# ctest -j runs it beside the other compile-heavy entries): a generous timeout, an early start.
set_tests_properties(cupp_cache_tool PROPERTIES TIMEOUT 900 COST 150 LABELS cache)
