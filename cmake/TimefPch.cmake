# Precompiled headers (docs/architecture.md, "Tests and CI time"). Parsing <nlohmann/json.hpp>
# costs 2.5 CPU-seconds per translation unit and <gtest/gtest.h> with <gmock/gmock.h> about 2 more;
# nearly every unity batch of the tree includes them. They are precompiled once per tree in three
# donor targets, and every C++ target of the project reuses one of them (REUSE_FROM) instead of
# parsing them again:
#   timef_pch_pic   position-independent objects (the modules, the CLI objects, the view)
#   timef_pch_exe   executables (examples, tools, fixtures, benches)
#   timef_pch_test  GoogleTest binaries and their support objects, and other objects compiled
#                   as test code (timef_test_compile_options; adds GoogleTest)
# GCC accepts a precompiled header only when it was built with the same -fpic/-fpie setting,
# debug-info level and __OPTIMIZE__ as the unit using it (CMake passes -Winvalid-pch, so a
# rejected one shows as a warning), hence the separate PIC and PIE donors; the test support
# objects are compiled as PIE (they only ever link into test executables). Clang (the sanitizer
# tree's compiler, Makefile) refuses a mismatched header with an error instead, so the same donors
# serve it; its headers are built with -fno-pch-timestamp, without which ccache cannot cache the
# units that use them. Not in a fuzz tree (TIMEF_BUILD_FUZZ), whose targets add flags of their own.
# -DTIMEF_PCH=OFF builds without, which with -DTIMEF_UNITY_BUILD=OFF checks that every source
# includes what it uses.
option(TIMEF_PCH "Precompile nlohmann/json, GoogleTest and common standard headers" ON)

set(timef_pch_common
  <algorithm> <cmath> <cstdint> <cstring> <filesystem> <fstream> <functional> <limits> <map>
  <memory> <optional> <set> <span> <string> <string_view> <utility> <variant> <vector>
  <nlohmann/json.hpp>)

if(TIMEF_PCH AND (CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR
                  (CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND NOT TIMEF_BUILD_FUZZ)))
  set(TIMEF_PCH_ENABLED ON)
else()
  set(TIMEF_PCH_ENABLED OFF)
endif()
if(TIMEF_PCH_ENABLED AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # Reproducible headers for ccache (its manual, "Precompiled headers"): clang otherwise stamps
  # each one with its build time and checks the stamp against the file's. Read when the build
  # files are generated, so it is set in the including (top-level) scope.
  list(APPEND CMAKE_CXX_COMPILE_OPTIONS_CREATE_PCH -Xclang -fno-pch-timestamp)
endif()

# Declares the donors; called once from the top-level CMakeLists.txt before the targets.
function(timef_pch_donors)
  if(NOT TIMEF_PCH_ENABLED)
    return()
  endif()
  set(donor_source "${CMAKE_SOURCE_DIR}/cmake/pch_donor.cc")
  add_library(timef_pch_pic OBJECT "${donor_source}")
  target_precompile_headers(timef_pch_pic PRIVATE ${timef_pch_common})
  target_link_libraries(timef_pch_pic PRIVATE nlohmann_json::nlohmann_json)

  add_library(timef_pch_exe OBJECT "${donor_source}")
  set_target_properties(timef_pch_exe PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(timef_pch_exe PRIVATE -fPIE)
  target_precompile_headers(timef_pch_exe PRIVATE ${timef_pch_common})
  target_link_libraries(timef_pch_exe PRIVATE nlohmann_json::nlohmann_json)

  if(TIMEF_BUILD_TESTS)
    add_library(timef_pch_test OBJECT "${donor_source}")
    set_target_properties(timef_pch_test PROPERTIES POSITION_INDEPENDENT_CODE OFF)
    target_compile_options(timef_pch_test PRIVATE -fPIE)
    target_precompile_headers(timef_pch_test PRIVATE ${timef_pch_common} <gtest/gtest.h>
                              <gmock/gmock.h>)
    # Test code's optimisation level (cmake/TimefTesting.cmake): a GCC precompiled header is
    # rejected by a unit whose -O differs in whether __OPTIMIZE__ is defined.
    timef_test_compile_options(timef_pch_test)
    target_link_libraries(timef_pch_test PRIVATE nlohmann_json::nlohmann_json GTest::gtest
                          GTest::gmock)
  endif()
endfunction()

# Every C++ target defined below DIR (recursively) reuses the donor that fits it. Called once at
# the end of the top-level CMakeLists.txt, after all targets exist.
function(timef_pch_apply dir)
  if(NOT TIMEF_PCH_ENABLED)
    return()
  endif()
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(no_pch ${target} DISABLE_PRECOMPILE_HEADERS)
    if(target MATCHES "^timef_pch_" OR target STREQUAL "timef_python" OR no_pch)
      # timef_python: Python.h must come before any standard header, so no shared prefix fits it.
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    get_target_property(sources ${target} SOURCES)
    if(NOT sources)
      continue()
    endif()
    list(FILTER sources INCLUDE REGEX "\\.(cc|cpp|cxx)$")
    if(NOT sources)
      continue()
    endif()
    get_target_property(links ${target} LINK_LIBRARIES)
    get_target_property(pic ${target} POSITION_INDEPENDENT_CODE)
    if(type STREQUAL "EXECUTABLE")
      set(pie ON)
    elseif(type MATCHES "^(OBJECT|STATIC)_LIBRARY$" AND NOT pic)
      set(pie ON)
    elseif(type MATCHES "^(OBJECT|STATIC|SHARED|MODULE)_LIBRARY$")
      set(pie OFF)
    else()
      continue()
    endif()
    get_target_property(test_code ${target} TIMEF_TEST_CODE)
    if(pie AND TARGET timef_pch_test AND ("GTest::gtest" IN_LIST links OR test_code))
      set(donor timef_pch_test)
      if(NOT "GTest::gtest" IN_LIST links)
        # Test code without GoogleTest (a fixture's writer): the test header was built with
        # GoogleTest's flags (-DGTEST_HAS_PTHREAD=1), which GCC requires of its users too.
        target_compile_options(${target}
          PRIVATE $<TARGET_PROPERTY:GTest::gtest,INTERFACE_COMPILE_OPTIONS>)
      endif()
    elseif(pie)
      set(donor timef_pch_exe)
    else()
      set(donor timef_pch_pic)
    endif()
    if(donor STREQUAL "timef_pch_test")
      timef_test_compile_options(${target})
    endif()
    target_precompile_headers(${target} REUSE_FROM ${donor})
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    timef_pch_apply("${subdir}")
  endforeach()
endfunction()
