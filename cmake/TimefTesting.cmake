find_package(GTest REQUIRED)
include(GoogleTest)

# timef_add_test(NAME MODULES core manifest ... SOURCES a_test.cc ...)
# One GoogleTest binary per module, linked with only the modules it tests (and their dependencies),
# so a module that does not compile does not stop the others' tests. TIMEF_SOURCE_DIR and
# TIMEF_BINARY_DIR point at the trees; tests write scratch files below $TIMEF_TEST_OUT.
# COST (optional) is the CTest cost of each of its tests: with no timing data yet (a clean CI
# clone), `ctest -j` starts the costliest tests first, so a long one does not run alone at the end.
function(timef_add_test name)
  cmake_parse_arguments(ARG "" "COST" "MODULES;SOURCES" ${ARGN})
  if(NOT ARG_COST)
    set(ARG_COST 0)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  timef_link_modules(${name} ${ARG_MODULES})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gmock GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(${name} PRIVATE
    TIMEF_SOURCE_DIR="${CMAKE_SOURCE_DIR}" TIMEF_BINARY_DIR="${CMAKE_BINARY_DIR}")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT
    "TIMEF_TEST_OUT=${CMAKE_BINARY_DIR}/test-out" COST ${ARG_COST})
endfunction()
