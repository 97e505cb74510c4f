// The one source of the precompiled-header donor targets (cmake/TimefPch.cmake): it only gives
// CMake a unit to build the shared precompiled headers with.
