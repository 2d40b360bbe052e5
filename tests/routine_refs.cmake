# NumPy reference data for the routine families' GPU tests (tests/gpu/test_<family>_gpu.cpp), made
# at build time by tests/conformance/make_<family>_ref.py with the configured Python when it can
# import NumPy (Debian's python3-numpy: NumPy 1.24 here; the GPU machine has NumPy 2.5, and its
# run remakes the data). Without NumPy the GPU tests skip their reference cases and say why.
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy" RESULT_VARIABLE _cupp_numpy_missing
                OUTPUT_QUIET ERROR_QUIET)
function(cupp_routine_reference family)
  if(NOT _cupp_numpy_missing EQUAL 0)
    message(STATUS "cupp: ${Python3_EXECUTABLE} cannot import numpy: the ${family} routines' GPU test will skip "
                   "its NumPy reference cases")
    return()
  endif()
  set(dir ${CUPP_CONFORMANCE_DIR}/${family}-ref)
  set(script ${CMAKE_CURRENT_SOURCE_DIR}/conformance/make_${family}_ref.py)
  add_custom_command(
    OUTPUT ${dir}/manifest.json
    COMMAND ${Python3_EXECUTABLE} ${script} ${dir}
    DEPENDS ${script} ${CMAKE_CURRENT_SOURCE_DIR}/conformance/routine_ref.py
    COMMENT "NumPy reference data for the ${family} routines")
  add_custom_target(cupp_${family}_ref DEPENDS ${dir}/manifest.json)
  add_dependencies(cupp_gpu_tests cupp_${family}_ref)
endfunction()
# Every tests/conformance/make_<family>_ref.py is a family: a new script needs no edit here.
file(GLOB _cupp_ref_scripts CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/conformance/make_*_ref.py)
foreach(script ${_cupp_ref_scripts})
  get_filename_component(_name ${script} NAME_WE)
  string(REGEX REPLACE "^make_(.*)_ref$" "\\1" family ${_name})
  cupp_routine_reference(${family})
endforeach()
# The families' EVAL_CASES (<family>-ref/eval) run through `cupp eval`'s engine in
# tests/gpu/test_eval_ref_gpu.cpp, which links it when the tools are built.
if(TARGET cupp_eval_engine)
  target_link_libraries(cupp_gpu_tests PRIVATE cupp_eval_engine)
  target_compile_definitions(cupp_gpu_tests PRIVATE CUPP_TEST_EVAL_ENGINE=1)
endif()
