# The polydev CMake package: `cmake --install` gives
#   find_package(polydev CONFIG REQUIRED COMPONENTS framework pools gtest)
# with the targets polydev::framework, polydev::pools, polydev::test_inputs, polydev::gtest,
# polydev::gtest_main and polydev::tool, and polydev::opencl_bindings and polydev::opencl_memory
# where polydev has OpenCL.
# Included by the top-level CMakeLists.txt after the component directories, so the whole package is
# described in one place.
#
# One export set per component, so that a consumer asking for `framework` alone never needs
# GoogleTest. CMake checks at generate time that a target of one set is linked only to targets that
# are exported too.
#
# Also makes the CMake helpers of fixtures/cmake (Polydev*.cmake) and the backend variables
# (polydev_HAS_OPENCL, polydev_HAS_CUDA) available to add_subdirectory / FetchContent users, under
# the same names as through find_package. The including project's CMAKE_MODULE_PATH is left as it
# was: the helpers are included here, by path.
#
# The build tree is a package too (as fmt's is): export() writes the targets files next to
# polydevConfig.cmake in the build folder, so `-Dpolydev_DIR=<build folder>` finds polydev without
# installing it.

include(CMakePackageConfigHelpers)

set(polydev_HAS_OPENCL
    ${POLYDEV_HAS_OPENCL}
    CACHE INTERNAL "polydev was built with its OpenCL backend")
set(polydev_HAS_CUDA
    ${POLYDEV_HAS_CUDA}
    CACHE INTERNAL "polydev was built with its CUDA backend")

# Functions are global in CMake: including the helpers here defines them for the project that
# added polydev as a subdirectory as well. That project still includes a helper itself, by path
# (${polydev_SOURCE_DIR}/fixtures/cmake/PolydevDeviceTests.cmake), where it calls it: the helper
# loads CMake's GoogleTest module, whose gtest_discover_tests reads a variable of the including
# scope.
file(GLOB _polydev_helper_modules "${PROJECT_SOURCE_DIR}/fixtures/cmake/Polydev*.cmake")
foreach(_polydev_module IN LISTS _polydev_helper_modules)
  include("${_polydev_module}")
endforeach()

if(TARGET polydev_tool)
  set_target_properties(polydev_tool PROPERTIES EXPORT_NAME tool)
  set(POLYDEV_PACKAGE_HAS_TOOL ON)
else()
  set(POLYDEV_PACKAGE_HAS_TOOL OFF)
endif()

if(NOT POLYDEV_INSTALL)
  return()
endif()

# Headers: every public header of a component, so that new headers need no install rule of their
# own. The opencl/ and cuda/ headers are installed also when their backend is off: they are
# documented API, guarded where needed, and a prefix should not change shape with the backends.
foreach(_polydev_component IN ITEMS framework pools memory fixtures)
  install(
    DIRECTORY "${PROJECT_SOURCE_DIR}/${_polydev_component}/include/"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
    COMPONENT polydev_development
    FILES_MATCHING
    PATTERN "*.hpp")
endforeach()
# The header that the build generates (fixtures/CMakeLists.txt).
install(FILES "${POLYDEV_GENERATED_INCLUDE_DIR}/polydev/placeholders.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/polydev" COMPONENT polydev_development)

# _polydev_install_component(name TARGETS ...): the libraries of one package component and its
# exported targets file polydev-<name>-targets.cmake.
function(_polydev_install_component name)
  cmake_parse_arguments(ARG "" "" "TARGETS" ${ARGN})
  install(
    TARGETS ${ARG_TARGETS}
    EXPORT polydev-${name}-targets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT polydev_development
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT polydev_runtime
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT polydev_runtime)
  install(
    EXPORT polydev-${name}-targets
    NAMESPACE polydev::
    DESTINATION "${POLYDEV_INSTALL_CMAKEDIR}"
    COMPONENT polydev_development)
  export(
    EXPORT polydev-${name}-targets
    NAMESPACE polydev::
    FILE "${PROJECT_BINARY_DIR}/polydev-${name}-targets.cmake")
endfunction()

if(TARGET polydev_opencl_bindings)
  _polydev_install_component(framework TARGETS polydev_framework polydev_opencl_bindings)
else()
  _polydev_install_component(framework TARGETS polydev_framework)
endif()
# polydev::opencl_memory comes with the pools component: the operations work on pooled memory.
if(TARGET polydev_opencl_memory)
  _polydev_install_component(pools TARGETS polydev_pools polydev_opencl_memory)
else()
  _polydev_install_component(pools TARGETS polydev_pools)
