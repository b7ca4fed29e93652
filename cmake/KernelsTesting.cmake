# How tests become ctest entries.
#
# GPU test executables are grouped: one process runs every test of one variant (and one element
# type), because creating a CUDA context costs ~0.3 s per process. The variants come from the
# executable itself at ctest time (`<exe> --list-variants`, which prints the gtest parameter
# names it was instantiated for), so registering a variant in kernels/ is all it takes to get
# its ctest entries and labels.

# The type keys of the library and the names tests and labels use for them, read from the one
# list in kernels/include/kernels/types.hpp: KERNELS_TYPE_KEYS (every key), KERNELS_ELEMENT_TYPE_KEYS
# (those every family has; the widening key is the reductions' only) and KERNELS_TYPE_NAME_<key>.
file(STRINGS ${PROJECT_SOURCE_DIR}/kernels/include/kernels/types.hpp type_lines REGEX "^  X\\([a-z0-9_]+, ")
# The list's lines end in the macro's backslashes, which would escape CMake's list separators.
string(REPLACE "\\" "" type_lines "${type_lines}")
set(KERNELS_TYPE_KEYS "")
set(KERNELS_ELEMENT_TYPE_KEYS "")
foreach(line IN LISTS type_lines)
  string(REGEX MATCH "X\\(([a-z0-9_]+), ([a-z ]+), ([a-z ]+), ([a-z0-9_]+)\\)" match "${line}")
  list(APPEND KERNELS_TYPE_KEYS ${CMAKE_MATCH_1})
  if(CMAKE_MATCH_2 STREQUAL CMAKE_MATCH_3)
    list(APPEND KERNELS_ELEMENT_TYPE_KEYS ${CMAKE_MATCH_1})
  endif()
  set(KERNELS_TYPE_NAME_${CMAKE_MATCH_1} ${CMAKE_MATCH_4})
endforeach()
if(NOT KERNELS_TYPE_KEYS)
  message(FATAL_ERROR "no type list found in kernels/include/kernels/types.hpp")
endif()

# Every GPU test: skipped (exit 77) without a GPU, bounded in time so a hung kernel cannot eat a
# runner, and one slot of one GPU when ctest runs with a resource specification
# (ci/gpu-resource-spec.sh): on a machine with several GPUs, `ctest -j` spreads the tests over
# them. Without a specification the resource groups are ignored.
set(KERNELS_GPU_SLOTS_PER_GPU 4)
set(KERNELS_GPU_TEST_PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_GROUPS gpus:1)

# kernels_add_cpu_test(<target> [LABELS <label>...])
function(kernels_add_cpu_test target)
  cmake_parse_arguments(arg "" "" "LABELS" ${ARGN})
  add_test(NAME cpu.${target} COMMAND ${target})
  set_tests_properties(cpu.${target} PROPERTIES LABELS "cpu;${arg_LABELS}" TIMEOUT 300)
endfunction()

# kernels_add_gpu_test(<name> COMMAND <target> [args...] LABELS <label>... [PROPERTIES <prop> <value>...])
function(kernels_add_gpu_test name)
  cmake_parse_arguments(arg "" "" "COMMAND;LABELS;PROPERTIES" ${ARGN})
  add_test(NAME ${name} COMMAND ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "gpu;${arg_LABELS}" ${KERNELS_GPU_TEST_PROPERTIES} ${arg_PROPERTIES})
endfunction()

# kernels_add_tests_per_variant(<target> NAME <prefix> [FAMILY <family>] [LABELS <label>...]
#                               [LAUNCHER <command>...] [PROPERTIES <prop> <value>...])
# Adds an entry per variant the executable lists (`<target> --list-variants`), running
# `[LAUNCHER...] <target> --gtest_filter=*/<param>`, labelled LABELS, the variant's family and
# its id (<family>/<variant>). With FAMILY the parameters name variants of that family and the
# entries are "<prefix>.<variant>"; without, they name ids (variant_param_id) and the entries are
# "<prefix>.<family>/<variant>". Each entry's failure list (harness/core/failure_list.hpp) is
# named after it.
function(kernels_add_tests_per_variant target)
  cmake_parse_arguments(arg "" "FAMILY;NAME" "LABELS;PROPERTIES;LAUNCHER" ${ARGN})
  list(JOIN arg_LABELS ";" labels)
  set(properties ${arg_PROPERTIES})
  set(launcher "")
  foreach(word IN LISTS arg_LAUNCHER)
    string(APPEND launcher "\"${word}\" ")
  endforeach()
  string(MAKE_C_IDENTIFIER "${arg_NAME}" script_name)
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${script_name}_variant_tests.cmake")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/variant_tests.cmake.in "${script}.in" @ONLY)
  file(GENERATE OUTPUT "${script}" INPUT "${script}.in")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

