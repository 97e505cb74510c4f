find_package(GTest REQUIRED)
include(GoogleTest)

# timef_add_test(NAME SOURCES...): one GoogleTest binary registered with CTest per test case.
# Tests run from the build directory; TIMEF_SOURCE_DIR and TIMEF_BINARY_DIR point at the trees.
function(timef_add_test name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE timef_static GTest::gtest GTest::gmock GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(${name} PRIVATE
    TIMEF_SOURCE_DIR="${CMAKE_SOURCE_DIR}" TIMEF_BINARY_DIR="${CMAKE_BINARY_DIR}")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT
    "TIMEF_TEST_OUT=${CMAKE_BINARY_DIR}/test-out")
endfunction()
