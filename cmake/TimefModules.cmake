# timef_module(NAME SOURCES a.cc ... [DEPENDS core ...])
# Declares the OBJECT library timef_<NAME>. DEPENDS names other modules (for the link closure of
# tests); every module sees the public headers, src/ and the third-party targets.
function(timef_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(timef_${name} OBJECT ${ARG_SOURCES})
  target_include_directories(timef_${name}
    PUBLIC "${CMAKE_SOURCE_DIR}/include" "${TIMEF_GENERATED_INCLUDEDIR}"
    PRIVATE "${CMAKE_SOURCE_DIR}/src")
  target_link_libraries(timef_${name} PUBLIC ${TIMEF_DEP_TARGETS})
  set_property(TARGET timef_${name} PROPERTY TIMEF_DEPENDS ${ARG_DEPENDS})
  set_property(GLOBAL APPEND PROPERTY TIMEF_MODULES ${name})
endfunction()

# Sets OUT to the modules in NAMES and everything they depend on, dependencies first.
function(timef_module_closure out)
  set(result "")
  set(pending ${ARGN})
  while(pending)
    list(POP_FRONT pending m)
    if(NOT m IN_LIST result)
      list(APPEND result ${m})
      get_property(deps TARGET timef_${m} PROPERTY TIMEF_DEPENDS)
      list(APPEND pending ${deps})
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Links the objects of MODULES (and their dependency closure) into TARGET.
function(timef_link_modules target)
  timef_module_closure(closure ${ARGN})
  foreach(m IN LISTS closure)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:timef_${m}>)
    target_link_libraries(${target} PRIVATE timef_${m})
  endforeach()
endfunction()
