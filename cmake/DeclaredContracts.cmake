# Writes test/cpu/declared_contracts.txt from the registry the build made (kcheck --contracts),
# only when it changed, and says so: a new variant's contract, or a moved one, then shows in
# `git diff` and is committed with the kernel. CI fails when the committed file is stale.
# Usage: cmake -DKCHECK=<kcheck> -DCONTRACTS=<declared_contracts.txt> -P DeclaredContracts.cmake
execute_process(COMMAND ${KCHECK} --contracts OUTPUT_VARIABLE lines RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kcheck --contracts exited ${status}")
endif()
set(header [=[
# The contract each variant declares, written by the build from the registry (kcheck --contracts;
# cmake/DeclaredContracts.cmake): its flags, types and ops, kinds or forms, and its longest input
# at every block size it admits. A change here is a change of what callers may rely on: review it
# and commit it with the kernel. registry_test.cpp checks every loaded library against this file.
]=])
set(text "${header}${lines}")
if(EXISTS ${CONTRACTS})
  file(READ ${CONTRACTS} committed)
endif()
if(NOT text STREQUAL committed)
  file(WRITE ${CONTRACTS} "${text}")
  message(STATUS "declared_contracts.txt: rewritten from the registry; review the change and commit it")
endif()
