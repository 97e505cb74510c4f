# Third-party dependencies: Debian packages plus DuckDB from third_party/duckdb (scripts/setup-deps.sh).
find_package(PkgConfig REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(SNAPPY REQUIRED IMPORTED_TARGET snappy)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
# Page CRC-32 with the PCLMUL/AVX folding of libdeflate (about 8x zlib's crc32 on 16 KiB pages).
pkg_check_modules(DEFLATE REQUIRED IMPORTED_TARGET libdeflate)
# The Zarr values plane (docs/format.md §8): blosc1 inner codec, ISA-L's CRC-32C (crc32_iscsi) for
# shard indexes.
pkg_check_modules(BLOSC REQUIRED IMPORTED_TARGET blosc)
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)
# Remote releases over HTTP(S) (docs/remote.md).
find_package(CURL REQUIRED)

set(TIMEF_DUCKDB_VERSION 1.4.4)
set(TIMEF_DUCKDB_DIR "${CMAKE_SOURCE_DIR}/third_party/duckdb" CACHE PATH "DuckDB header + library")
if(NOT EXISTS "${TIMEF_DUCKDB_DIR}/lib/libduckdb.so" OR NOT EXISTS "${TIMEF_DUCKDB_DIR}/include/duckdb.h")
  message(FATAL_ERROR "DuckDB not found in ${TIMEF_DUCKDB_DIR}: run scripts/setup-deps.sh (make deps)")
endif()
add_library(DuckDB::duckdb SHARED IMPORTED GLOBAL)
set_target_properties(DuckDB::duckdb PROPERTIES
  IMPORTED_LOCATION "${TIMEF_DUCKDB_DIR}/lib/libduckdb.so"
  IMPORTED_SONAME "libduckdb.so"
  INTERFACE_INCLUDE_DIRECTORIES "${TIMEF_DUCKDB_DIR}/include")
# Installed binaries look for libduckdb.so next to libtimef.
set(TIMEF_DUCKDB_INSTALL_LIBDIR_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
set(CMAKE_BUILD_RPATH "${TIMEF_DUCKDB_DIR}/lib")

# Public: types of these appear in include/timef (nlohmann::ordered_json in timef/json.h). Keep this
# list and find_dependency() in cmake/timefConfig.cmake.in and Requires in cmake/timef.pc.in in step.
set(TIMEF_PUBLIC_DEP_TARGETS nlohmann_json::nlohmann_json)
set(TIMEF_PRIVATE_DEP_TARGETS
  DuckDB::duckdb OpenSSL::Crypto fmt::fmt
  PkgConfig::ZSTD PkgConfig::SNAPPY PkgConfig::LZ4 PkgConfig::DEFLATE PkgConfig::BLOSC PkgConfig::ISAL ZLIB::ZLIB CURL::libcurl Threads::Threads)
set(TIMEF_DEP_TARGETS ${TIMEF_PUBLIC_DEP_TARGETS} ${TIMEF_PRIVATE_DEP_TARGETS})
