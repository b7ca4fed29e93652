# cpu.kcheck_list: every variant line of `kcheck --list` starts with the variant's id and two
# spaces, so the first word of a line is an id that kcheck accepts (scripts such as
# ci/device-check.sh read it so). An id longer than its column once ran into the next one.
# Usage: cmake -DKCHECK=<path> -P check_list.cmake
execute_process(COMMAND "${KCHECK}" --list RESULT_VARIABLE status OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kcheck --list failed (${status}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(variants 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^(reduce|scan|sort)/")
    math(EXPR variants "${variants} + 1")
    if(NOT line MATCHES "^(reduce|scan|sort)/[a-z0-9_/]+  ")
      message(FATAL_ERROR "the id does not stand apart at the start of: ${line}")
    endif()
  endif()
endforeach()
if(variants EQUAL 0)
  message(FATAL_ERROR "kcheck --list lists no variant:\n${listing}")
endif()
message(STATUS "${variants} variants, each line starting with its id")
