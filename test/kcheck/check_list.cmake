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
# Each block-size description is whole: "0 or a power of two in [2, 1024]" once lost its end.
foreach(line IN LISTS lines)
  if(line MATCHES "^(reduce|scan|sort)/" AND line MATCHES "power of two" AND NOT line MATCHES "power of two in \\[[0-9]+, [0-9]+\\]")
    message(FATAL_ERROR "a block-size description is cut: ${line}")
  endif()
endforeach()
message(STATUS "${variants} variants, each line starting with its id")
