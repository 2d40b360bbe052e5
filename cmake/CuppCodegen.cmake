# Runs codegen/ over specs/ at build time. generated/ and docs/api/ are committed; the generator
# rewrites a file only when its content changes, so an unchanged spec rebuilds nothing. Specs are
# globbed with CONFIGURE_DEPENDS: adding or removing a spec file needs no CMake edit.
file(GLOB_RECURSE CUPP_SPEC_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/specs/*.yaml)
file(GLOB_RECURSE CUPP_CODEGEN_FILES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/codegen/*.py ${PROJECT_SOURCE_DIR}/codegen/templates/*.j2)

# The set of spec files as a file of its own: removing a spec changes no remaining input, so this
# list (rewritten only when the set changes) is what tells the build to regenerate.
string(REPLACE ";" "\n" _spec_list "${CUPP_SPEC_FILES}")
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cupp_spec_files.txt CONTENT "${_spec_list}\n")

set(CUPP_GENERATED_DIR ${PROJECT_SOURCE_DIR}/generated)
# The generated files that are compiled: fixed names, whatever the set of specs.
set(CUPP_GENERATED_SOURCES
  ${CUPP_GENERATED_DIR}/src/dtype_table.cpp
  ${CUPP_GENERATED_DIR}/src/promotion_tables.cpp
  ${CUPP_GENERATED_DIR}/src/op_registry.cpp
  ${CUPP_GENERATED_DIR}/src/routine_tables.cpp
  ${CUPP_GENERATED_DIR}/src/folding_routines.cpp)
set(CUPP_GENERATED_HEADERS
  ${CUPP_GENERATED_DIR}/include/cupp/generated/type_id.hpp
  ${CUPP_GENERATED_DIR}/include/cupp/generated/dtype_constants.hpp
  ${CUPP_GENERATED_DIR}/include/cupp/generated/routine_specs.hpp)
# The registry of every family, core's and the modules' (compiled into cupp::cupp).
set(CUPP_GENERATED_REGISTRY_SOURCES
  ${CUPP_GENERATED_DIR}/registry/routine_registry.cpp)
# Compiled into the cupp tool (cupp eval), not into cupp::core.
set(CUPP_GENERATED_TOOL_SOURCES
  ${CUPP_GENERATED_DIR}/tools/eval_bindings.cpp)
set(CUPP_GENERATED_TEST_TABLES
  ${CUPP_GENERATED_DIR}/tests/op_test_table.inc)
# The benchmark: the merged table of cases and cupp_bench's C++ of their expressions, from
# bench/cases.json and each module's <module>/bench/cases.json.
set(CUPP_GENERATED_BENCH_FILES
  ${CUPP_GENERATED_DIR}/bench/bench_calls.cpp
  ${CUPP_GENERATED_DIR}/bench/cases.json)
file(GLOB CUPP_BENCH_TABLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/cases.json
     ${PROJECT_SOURCE_DIR}/*/bench/cases.json)
list(REMOVE_ITEM CUPP_BENCH_TABLES ${CUPP_GENERATED_DIR}/bench/cases.json)

set(CUPP_CODEGEN_COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/codegen/generate.py
    --root ${PROJECT_SOURCE_DIR})

if(CUPP_REGENERATE)
  # Once at configure time too: the globs of module sources see what the specs make.
  execute_process(COMMAND ${CUPP_CODEGEN_COMMAND} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  RESULT_VARIABLE _codegen_status OUTPUT_QUIET)
  if(NOT _codegen_status EQUAL 0)
    message(FATAL_ERROR "codegen failed (run: ${CUPP_CODEGEN_COMMAND})")
  endif()
endif()
# The folding routines' declarations, one header per family that has them (<family>_folds.hpp).
# ... and the declarations of routines that say declare: generated (core's and the modules').
file(GLOB _cupp_fold_headers CONFIGURE_DEPENDS ${CUPP_GENERATED_DIR}/include/cupp/generated/*_folds.hpp
     ${CUPP_GENERATED_DIR}/include/cupp/generated/*_declarations.hpp
     ${CUPP_GENERATED_DIR}/modules/*/include/cupp/generated/*_declarations.hpp)
list(APPEND CUPP_GENERATED_HEADERS ${_cupp_fold_headers})
# Each module's routine tables (generated/modules/<module>/routine_tables.cpp, compiled into the
# module) for the modules the specs name; codegen ran above, so a new module's file is there.
file(GLOB CUPP_GENERATED_MODULE_SOURCES CONFIGURE_DEPENDS ${CUPP_GENERATED_DIR}/modules/*/*.cpp)

if(CUPP_REGENERATE)
  set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/cupp_codegen.stamp)
  add_custom_command(
    OUTPUT ${_stamp} ${CUPP_GENERATED_SOURCES} ${CUPP_GENERATED_HEADERS} ${CUPP_GENERATED_TOOL_SOURCES} ${CUPP_GENERATED_TEST_TABLES}
           ${CUPP_GENERATED_REGISTRY_SOURCES} ${CUPP_GENERATED_MODULE_SOURCES} ${CUPP_GENERATED_BENCH_FILES}
    COMMAND ${CUPP_CODEGEN_COMMAND}
    COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
    DEPENDS ${CUPP_SPEC_FILES} ${CUPP_CODEGEN_FILES} ${CUPP_BENCH_TABLES} ${CMAKE_CURRENT_BINARY_DIR}/cupp_spec_files.txt
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "codegen: specs/ -> generated/ and docs/api/"
    VERBATIM)
  add_custom_target(cupp_codegen DEPENDS ${_stamp})
else()
  add_custom_target(cupp_codegen)
endif()
