# The module template: cupp_add_module(NAME [LIBRARIES lib...]) called from <NAME>/module.cmake
# makes the static library cupp_<NAME> (cupp::<NAME>) from <NAME>/src/**/*.cpp and the routine
# tables codegen writes for its families (generated/modules/<NAME>/*.cpp), with the public headers
# of <NAME>/include (include/cupp/<NAME>.hpp, namespace cupp::<NAME>). Device code in
# <NAME>/device/**/*.cuh is embedded as the runtime's is (cmake/CuppEmbed.cmake): the module's
# sources include "<NAME>_device_headers.hpp" for cupp::<NAME>::detail::embedded_headers() and its
# digest, which its NVRTC programs carry (compiler/launch.hpp). It links cupp::core
# publicly, cupp::core_internal and the given CUDA libraries privately, joins cupp::cupp and the
# install/export set. The top-level CMakeLists.txt includes every */module.cmake it finds, so a new
# module folder needs no edit outside itself (docs/architecture.md, "Modules").
include(${CMAKE_CURRENT_LIST_DIR}/CuppAotKernels.cmake)

function(cupp_add_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LIBRARIES")
  set(dir ${CMAKE_CURRENT_LIST_DIR})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/src/*.cpp)
  file(GLOB generated CONFIGURE_DEPENDS ${CUPP_GENERATED_DIR}/modules/${name}/*.cpp)
  if(NOT sources AND NOT generated)
    message(FATAL_ERROR "module ${name}: ${dir}/src holds no .cpp file and no spec names the module")
  endif()
  file(GLOB_RECURSE device_headers CONFIGURE_DEPENDS ${dir}/device/*.cuh)
  set(embedded)
  if(device_headers)
    set(embed_dir ${CMAKE_CURRENT_BINARY_DIR}/${name}_embedded)
    set(embedded ${embed_dir}/${name}_device_headers.cpp)
    add_custom_command(
      OUTPUT ${embedded} ${embed_dir}/${name}_device_headers.hpp
      COMMAND ${CMAKE_COMMAND} -DHEADER_ROOT=${dir}/device -DOUTPUT=${embedded}
              -DHEADER=${embed_dir}/${name}_device_headers.hpp -DNAMESPACE=cupp::${name}::detail
              -P ${PROJECT_SOURCE_DIR}/cmake/CuppEmbed.cmake
      DEPENDS ${device_headers} ${PROJECT_SOURCE_DIR}/cmake/CuppEmbed.cmake
      COMMENT "Embedding the ${name} module's device headers")
  endif()
  # cupp::<NAME>_internal: the module's internal headers (src/ and the embedded device headers'
  # declarations), for the module and its tests (as cupp::core_internal is the runtime's).
  add_library(cupp_${name}_internal INTERFACE)
  add_library(cupp::${name}_internal ALIAS cupp_${name}_internal)
  set_target_properties(cupp_${name}_internal PROPERTIES EXPORT_NAME ${name}_internal)
  target_include_directories(cupp_${name}_internal INTERFACE $<BUILD_INTERFACE:${dir}/src>)
  if(device_headers)
    target_include_directories(cupp_${name}_internal INTERFACE $<BUILD_INTERFACE:${embed_dir}>)
  endif()
  install(TARGETS cupp_${name}_internal EXPORT cuppTargets)
  set(target cupp_${name})
  add_library(${target} STATIC ${sources} ${generated} ${embedded})
  add_library(cupp::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME cupp_${name})
  add_dependencies(${target} cupp_codegen)
  target_compile_features(${target} PUBLIC cxx_std_20)
  # include/ and the declarations codegen writes for its families (declare: generated)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${dir}/include>
                                              $<BUILD_INTERFACE:${CUPP_GENERATED_DIR}/modules/${name}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC cupp_core PRIVATE cupp_core_internal cupp_${name}_internal ${arg_LIBRARIES})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(device_headers)
    cupp_module_builtin_kernels(${name} ${dir})  # cmake/CuppAotKernels.cmake
  endif()
  set_property(GLOBAL APPEND PROPERTY CUPP_MODULES ${name})
  install(TARGETS ${target} EXPORT cuppTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  if(EXISTS ${CUPP_GENERATED_DIR}/modules/${name}/include)
    install(DIRECTORY ${CUPP_GENERATED_DIR}/modules/${name}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endfunction()
