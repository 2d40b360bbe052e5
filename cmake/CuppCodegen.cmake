# Runs codegen/ over specs/ at build time. generated/ and docs/api/ are committed; the generator
# rewrites a file only when its content changes, so an unchanged spec rebuilds nothing. Specs are
# globbed with CONFIGURE_DEPENDS: adding or removing a spec file needs no CMake edit.
file(GLOB_RECURSE CUPP_SPEC_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/specs/*.yaml)
file(GLOB_RECURSE CUPP_CODEGEN_FILES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/codegen/*.py ${PROJECT_SOURCE_DIR}/codegen/templates/*.j2)

set(CUPP_GENERATED_DIR ${PROJECT_SOURCE_DIR}/generated)
# The generated files that are compiled: fixed names, whatever the set of specs.
set(CUPP_GENERATED_SOURCES
  ${CUPP_GENERATED_DIR}/src/dtype_table.cpp
  ${CUPP_GENERATED_DIR}/src/promotion_tables.cpp
  ${CUPP_GENERATED_DIR}/src/op_registry.cpp)
set(CUPP_GENERATED_HEADERS
  ${CUPP_GENERATED_DIR}/include/cupp/generated/type_id.hpp
  ${CUPP_GENERATED_DIR}/include/cupp/generated/dtype_constants.hpp)
set(CUPP_GENERATED_TEST_TABLES
  ${CUPP_GENERATED_DIR}/tests/op_test_table.inc)

set(CUPP_CODEGEN_COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/codegen/generate.py
    --root ${PROJECT_SOURCE_DIR})

if(CUPP_REGENERATE)
  set(_stamp ${CMAKE_CURRENT_BINARY_DIR}/cupp_codegen.stamp)
  add_custom_command(
    OUTPUT ${_stamp} ${CUPP_GENERATED_SOURCES} ${CUPP_GENERATED_HEADERS} ${CUPP_GENERATED_TEST_TABLES}
    COMMAND ${CUPP_CODEGEN_COMMAND}
    COMMAND ${CMAKE_COMMAND} -E touch ${_stamp}
    DEPENDS ${CUPP_SPEC_FILES} ${CUPP_CODEGEN_FILES}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "codegen: specs/ -> generated/ and docs/api/"
    VERBATIM)
  add_custom_target(cupp_codegen DEPENDS ${_stamp})
else()
  add_custom_target(cupp_codegen)
endif()
