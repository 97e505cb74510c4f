find_package(GTest REQUIRED)
include(GoogleTest)

# timef_add_test(NAME MODULES core manifest ... SOURCES a_test.cc ... [SHARDS n] [COST c])
# One GoogleTest binary per module, linked with only the modules it tests (and their dependencies),
# so a module that does not compile does not stop the others' tests. TIMEF_SOURCE_DIR and
# TIMEF_BINARY_DIR point at the trees; tests write scratch files below $TIMEF_TEST_OUT.
#
# How the binary becomes CTest tests (docs/architecture.md, "Tests and CI time"): by default
# (TIMEF_TEST_PER_CASE=OFF) it runs as SHARDS CTest tests NAME/0 … NAME/<n-1>, each a process that
# runs its share of the cases through GoogleTest's own sharding (GTEST_TOTAL_SHARDS and
# GTEST_SHARD_INDEX: every case runs in exactly one shard). One process per case cost 2.7 times
# the CPU of one process per binary (suite fixtures built again for every case, DuckDB and the
# sanitizer runtime started again), which was most of CI's test time. SHARDS (default 1) lets
# `ctest -j` spread a large binary over the cores. A failing shard prints every failed case with
# its output (--output-on-failure); run one case with `NAME --gtest_filter=Suite.Case`.
# -DTIMEF_TEST_PER_CASE=ON registers every case as its own CTest test instead (gtest_discover_tests),
# for `ctest -R Suite.Case` while developing.
# COST (optional) is the CTest cost of each test: with no timing data yet (a clean CI clone),
# `ctest -j` starts the costliest tests first, so a long one does not run alone at the end.
option(TIMEF_TEST_PER_CASE "Register every GoogleTest case as its own CTest test" OFF)

# timef_register_gtest(TARGET [SHARDS n] [COST c] [LABELS l...] [TIMEOUT s])
# Registers an already defined GoogleTest executable with CTest as described above.
function(timef_register_gtest target)
  cmake_parse_arguments(ARG "" "SHARDS;COST;TIMEOUT" "LABELS" ${ARGN})
  if(NOT ARG_SHARDS)
    set(ARG_SHARDS 1)
  endif()
  if(NOT ARG_COST)
    set(ARG_COST 0)
  endif()
  set(props COST ${ARG_COST})
  if(ARG_LABELS)
    list(APPEND props LABELS "${ARG_LABELS}")
  endif()
  if(ARG_TIMEOUT)
    list(APPEND props TIMEOUT ${ARG_TIMEOUT})
  endif()
  # TIMEF_CACHE_DIR: what a test caches (a legacy directory's metadata catalog, docs/format.md
  # §15.8; remote catalogs) stays in the build tree, not in the user's ~/.cache.
  set(out "TIMEF_TEST_OUT=${CMAKE_BINARY_DIR}/test-out;TIMEF_CACHE_DIR=${CMAKE_BINARY_DIR}/test-out/cache")
  if(TIMEF_TEST_PER_CASE)
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT "${out}" ${props})
    return()
  endif()
  math(EXPR last "${ARG_SHARDS} - 1")
  foreach(index RANGE ${last})
    set(test_name ${target}/${index})
    # --gtest_brief: only failures are printed, so a passing shard's log stays short.
    add_test(NAME ${test_name} COMMAND ${target} --gtest_brief=1)
    set_tests_properties(${test_name} PROPERTIES ${props} ENVIRONMENT
      "${out};GTEST_TOTAL_SHARDS=${ARG_SHARDS};GTEST_SHARD_INDEX=${index}")
  endforeach()
endfunction()

# Test code itself (not the modules it links, which keep the tree's flags) is compiled at -O0 in
# every tree: the tests' time is spent in the library, while optimising GoogleTest bodies is most
# of a test batch's compile time, and far more under the sanitizers (a batch of model_test: 22
# CPU-s at -O1 against 15 at -O0 optimised; 71 against 29 with ASan + UBSan, where instrumented
# test code then runs about 15 % slower: 20 cases of catalog_test, 5.3 against 6.2 CPU-s). -O0
# removes no check. The tests' precompiled header (cmake/TimefPch.cmake) is built with the same
# options, as GCC requires. A test whose own code is a workload (timef_add_test(... OPTIMIZED): the
# Parquet tests build, encode and compare every value in test code, and took 2.4 times as long at
# -O0) keeps -O1 and compiles without that header.
set(TIMEF_TEST_CODE_OPTIONS -O0)
function(timef_test_compile_options target)
  get_target_property(optimized ${target} TIMEF_TEST_CODE_OPTIMIZED)
  if(optimized)
    target_compile_options(${target} PRIVATE -O1)
    set_target_properties(${target} PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  else()
    target_compile_options(${target} PRIVATE ${TIMEF_TEST_CODE_OPTIONS})
    # Compiled as the GoogleTest binaries are, so it takes their precompiled header even when it
    # does not link GoogleTest (cmake/TimefPch.cmake): the others were built optimised.
    set_target_properties(${target} PROPERTIES TIMEF_TEST_CODE ON)
  endif()
endfunction()

# Test objects that only ever link into executables are compiled position-independent for an
# executable (-fPIE, as CMake compiles the executables) rather than for a shared library, so they
# can use the executables' precompiled header (cmake/TimefPch.cmake).
function(timef_test_object_pie target)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(${target} PRIVATE -fPIE)
endfunction()

# timef_test_support(NAME MODULES ... SOURCES ...)
# Test support code (fixtures shared by several test binaries and tools) as an OBJECT library,
# compiled once; a test takes it with timef_add_test(... SUPPORT NAME). It sees the include paths of
# MODULES; the test that links it supplies their objects.
function(timef_test_support name)
  cmake_parse_arguments(ARG "" "" "MODULES;SOURCES" ${ARGN})
  add_library(${name} OBJECT ${ARG_SOURCES})
  timef_test_object_pie(${name})
  timef_module_closure(closure ${ARG_MODULES})
  foreach(m IN LISTS closure)
    target_link_libraries(${name} PUBLIC timef_${m})
  endforeach()
  target_link_libraries(${name} PUBLIC GTest::gtest)
  target_include_directories(${name} PUBLIC "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/tests")
  timef_test_compile_options(${name})
endfunction()

function(timef_add_test name)
  cmake_parse_arguments(ARG "OPTIMIZED" "COST;SHARDS" "MODULES;SOURCES;SUPPORT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES TIMEF_TEST_CODE_OPTIMIZED ${ARG_OPTIMIZED})
  timef_link_modules(${name} ${ARG_MODULES})
  foreach(support IN LISTS ARG_SUPPORT)
    target_link_libraries(${name} PRIVATE ${support})
  endforeach()
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gmock GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/tests")
  target_compile_definitions(${name} PRIVATE
    TIMEF_SOURCE_DIR="${CMAKE_SOURCE_DIR}" TIMEF_BINARY_DIR="${CMAKE_BINARY_DIR}")
  timef_test_compile_options(${name})
  timef_register_gtest(${name} SHARDS "${ARG_SHARDS}" COST "${ARG_COST}")
endfunction()
