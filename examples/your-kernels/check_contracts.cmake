# my_kernels.contracts: the library's variants, as kcheck reads their records, against declared_contracts.txt.
# Usage: cmake -DKCHECK=<kcheck> -DLIBRARY=<variant library> -DEXPECTED=<file> -P check_contracts.cmake
execute_process(COMMAND "${KCHECK}" --variants-library "${LIBRARY}" --contracts
                RESULT_VARIABLE status OUTPUT_VARIABLE contracts ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kcheck could not read ${LIBRARY} (exit ${status}):\n${errors}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT contracts STREQUAL expected)
  message(FATAL_ERROR "the records of ${LIBRARY} differ from ${EXPECTED}:\n--- kept\n${expected}--- declared now\n"
                      "${contracts}If the change is meant: \"${KCHECK}\" --variants-library \"${LIBRARY}\" --contracts > "
                      "\"${EXPECTED}\"")
endif()
message(STATUS "the records of ${LIBRARY} are the contracts kept in ${EXPECTED}")