# kernels_add_gpu_tests_per_variant(<target> FAMILY <family> [NAME <prefix>] [LABELS <label>...]
#                                   [LAUNCHER <command>...] [PROPERTIES <prop> <value>...])
# The GPU tests of one family's executable: kernels_add_tests_per_variant with the label gpu and
# the GPU tests' properties; NAME defaults to the target's name.
function(kernels_add_gpu_tests_per_variant target)
  cmake_parse_arguments(arg "" "FAMILY;NAME" "LABELS;PROPERTIES;LAUNCHER" ${ARGN})
  if(NOT arg_NAME)
    set(arg_NAME ${target})
  endif()
  kernels_add_tests_per_variant(${target} NAME ${arg_NAME} FAMILY ${arg_FAMILY} LABELS gpu ${arg_LABELS}
                                LAUNCHER ${arg_LAUNCHER} PROPERTIES ${KERNELS_GPU_TEST_PROPERTIES} ${arg_PROPERTIES})
endfunction()

# kernels_add_cpu_tests_per_variant(<target> NAME <prefix> [LABELS <label>...])
# A CPU test executable instantiated over every family's variants (variant_param_id, main from
# kcheck_cpu_test_main): an entry per variant, "<prefix>.<family>/<variant>", labelled cpu, LABELS,
# the family and the variant; and "<prefix>" for its tests of no one variant.
function(kernels_add_cpu_tests_per_variant target)
  cmake_parse_arguments(arg "" "NAME" "LABELS" ${ARGN})
  kernels_add_tests_per_variant(${target} NAME ${arg_NAME} LABELS cpu ${arg_LABELS} PROPERTIES TIMEOUT 300)
  add_test(NAME ${arg_NAME} COMMAND ${target} --gtest_filter=-*/*)
  set_tests_properties(${arg_NAME} PROPERTIES LABELS "cpu;${arg_LABELS}" TIMEOUT 300)
endfunction()

# kernels_add_family_gpu_tests(<family> TYPES <type key>...)
# Builds <family>_test_<type> for each type from <family>_test.cpp in the calling folder (what is
# specific to the family) and test/contract/contract_test.cpp (the checks every family shares),
# one executable per type so they compile in parallel; ctest runs each variant of each type as
# its own entry (labels: gpu, <family>, <family>/<variant>, <type>).
function(kernels_add_family_gpu_tests family)
  cmake_parse_arguments(arg "" "" "TYPES" ${ARGN})
  foreach(type_key IN LISTS arg_TYPES)
    set(type ${KERNELS_TYPE_NAME_${type_key}})
    set(target ${family}_test_${type})
    add_executable(${target} ${family}_test.cpp ${PROJECT_SOURCE_DIR}/test/contract/contract_test.cpp)
    target_compile_definitions(${target} PRIVATE KERNELS_TEST_FAMILY=${family} KERNELS_TEST_TYPE=${type_key})
    target_link_libraries(${target} PRIVATE kcheck_gpu_test_main)
    kernels_enable_warnings(${target})
    kernels_add_gpu_tests_per_variant(${target} FAMILY ${family} NAME ${family}.${type} LABELS ${type})
  endforeach()
endfunction()

# kernels_add_large_gpu_tests(<family>)
# Builds <family>_large_test from <family>_large_test.cpp in the calling folder and adds an entry
# "<family>.large.<variant>" per variant, labelled large. These tests hold most of a device's
# memory (more than 2^31 elements): one at a time per device (RESOURCE_LOCK), and every slot of
# its GPU under a resource specification.
function(kernels_add_large_gpu_tests family)
  set(target ${family}_large_test)
  add_executable(${target} ${target}.cpp)
  target_link_libraries(${target} PRIVATE kcheck_gpu_test_main)
  kernels_enable_warnings(${target})
  kernels_add_gpu_tests_per_variant(${target} FAMILY ${family} NAME ${family}.large LABELS large
                                    PROPERTIES RESOURCE_LOCK device_memory
                                               RESOURCE_GROUPS gpus:${KERNELS_GPU_SLOTS_PER_GPU})
endfunction()
