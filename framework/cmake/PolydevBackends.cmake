# Resolves POLYDEV_WITH_OPENCL / POLYDEV_WITH_CUDA (AUTO, ON, OFF) into POLYDEV_HAS_OPENCL,
# POLYDEV_HAS_CUDA and POLYDEV_HAS_CUDA_COMPILER. ON fails the configure step when the dependency is
# missing, so a CI that asks for a backend can never silently build without it.

function(_polydev_check_choice variable)
  if(NOT ${variable} MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${variable} is '${${variable}}'; expected AUTO, ON or OFF")
  endif()
endfunction()

_polydev_check_choice(POLYDEV_WITH_OPENCL)
_polydev_check_choice(POLYDEV_WITH_CUDA)

# One OpenCL version for polydev and every consumer, so that the C++ bindings compile the same
# everywhere they are included (polydev::opencl_bindings carries them). Minimum 1.1 (not 1.2): the
# bindings then pick queue creation by the platform's version at run time, and Debian 12's
# bindings do not compile with 3.0/1.2.
set(POLYDEV_OPENCL_BINDINGS_DEFINITIONS CL_TARGET_OPENCL_VERSION=300 CL_HPP_TARGET_OPENCL_VERSION=300
                                        CL_HPP_MINIMUM_OPENCL_VERSION=110)

set(POLYDEV_HAS_OPENCL OFF)
if(NOT POLYDEV_WITH_OPENCL STREQUAL "OFF")
  if(POLYDEV_WITH_OPENCL STREQUAL "ON")
    find_package(OpenCL 1.2 REQUIRED)
  else()
    find_package(OpenCL 1.2 QUIET)
  endif()
  if(OpenCL_FOUND)
    include(CheckIncludeFileCXX)
    set(CMAKE_REQUIRED_INCLUDES ${OpenCL_INCLUDE_DIRS})
    set(CMAKE_REQUIRED_LIBRARIES ${OpenCL_LIBRARIES})
    list(TRANSFORM POLYDEV_OPENCL_BINDINGS_DEFINITIONS PREPEND -D OUTPUT_VARIABLE
         CMAKE_REQUIRED_DEFINITIONS)
    check_include_file_cxx(CL/opencl.hpp POLYDEV_FOUND_OPENCL_HPP)
    unset(CMAKE_REQUIRED_INCLUDES)
    unset(CMAKE_REQUIRED_LIBRARIES)
    unset(CMAKE_REQUIRED_DEFINITIONS)
    if(POLYDEV_FOUND_OPENCL_HPP)
      set(POLYDEV_HAS_OPENCL ON)
    elseif(POLYDEV_WITH_OPENCL STREQUAL "ON")
      message(FATAL_ERROR "POLYDEV_WITH_OPENCL=ON but the Khronos C++ bindings CL/opencl.hpp were "
                          "not found (Debian: apt-get install opencl-clhpp-headers)")
    endif()
  endif()
endif()

set(POLYDEV_HAS_CUDA OFF)
set(POLYDEV_CUDA_VERSION "")
set(POLYDEV_HAS_CUDA_COMPILER OFF)
if(NOT POLYDEV_WITH_CUDA STREQUAL "OFF")
  if(POLYDEV_WITH_CUDA STREQUAL "ON")
    find_package(CUDAToolkit REQUIRED)
  else()
    find_package(CUDAToolkit QUIET)
  endif()
  if(CUDAToolkit_FOUND)
    set(POLYDEV_HAS_CUDA ON)
    set(POLYDEV_CUDA_VERSION "${CUDAToolkit_VERSION}")
    # polydev's targets link polydev::cuda_runtime, never CUDA::cudart_static by name: here (and in
    # a project that adds polydev's source) it is the toolkit's static runtime; the package defines
    # it anew for each consumer (polydevConfig.cmake), as the toolkit's runtime where the consumer
    # uses CUDA and as the copy installed with polydev where it does not, so that a consumer without
    # CUDA code needs no CUDA toolkit. An imported target: export files name it as it is.
    add_library(polydev::cuda_runtime INTERFACE IMPORTED)
    target_link_libraries(polydev::cuda_runtime INTERFACE CUDA::cudart_static)
    # The framework itself needs only the runtime library; nvcc is needed for the kernels of the
    # tests and examples. Hopper (9.0) is what the GPU machines run; 7.5 is CUDA 13's oldest.
    # Without tests, CUDA is not enabled as a language, so a project that adds polydev as a
    # subdirectory does not get it (and its configure-time checks) through polydev.
    if(POLYDEV_BUILD_TESTS)
      include(CheckLanguage)
      check_language(CUDA)
    endif()
    if(POLYDEV_BUILD_TESTS AND CMAKE_CUDA_COMPILER)
      if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
        set(CMAKE_CUDA_ARCHITECTURES 75 90)
      endif()
      enable_language(CUDA)
      set(POLYDEV_HAS_CUDA_COMPILER ON)
    endif()
  endif()
endif()
