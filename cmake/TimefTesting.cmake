find_package(GTest REQUIRED)
include(GoogleTest)

# timef_add_test(NAME MODULES core manifest ... SOURCES a_test.cc ...)
# One GoogleTest binary per module, linked with only the modules it tests (and their dependencies),
# so a module that does not compile does not stop the others' tests. TIMEF_SOURCE_DIR and
# TIMEF_BINARY_DIR point at the trees; tests write scratch files below $TIMEF_TEST_OUT.
function(timef_add_test name)
  cmake_parse_arguments(ARG "" "" "MODULES;SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  timef_link_modules(${name} ${ARG_MODULES})
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gmock GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(${name} PRIVATE
    TIMEF_SOURCE_DIR="${CMAKE_SOURCE_DIR}" TIMEF_BINARY_DIR="${CMAKE_BINARY_DIR}")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT
    "TIMEF_TEST_OUT=${CMAKE_BINARY_DIR}/test-out")
endfunction()
