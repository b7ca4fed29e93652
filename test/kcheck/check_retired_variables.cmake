# cpu.retired_variables: a variable of the old KCHECK_* prefix still set stops kcheck and a test
# process with exit 2, naming its KERNELS_* name, instead of being ignored (docs/running.md).
# Usage: cmake -DKCHECK=<path> -DTEST_PROGRAM=<path> -P check_retired_variables.cmake
foreach(program IN ITEMS "${KCHECK}" "${TEST_PROGRAM}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env KCHECK_SEED=7 "${program}" --help
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 2 OR NOT errors MATCHES "KCHECK_SEED is set.*set KERNELS_SEED instead")
    message(FATAL_ERROR "${program} with KCHECK_SEED set: exit ${status}, expected 2 naming KERNELS_SEED:\n${errors}")
  endif()
  execute_process(COMMAND "${program}" --help RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${program} --help without retired variables: exit ${status}:\n${errors}")
  endif()
endforeach()
message(STATUS "KCHECK_SEED refused by kcheck and by ${TEST_PROGRAM}, naming KERNELS_SEED")
