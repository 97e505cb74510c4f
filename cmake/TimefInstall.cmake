include(CMakePackageConfigHelpers)
install(TARGETS timef timef_static
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS timef_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/timef DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${CMAKE_BINARY_DIR}/generated/timef/version.h" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/timef)
install(FILES "${TIMEF_DUCKDB_DIR}/lib/libduckdb.so" DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES "${TIMEF_DUCKDB_DIR}/include/duckdb.h" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/timef/third_party)
install(FILES schemas/manifest.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/timef)

configure_package_config_file(cmake/timefConfig.cmake.in
  "${CMAKE_BINARY_DIR}/timefConfig.cmake" INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/timef)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/timefConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/timefConfig.cmake" "${CMAKE_BINARY_DIR}/timefConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/timef)
configure_file(cmake/timef.pc.in "${CMAKE_BINARY_DIR}/timef.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/timef.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
