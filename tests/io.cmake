# .npy/.npz I/O tests beyond cupp_unit_tests (included by tests/CMakeLists.txt); neither needs
# CUDA or a GPU — the I/O, dtype and host_array sources are compiled in directly:
#  - npy_asan: the host-level .npy/.npz tests (tests/unit/test_npy*.cpp: round trips, NumPy
#    files, every truncation, bit flips, hostile headers and archives) under AddressSanitizer
#    and UBSan (label asan);
#  - npy_fuzz: the libFuzzer target tests/fuzz/fuzz_npy.cpp, built with clang++
#    (-fsanitize=fuzzer,address,undefined), run for 60 s from a seed corpus of NumPy-written
#    files made at build time; any finding fails the test (label fuzz). Left out, with a
#    message, when clang++ with libFuzzer is missing (Debian: clang, libclang-rt-14-dev).
get_filename_component(_cupp_io_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(_cupp_io_sources
  ${_cupp_io_root}/runtime/src/io/npy_format.cpp
  ${_cupp_io_root}/runtime/src/core/python_literal.cpp
  ${_cupp_io_root}/runtime/src/io/npy.cpp
  ${_cupp_io_root}/runtime/src/io/npz.cpp
  ${_cupp_io_root}/runtime/src/io/zip.cpp
  ${_cupp_io_root}/runtime/src/io/file_io.cpp
  ${_cupp_io_root}/runtime/src/core/dtype.cpp
  ${_cupp_io_root}/runtime/src/core/errors.cpp
  ${_cupp_io_root}/runtime/src/core/promotion.cpp
  ${_cupp_io_root}/generated/src/dtype_table.cpp
  ${_cupp_io_root}/generated/src/promotion_tables.cpp
  ${_cupp_io_root}/runtime/src/array/host_array.cpp
  ${_cupp_io_root}/runtime/src/array/layout.cpp
  ${_cupp_io_root}/runtime/src/array/convert.cpp)
set(_cupp_io_includes ${_cupp_io_root}/runtime/include ${CUPP_CORE_INTERNAL_DIR} ${_cupp_io_root}/generated/include)

# ---- the malformed-file and round-trip tests under AddressSanitizer (the project's compiler)
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=address,undefined")
set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=address,undefined")
check_cxx_source_compiles("int main() { return 0; }" CUPP_HAVE_ASAN)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(CUPP_HAVE_ASAN)
  file(GLOB _cupp_io_tests CONFIGURE_DEPENDS ${_cupp_io_root}/tests/unit/test_npy*.cpp)
  list(FILTER _cupp_io_tests EXCLUDE REGEX "_gpu\\.cpp$")
  add_executable(cupp_io_asan_tests ${_cupp_io_sources} ${_cupp_io_tests} ${_cupp_io_root}/tests/support/test_main.cpp)
  target_compile_features(cupp_io_asan_tests PRIVATE cxx_std_20)
  target_include_directories(cupp_io_asan_tests PRIVATE ${_cupp_io_includes} ${_cupp_io_root}/tests/support)
  target_compile_definitions(cupp_io_asan_tests PRIVATE
    CUPP_CONFORMANCE_DIR="${CUPP_CONFORMANCE_DIR}" CUPP_SOURCE_DIR="${_cupp_io_root}")
  target_compile_options(cupp_io_asan_tests PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=undefined
                                                    -fno-omit-frame-pointer -O1 -g)
  target_link_options(cupp_io_asan_tests PRIVATE -fsanitize=address,undefined)
  target_link_libraries(cupp_io_asan_tests PRIVATE GTest::gtest cupp_yaml_cpp ZLIB::ZLIB)
  if(TARGET cupp_conformance_data)
    add_dependencies(cupp_io_asan_tests cupp_conformance_data)
  endif()
  add_test(NAME npy_asan COMMAND cupp_io_asan_tests --gtest_brief=1)
  set_tests_properties(npy_asan PROPERTIES LABELS asan
                       ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1;UBSAN_OPTIONS=print_stacktrace=1")
else()
  message(STATUS "cupp: the compiler cannot build with -fsanitize=address; the npy_asan test is left out")
endif()

# ---- the libFuzzer target (clang++ only)
find_program(CUPP_CLANGXX NAMES clang++ clang++-14)
if(CUPP_CLANGXX AND NOT DEFINED CUPP_CLANG_HAS_LIBFUZZER)
  set(_probe_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe)
  file(MAKE_DIRECTORY ${_probe_dir})
  file(WRITE ${_probe_dir}/probe.cpp
       "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${CUPP_CLANGXX} -fsanitize=fuzzer,address ${_probe_dir}/probe.cpp -o ${_probe_dir}/probe
                  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(CUPP_CLANG_HAS_LIBFUZZER ON CACHE INTERNAL "clang++ links -fsanitize=fuzzer")
  else()
    set(CUPP_CLANG_HAS_LIBFUZZER OFF CACHE INTERNAL "clang++ links -fsanitize=fuzzer")
  endif()
endif()

if(CUPP_CLANGXX AND CUPP_CLANG_HAS_LIBFUZZER)
  set(_fuzz_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  file(GLOB _cupp_io_headers CONFIGURE_DEPENDS ${_cupp_io_root}/runtime/include/cupp/*.hpp
       ${_cupp_io_root}/runtime/src/io/*.hpp ${_cupp_io_root}/runtime/src/array/*.hpp
       ${_cupp_io_root}/runtime/src/core/*.hpp ${_cupp_io_root}/generated/include/cupp/generated/*.hpp)
  set(_fuzz_include_flags)
  foreach(_dir IN LISTS _cupp_io_includes)
    list(APPEND _fuzz_include_flags -I${_dir})
  endforeach()
  add_custom_command(
    OUTPUT ${_fuzz_dir}/fuzz_npy
    COMMAND ${CUPP_CLANGXX} -std=c++20 -O1 -g -fno-omit-frame-pointer
            -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
            ${_fuzz_include_flags} ${_cupp_io_root}/tests/fuzz/fuzz_npy.cpp ${_cupp_io_sources}
            ${ZLIB_LIBRARIES} -o ${_fuzz_dir}/fuzz_npy
    DEPENDS ${_cupp_io_root}/tests/fuzz/fuzz_npy.cpp ${_cupp_io_sources} ${_cupp_io_headers}
    COMMENT "Building the .npy/.npz fuzzer with clang++ (libFuzzer, ASan, UBSan)"
    VERBATIM)
  file(GLOB _fuzz_seeds CONFIGURE_DEPENDS ${_cupp_io_root}/tests/fuzz/seeds/* ${_cupp_io_root}/tests/io_data/*.npz)
  add_custom_command(
    OUTPUT ${_fuzz_dir}/corpus.stamp
    COMMAND ${CMAKE_COMMAND} -DCONFORMANCE_DIR=${CUPP_CONFORMANCE_DIR} -DSOURCE_DIR=${_cupp_io_root}
            -DOUTPUT=${_fuzz_dir}/seeds -DSTAMP=${_fuzz_dir}/corpus.stamp -P ${_cupp_io_root}/tests/fuzz/make_corpus.cmake
    DEPENDS ${_fuzz_seeds} ${_cupp_io_root}/tests/fuzz/make_corpus.cmake ${CUPP_CONFORMANCE_DIR}/numpy-ref/manifest.yaml
    COMMENT "Seed corpus of the .npy/.npz fuzzer")
  add_custom_target(cupp_fuzz_npy ALL DEPENDS ${_fuzz_dir}/fuzz_npy ${_fuzz_dir}/corpus.stamp)
  if(TARGET cupp_conformance_data)
    add_dependencies(cupp_fuzz_npy cupp_conformance_data)
  endif()
  # New inputs go to a fresh working corpus; the seeds are read only.
  add_test(NAME npy_fuzz
           COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
                   ${CMAKE_COMMAND} -DFUZZER=${_fuzz_dir}/fuzz_npy -DWORK=${_fuzz_dir}/work -DSEEDS=${_fuzz_dir}/seeds
                   -P ${_cupp_io_root}/tests/fuzz/run_fuzz.cmake)
  set_tests_properties(npy_fuzz PROPERTIES LABELS fuzz TIMEOUT 300)
else()
  message(STATUS "cupp: clang++ with libFuzzer not found; the npy_fuzz test is left out "
                 "(Debian: install clang and libclang-rt-14-dev)")
endif()
