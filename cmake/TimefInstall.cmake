# Installs the libraries, the CLI, the public headers and the consumer recipes (CMake package and
# pkg-config file). Both recipes locate everything relative to where they are installed, so
# `cmake --install build --prefix DIR` works for any DIR. tests/install checks them from outside.
include(CMakePackageConfigHelpers)

set(TIMEF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/timef)
# Two export sets: the static library's interface names the private dependencies, which the
# package config finds only when the `static` component is asked for.
install(TARGETS timef EXPORT timefTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS timef_static EXPORT timefStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT timefTargets NAMESPACE timef:: DESTINATION ${TIMEF_CMAKE_DIR})
install(EXPORT timefStaticTargets NAMESPACE timef:: DESTINATION ${TIMEF_CMAKE_DIR})
install(TARGETS timef_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/timef DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${CMAKE_BINARY_DIR}/generated/timef/version.h"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/timef)
# libtimef.so finds it through its $ORIGIN run path; no public header includes duckdb.h.
install(FILES "${TIMEF_DUCKDB_DIR}/lib/libduckdb.so" DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES schemas/manifest.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/timef)

configure_package_config_file(cmake/timefConfig.cmake.in
  "${CMAKE_BINARY_DIR}/timefConfig.cmake" INSTALL_DESTINATION ${TIMEF_CMAKE_DIR})
write_basic_package_version_file("${CMAKE_BINARY_DIR}/timefConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/timefConfig.cmake" "${CMAKE_BINARY_DIR}/timefConfigVersion.cmake"
  DESTINATION ${TIMEF_CMAKE_DIR})

# timef.pc names its prefix relative to its own directory (${pcfiledir}).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "timef.pc needs a relative CMAKE_INSTALL_LIBDIR, got ${CMAKE_INSTALL_LIBDIR}")
endif()
file(RELATIVE_PATH TIMEF_PC_PREFIX_FROM_PCFILEDIR "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" TIMEF_PC_PREFIX_FROM_PCFILEDIR "${TIMEF_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(cmake/timef.pc.in "${CMAKE_BINARY_DIR}/timef.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/timef.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
