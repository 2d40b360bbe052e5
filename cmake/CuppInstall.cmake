# Install rules and the CMake package: find_package(cupp) gives cupp::core and cupp::cupp.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS cupp_core cupp_core_internal cupp_all EXPORT cuppTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ ${CUPP_GENERATED_DIR}/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cupp/internal
        FILES_MATCHING PATTERN "*.hpp")
if(CUPP_BUILD_TOOLS)
  install(TARGETS cupp_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT cuppTargets NAMESPACE cupp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cupp)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cuppConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cuppConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cupp)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cuppConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cuppConfig.cmake ${PROJECT_BINARY_DIR}/cuppConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cupp)
