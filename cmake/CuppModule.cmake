# The module template: cupp_add_module(NAME [LIBRARIES lib...]) called from <NAME>/module.cmake
# makes the static library cupp_<NAME> (cupp::<NAME>) from <NAME>/src/**/*.cpp and the routine
# tables codegen writes for its families (generated/modules/<NAME>/*.cpp), with the public headers
# of <NAME>/include (include/cupp/<NAME>.hpp, namespace cupp::<NAME>). It links cupp::core
# publicly, cupp::core_internal and the given CUDA libraries privately, joins cupp::cupp and the
# install/export set. The top-level CMakeLists.txt includes every */module.cmake it finds, so a new
# module folder needs no edit outside itself (docs/architecture.md, "Modules").
function(cupp_add_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LIBRARIES")
  set(dir ${CMAKE_CURRENT_LIST_DIR})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/src/*.cpp)
  file(GLOB generated CONFIGURE_DEPENDS ${CUPP_GENERATED_DIR}/modules/${name}/*.cpp)
  if(NOT sources AND NOT generated)
    message(FATAL_ERROR "module ${name}: ${dir}/src holds no .cpp file and no spec names the module")
  endif()
  set(target cupp_${name})
  add_library(${target} STATIC ${sources} ${generated})
  add_library(cupp::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME cupp_${name})
  add_dependencies(${target} cupp_codegen)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${dir}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC cupp_core PRIVATE cupp_core_internal ${arg_LIBRARIES})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  set_property(GLOBAL APPEND PROPERTY CUPP_MODULES ${name})
  install(TARGETS ${target} EXPORT cuppTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
