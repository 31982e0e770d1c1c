# What `cmake --install` writes besides the binaries and headers, so other
# programs can build against collcalc: lib/pkgconfig/collcalc.pc and the
# CMake package lib/cmake/collcalc/ (collcalcConfig.cmake, its version file
# and the exported targets collcalc::collcalc and collcalc::collcalc_static).
# `cmake --install build --prefix DIR` works for any DIR: the CMake package
# finds its prefix from where it lies, collcalc.pc is written for DIR.
include(CMakePackageConfigHelpers)

set(COLLCALC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/collcalc)

# pkg-config: the prefix is the one `cmake --install` installs into (also
# with --prefix DIR), so pkg-config prints plain paths (-I/usr/local/include).
# Configured twice: the build's values now, the prefix at install time.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(COLLCALC_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(COLLCALC_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(COLLCALC_PC_PREFIX "@COLLCALC_INSTALL_PREFIX@")
configure_file(${CMAKE_CURRENT_LIST_DIR}/collcalc.pc.in
               ${CMAKE_BINARY_DIR}/generated/collcalc.pc.in @ONLY)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(pc_destination "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(pc_destination "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
install(CODE "
  set(COLLCALC_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_BINARY_DIR}/generated/collcalc.pc.in\"
                 \"${CMAKE_BINARY_DIR}/generated/install/collcalc.pc\" @ONLY)
  file(INSTALL DESTINATION \"${pc_destination}\" TYPE FILE
       FILES \"${CMAKE_BINARY_DIR}/generated/install/collcalc.pc\")")

# CMake package.
install(EXPORT collcalcTargets NAMESPACE collcalc:: DESTINATION ${COLLCALC_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/collcalcConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/collcalcConfig.cmake
                              INSTALL_DESTINATION ${COLLCALC_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/collcalcConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/collcalcConfig.cmake
              ${CMAKE_BINARY_DIR}/generated/collcalcConfigVersion.cmake
        DESTINATION ${COLLCALC_CMAKE_DIR})
