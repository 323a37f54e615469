# polydev_set_warnings(target): the project's own warning flags, applied PRIVATE so they never leak
# into consumers. -Werror only with POLYDEV_WERROR (ON in CI), never forced on subproject users.
function(polydev_set_warnings target)
  target_compile_options(
    ${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
                      -Wno-sign-conversion>)
  # GCC 12 warns of an overlapping memcpy inside libstdc++'s own std::string code where it inlines
  # it (-O3, C++20): a false positive of that release's -Wrestrict, twelve of them in polydev's
  # sources in the build of a project that adds polydev with CMAKE_CXX_STANDARD 20.
  set(gnu "$<COMPILE_LANG_AND_ID:CXX,GNU>")
  set(before_13 "$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>")
  target_compile_options(${target} PRIVATE "$<$<AND:${gnu},${before_13}>:-Wno-restrict>")
  if(POLYDEV_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                             $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
