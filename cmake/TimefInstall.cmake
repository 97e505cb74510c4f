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
install(FILES "${TIMEF_GENERATED_INCLUDEDIR}/timef/version.h"
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

# Two pkg-config files from cmake/timef.pc.in. The installed one names its prefix relative to its
# own directory (${pcfiledir}), so the prefix can move; build/timef.pc is the build tree's own
# (PKG_CONFIG_PATH=build): the source tree's include/, the generated timef/version.h, and the
# libraries and DuckDB where the build keeps them.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "timef.pc needs a relative CMAKE_INSTALL_LIBDIR, got ${CMAKE_INSTALL_LIBDIR}")
endif()
file(RELATIVE_PATH timef_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" timef_pc_up "${timef_pc_up}")
set(TIMEF_PC_PREFIX "\${pcfiledir}/${timef_pc_up}")
set(TIMEF_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
set(TIMEF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
set(TIMEF_PC_INCLUDE_FLAGS "-I\${includedir}")
set(TIMEF_PC_DUCKDB_LIBS "-lduckdb")
configure_file(cmake/timef.pc.in "${CMAKE_BINARY_DIR}/install/timef.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/install/timef.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(TIMEF_PC_PREFIX "${CMAKE_BINARY_DIR}")
set(TIMEF_PC_LIBDIR "$<TARGET_FILE_DIR:timef>")  # evaluated by file(GENERATE)
set(TIMEF_PC_INCLUDEDIR "${CMAKE_SOURCE_DIR}/include")
set(TIMEF_PC_INCLUDE_FLAGS "-I\${includedir} -I${TIMEF_GENERATED_INCLUDEDIR}")
set(TIMEF_PC_DUCKDB_LIBS "-L${TIMEF_DUCKDB_DIR}/lib -lduckdb")
configure_file(cmake/timef.pc.in "${CMAKE_BINARY_DIR}/install/timef-build.pc.in" @ONLY)
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/timef.pc"
  INPUT "${CMAKE_BINARY_DIR}/install/timef-build.pc.in")
