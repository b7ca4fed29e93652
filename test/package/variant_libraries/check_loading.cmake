# cpu.variant_libraries: a variant library given by name joins the registry; each bad one stops kcheck and a test
# program with exit 2 before anything runs, naming the library and why.
# Usage: cmake -DKCHECK=<kcheck> -DTEST_PROGRAM=<path> -DLIBRARIES=<folder> -P check_loading.cmake
set(good "${LIBRARIES}/libvariant_library_good.so")

# expect(<exit status> <regex of stderr+stdout> <KERNELS_VARIANT_LIBRARIES> <program> [args...])
function(expect status pattern libraries)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "KERNELS_VARIANT_LIBRARIES=${libraries}" ${ARGN}
                  RESULT_VARIABLE got OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT got EQUAL status OR NOT "${output}${errors}" MATCHES "${pattern}")
    message(FATAL_ERROR "KERNELS_VARIANT_LIBRARIES=${libraries} ${ARGN}: exit ${got}, expected ${status} and "
                        "'${pattern}':\n${output}${errors}")
  endif()
endfunction()

expect(0 "reduce/fixture_float_max" "${good}" "${KCHECK}" --list)
expect(0 "reduce/fixture_float_max" "" "${KCHECK}" --variants-library "${good}" --list)
expect(2 "variant library '[^']*/missing.so': no such file" "${LIBRARIES}/missing.so" "${KCHECK}" --list)
expect(2 "variant_library_missing_symbol.so': does not load: .*undefined symbol: .*symbol_defined_nowhere"
       "${LIBRARIES}/libvariant_library_missing_symbol.so" "${KCHECK}" --list)
expect(2 "variant_library_registers_nothing.so': registers no variant"
       "${LIBRARIES}/libvariant_library_registers_nothing.so" "${KCHECK}" --list)
expect(2 "variant_library_contradicting_record.so': a record refused: reduce/contradicting_record: declares no"
       "${LIBRARIES}/libvariant_library_contradicting_record.so" "${KCHECK}" --list)
expect(2 "variant_library_copy.so': a record refused: reduce/fixture_float_max: registered twice"
       "${good}:${LIBRARIES}/libvariant_library_copy.so" "${KCHECK}" --list)
expect(0 "reduce/fixture_float_max" "${good}:${good}" "${KCHECK}" --list)
expect(2 "variant_library_operator_named_twice.so': a record refused: operator unitriangular: registered twice"
       "${LIBRARIES}/libvariant_library_operator_named_twice.so" "${KCHECK}" --list)
expect(2 "variant_library_other_version.so': not built against version 2 of the variant interface"
       "${LIBRARIES}/libvariant_library_other_version.so" "${KCHECK}" --list)  # the same library twice loads once
expect(2 "variant_library_registers_nothing.so': registers no variant"
       "${LIBRARIES}/libvariant_library_registers_nothing.so" "${TEST_PROGRAM}" --gtest_list_tests)
message(STATUS "a good library joins kcheck's registry; every bad one exits 2 naming it (kcheck, ${TEST_PROGRAM})")