endif()
_polydev_install_component(gtest TARGETS polydev_test_inputs polydev_gtest polydev_gtest_main)
if(POLYDEV_PACKAGE_HAS_TOOL)
  _polydev_install_component(tool TARGETS polydev_tool)
  # The Slurm recipe's scripts (docs/clusters.md), next to the tool they call.
  install(PROGRAMS "${PROJECT_SOURCE_DIR}/fixtures/scripts/polydev-slurm-step"
                   "${PROJECT_SOURCE_DIR}/fixtures/scripts/polydev-suite.sbatch"
          DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT polydev_runtime)
endif()

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/polydevConfig.cmake.in" "${PROJECT_BINARY_DIR}/polydevConfig.cmake"
  INSTALL_DESTINATION "${POLYDEV_INSTALL_CMAKEDIR}"
  NO_SET_AND_CHECK_MACRO)
# SameMajorVersion: a project asking for polydev 0.1 accepts any later 0.x release.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/polydevConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion)
install(
  FILES "${PROJECT_BINARY_DIR}/polydevConfig.cmake"
        "${PROJECT_BINARY_DIR}/polydevConfigVersion.cmake" ${_polydev_helper_modules}
  DESTINATION "${POLYDEV_INSTALL_CMAKEDIR}"
  COMPONENT polydev_development)
# The build tree's package: polydevConfig.cmake includes the helpers found next to it.
foreach(_polydev_module IN LISTS _polydev_helper_modules)
  get_filename_component(_polydev_module_name "${_polydev_module}" NAME)
  configure_file("${_polydev_module}" "${PROJECT_BINARY_DIR}/${_polydev_module_name}" COPYONLY)
endforeach()

# The CUDA runtime for a consumer without a CUDA toolkit: polydev's libraries are static and call
# the CUDA runtime, so a program that links them links a CUDA runtime too. polydevConfig.cmake links
# the consumer's toolkit's runtime where the consumer uses CUDA (component `cuda`), and otherwise
# the one polydev was built with: its copy in the prefix (lib/polydev/libcudart_static.a, which
# NVIDIA's license lets applications redistribute) or, for the build tree, the toolkit's file.
if(POLYDEV_HAS_CUDA)
  get_target_property(_polydev_cudart CUDA::cudart_static IMPORTED_LOCATION)
  get_filename_component(_polydev_cudart "${_polydev_cudart}" REALPATH)
  set(_polydev_runtime_dir "${CMAKE_INSTALL_LIBDIR}/polydev")
  install(
    FILES "${_polydev_cudart}"
    DESTINATION "${_polydev_runtime_dir}"
    RENAME libcudart_static.a
    COMPONENT polydev_development)
  # Relative to the installed polydevConfig.cmake, so that the prefix can move.
  file(RELATIVE_PATH _polydev_runtime_from_config "/prefix/${POLYDEV_INSTALL_CMAKEDIR}"
       "/prefix/${_polydev_runtime_dir}/libcudart_static.a")
  set(_polydev_runtime_template
      [=[# polydev::cuda_runtime as the static CUDA runtime that polydev was built with (CUDA
# @POLYDEV_CUDA_VERSION@), for a consumer that uses no CUDA itself; polydevConfig.cmake includes this.
get_filename_component(_polydev_cuda_runtime_file "@_polydev_runtime_file@" ABSOLUTE)
add_library(polydev::cuda_runtime STATIC IMPORTED)
set_target_properties(polydev::cuda_runtime PROPERTIES IMPORTED_LOCATION "${_polydev_cuda_runtime_file}")
unset(_polydev_cuda_runtime_file)
# What CUDA's static runtime needs on Linux, as FindCUDAToolkit gives it.
target_link_libraries(polydev::cuda_runtime INTERFACE Threads::Threads dl rt)
]=])
  set(_polydev_runtime_file "\${CMAKE_CURRENT_LIST_DIR}/${_polydev_runtime_from_config}")
  string(CONFIGURE "${_polydev_runtime_template}" _polydev_runtime_text @ONLY)
  file(WRITE "${PROJECT_BINARY_DIR}/install/polydev-cuda-runtime.cmake" "${_polydev_runtime_text}")
  install(
    FILES "${PROJECT_BINARY_DIR}/install/polydev-cuda-runtime.cmake"
    DESTINATION "${POLYDEV_INSTALL_CMAKEDIR}"
    COMPONENT polydev_development)
  set(_polydev_runtime_file "${_polydev_cudart}")
  string(CONFIGURE "${_polydev_runtime_template}" _polydev_runtime_text @ONLY)
  file(WRITE "${PROJECT_BINARY_DIR}/polydev-cuda-runtime.cmake" "${_polydev_runtime_text}")
endif()
