# polydev_set_warnings(target): the project's own warning flags, applied PRIVATE so they never leak
# into consumers. -Werror only with POLYDEV_WERROR (ON in CI), never forced on subproject users.
function(polydev_set_warnings target)
  target_compile_options(
    ${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
                      -Wno-sign-conversion>)
  if(POLYDEV_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                             $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
