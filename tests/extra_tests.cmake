# Tests of how cupp is consumed and started (included by tests/CMakeLists.txt):
#  - consumer_find_package: installs cupp into a fresh prefix, builds tests/consumer against it
#    through find_package(cupp) and runs it;
#  - consumer_add_subdirectory: the same consumer with cupp added through add_subdirectory;
#  - executables_start: starts every executable target of the project (and the consumer) with a
#    smoke command and checks that none depends on libcuda.so, so each starts without a driver.
set(_cupp_consumer_args
  -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DGENERATOR=${CMAKE_GENERATOR}
  -DCXX=${CMAKE_CXX_COMPILER} -DPYTHON=${Python3_EXECUTABLE})
set(CUPP_CONSUMER_WORK_DIR ${CMAKE_CURRENT_BINARY_DIR}/consumer)
add_test(NAME consumer_find_package
         COMMAND ${CMAKE_COMMAND} ${_cupp_consumer_args} -DWORK_DIR=${CUPP_CONSUMER_WORK_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/smoke/consumer_test.cmake)
set_tests_properties(consumer_find_package PROPERTIES FIXTURES_SETUP cupp_consumer LABELS consumer)
add_test(NAME consumer_add_subdirectory
         COMMAND ${CMAKE_COMMAND} ${_cupp_consumer_args} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer-subdir
                 -DMODE=subdirectory -P ${CMAKE_CURRENT_SOURCE_DIR}/smoke/consumer_test.cmake)
set_tests_properties(consumer_add_subdirectory PROPERTIES LABELS consumer)

# The list of executables is written once every directory is processed, so targets added
# after tests/ (bench/, later modules) are included. Smoke arguments: the target property
# CUPP_SMOKE_ARGS (a list of argument strings, each run once) when set; GoogleTest programs
# list their tests; the cupp tool runs each subcommand; anything else must at least start
# (`--help`, any exit code but 127 or a signal).
set(CUPP_START_LIST ${CMAKE_CURRENT_BINARY_DIR}/start_executables.list)
function(_cupp_collect_executables dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  set(found)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      list(APPEND found ${t})
    endif()
  endforeach()
  foreach(d IN LISTS subdirs)
    _cupp_collect_executables(${d} sub)
    list(APPEND found ${sub})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# A deferred call runs in the top directory's scope: it gets its paths as arguments.
function(_cupp_write_start_list list_file consumer_exe)
  _cupp_collect_executables(${PROJECT_SOURCE_DIR} executables)
  set(sep "|")
  set(content "")
  foreach(t IN LISTS executables)
    get_target_property(smoke ${t} CUPP_SMOKE_ARGS)
    get_target_property(libs ${t} LINK_LIBRARIES)
    set(strict 1)
    if(smoke)
      # as given
    elseif(t STREQUAL "cupp_tool")
      set(smoke "--version" "--help" "info" "ops" "ops add" "demo")
    elseif(libs MATCHES "gtest|GTest")
      set(smoke "--gtest_list_tests")
    else()
      set(smoke "--help")
      set(strict 0)
    endif()
    foreach(args IN LISTS smoke)
      string(APPEND content "$<TARGET_FILE:${t}>${sep}${args}${sep}${strict}\n")
    endforeach()
  endforeach()
  string(APPEND content "${consumer_exe}${sep}${sep}1\n")
  file(GENERATE OUTPUT ${list_file} CONTENT "${content}")
endfunction()
cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL _cupp_write_start_list
  [[${CUPP_START_LIST}]] [[${CUPP_CONSUMER_WORK_DIR}/build/cupp_consumer]])")

add_test(NAME executables_start
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/smoke/start_executables.sh ${CUPP_START_LIST})
set_tests_properties(executables_start PROPERTIES FIXTURES_REQUIRED cupp_consumer)

# `cupp eval`: the parser library (tools/cupp/eval/cupp_eval.cmake) in the unit tests.
include(${PROJECT_SOURCE_DIR}/tools/cupp/eval/cupp_eval.cmake)
target_link_libraries(cupp_unit_tests PRIVATE cupp_eval)

# `cupp eval` end to end (tests/scripts/check_cupp_eval.sh): needs a GPU, exits 77 (skip) without.
if(TARGET cupp_tool)
  add_test(NAME cupp_eval_tool
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_cupp_eval.sh $<TARGET_FILE:cupp_tool>
                   ${CMAKE_CURRENT_BINARY_DIR}/cupp_eval_tool_dir)
  set_tests_properties(cupp_eval_tool PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
  # Every routine `cupp ops` lists has a cupp eval binding (generated or by hand); no GPU needed.
  add_test(NAME eval_bindings_cover
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_eval_bindings.py
                   $<TARGET_FILE:cupp_tool>)
  set_tests_properties(eval_bindings_cover PROPERTIES TIMEOUT 300)
endif()
