# libFuzzer targets beside the .npy one (tests/io.cmake), built with clang++ and run 60 s each
# from a fresh working corpus plus their seeds (tests/fuzz/run_fuzz.cmake); any finding fails:
#  - eval_parser_fuzz: `cupp eval`'s tokenizer and parser (tests/fuzz/fuzz_eval_parser.cpp),
#    seeded with tests/fuzz/eval_seeds/;
#  - spec_loader_fuzz: the run-time op-spec reader behind cupp::load_ops
#    (tests/fuzz/fuzz_spec_loader.cpp), seeded with specs/ufuncs/.
# Left out with tests/io.cmake's message when clang++ with libFuzzer is missing.
if(NOT (CUPP_CLANGXX AND CUPP_CLANG_HAS_LIBFUZZER))
  return()
endif()
get_filename_component(_cupp_fz_root ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set(_cupp_fz_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
set(_cupp_fz_flags -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
                   -fno-sanitize-recover=undefined -I${_cupp_fz_root}/runtime/include -I${CUPP_CORE_INTERNAL_DIR}
                   -I${_cupp_fz_root}/generated/include)

# name, source, seed folder, then the sources and libraries it links (an item starting with -I is
# an include flag). It is rebuilt when a source or a header of cupp's trees changes.
file(GLOB_RECURSE _cupp_fz_headers CONFIGURE_DEPENDS ${CUPP_CORE_INTERNAL_DIR}/*.hpp
     ${_cupp_fz_root}/runtime/include/cupp/*.hpp ${_cupp_fz_root}/tools/cupp/eval/*.hpp)
function(cupp_fuzz_target name source seeds)
  set(inputs ${ARGN})
  list(FILTER inputs EXCLUDE REGEX "^-")
  add_custom_command(
    OUTPUT ${_cupp_fz_dir}/${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_cupp_fz_dir}
    COMMAND ${CUPP_CLANGXX} ${_cupp_fz_flags} ${source} ${ARGN} -o ${_cupp_fz_dir}/${name}
    DEPENDS ${source} ${inputs} ${_cupp_fz_headers}
    COMMENT "Building the ${name} fuzzer with clang++ (libFuzzer, ASan, UBSan)"
    VERBATIM)
  add_custom_target(cupp_${name} ALL DEPENDS ${_cupp_fz_dir}/${name})
  if(TARGET cupp_codegen)
    add_dependencies(cupp_${name} cupp_codegen)
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
                   ${CMAKE_COMMAND} -DFUZZER=${_cupp_fz_dir}/${name} -DWORK=${_cupp_fz_dir}/${name}-work
                   -DSEEDS=${seeds} -P ${_cupp_fz_root}/tests/fuzz/run_fuzz.cmake)
  set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 300)
endfunction()

set(_eval ${_cupp_fz_root}/tools/cupp/eval)
cupp_fuzz_target(eval_parser_fuzz ${_cupp_fz_root}/tests/fuzz/fuzz_eval_parser.cpp ${_cupp_fz_root}/tests/fuzz/eval_seeds
  -I${_eval} ${_eval}/tokenizer.cpp ${_eval}/parser.cpp ${_eval}/ast.cpp ${_eval}/syntax_error.cpp
  ${_cupp_fz_root}/runtime/src/core/errors.cpp)
cupp_fuzz_target(spec_loader_fuzz ${_cupp_fz_root}/tests/fuzz/fuzz_spec_loader.cpp ${_cupp_fz_root}/specs/ufuncs
  ${CUPP_CORE_INTERNAL_DIR}/loader/spec_parser.cpp ${CUPP_CORE_INTERNAL_DIR}/core/errors.cpp
  ${CUPP_CORE_INTERNAL_DIR}/core/dtype.cpp ${CUPP_CORE_INTERNAL_DIR}/core/promotion.cpp
  ${CUPP_CORE_INTERNAL_DIR}/core/python_literal.cpp ${_cupp_fz_root}/generated/src/dtype_table.cpp
  ${_cupp_fz_root}/generated/src/promotion_tables.cpp ${CUPP_YAML_CPP_STATIC})
