# kernels_enable_warnings(target): the warning set every target of the suite builds with.
function(kernels_enable_warnings target)
  set(host_warnings -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
  if(KERNELS_WARNINGS_AS_ERRORS)
    list(APPEND host_warnings -Werror)
  endif()
  list(JOIN host_warnings "," host_warnings_for_nvcc)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${host_warnings}>
    # nvcc: device-side warnings from the CUDA front end, host-side from g++.
    $<$<COMPILE_LANGUAGE:CUDA>:--Wreorder --Wno-deprecated-gpu-targets -Xcompiler=-Wall,-Wextra>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${KERNELS_WARNINGS_AS_ERRORS}>>:--Werror=all-warnings>)
endfunction()
