# The memory pool's host-side logic under ThreadSanitizer (included by tests/CMakeLists.txt):
# cupp_pool_tsan_tests compiles the CUDA-free pool core, the fake backend, the error classes and
# the 8-thread stress test with -fsanitize=thread (no CUDA, no cupp_core), and the CTest test
# `pool_tsan` runs it; any ThreadSanitizer report fails the test.
get_filename_component(_cupp_tsan_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)

include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
check_cxx_source_compiles("#include <thread>\nint main() { std::thread t([] {}); t.join(); }" CUPP_HAVE_TSAN)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)

if(CUPP_HAVE_TSAN)
  find_package(Threads REQUIRED)
  add_executable(cupp_pool_tsan_tests
    ${_cupp_tsan_root}/runtime/src/cuda/pool_core.cpp
    ${_cupp_tsan_root}/runtime/src/cuda/pool_fake_backend.cpp
    ${_cupp_tsan_root}/runtime/src/core/errors.cpp
    ${_cupp_tsan_root}/tests/unit/test_memory_pool_stress.cpp
    ${_cupp_tsan_root}/tests/support/test_main.cpp)
  target_compile_features(cupp_pool_tsan_tests PRIVATE cxx_std_20)
  target_include_directories(cupp_pool_tsan_tests PRIVATE ${_cupp_tsan_root}/runtime/include ${CUPP_CORE_INTERNAL_DIR})
  target_compile_options(cupp_pool_tsan_tests PRIVATE -fsanitize=thread -O1 -g -fno-omit-frame-pointer)
  target_link_options(cupp_pool_tsan_tests PRIVATE -fsanitize=thread)
  target_link_libraries(cupp_pool_tsan_tests PRIVATE GTest::gtest Threads::Threads)
  add_test(NAME pool_tsan COMMAND cupp_pool_tsan_tests --gtest_brief=1)
  set_tests_properties(pool_tsan PROPERTIES
    ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1"
    LABELS tsan)
else()
  message(STATUS "cupp: the compiler cannot build with -fsanitize=thread; the pool_tsan test is left out")
endif()
