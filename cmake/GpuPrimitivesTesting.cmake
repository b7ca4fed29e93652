# The suite's ctest entries for a library of variants: the one road every library takes, the suite's own
# (libkernels' variants, the test fixtures) and yours (docs/your-kernels.md).
#
#   gpu_primitives_add_tests(<library target>)
#     For each test program of the kit and each variant the library registers, an entry named as the suite names
#     its own: "<prefix>.<variant>[.<types>]<suffix>" (a CPU program's: "<prefix>.<family>/<variant>"), labelled
#     gpu or cpu, the family, the variant's id and the program's labels. The programs find the variants when ctest
#     reads the folder (cmake/variant_tests.cmake.in), so a variant added to the library needs no CMake edit.
#     The entries load the library by path (KERNELS_VARIANT_LIBRARIES, after any the caller's environment lists),
#     rerun failures with the kit's kcheck and keep failure lists in Testing/failures of the folder that called
#     this (unless KERNELS_FAILURES_DIR says where); the GPU ones take
#     slots of a GPU (a resource specification of one GPU is written for the build unless it has one) and share
#     each GPU through an MPS daemon of the build's own, the fixture gpu_mps.
#
#   gpu_primitives_test_program(<program> NAME <entry prefix> [FAMILY <family>] [CPU] [SUFFIX <suffix>]
#                               [LABELS <label>...] [TYPE_GROUPS <types>...] [LAUNCHER <word>...]
#                               [PROPERTIES <prop> <value>...])
#     Declares what entries a test program of the kit (the target GpuPrimitives::<program>) makes for a variant:
#     the kit declares its own (GpuPrimitivesTestPrograms.cmake when installed). FAMILY: its parameters name
#     variants of that family. TYPE_GROUPS (each a comma-separated list of type names): an entry per group of
#     which the variant has per-type tests. LAUNCHER runs the program (<SCRIPTS> stands for the kit's scripts'
#     folder); a launched program does not join the MPS daemon. PROPERTIES' RESOURCE_GROUPS replaces the one slot.
include_guard(GLOBAL)
if(NOT DEFINED GPU_PRIMITIVES_SCRIPTS_DIR)
  message(FATAL_ERROR "GpuPrimitivesTesting.cmake: GPU_PRIMITIVES_SCRIPTS_DIR (the kit's scripts) is not set")
endif()
# Cached: a project that adds the kit with add_subdirectory calls the function from a folder above the kit's.
set(GPU_PRIMITIVES_SCRIPTS_DIR "${GPU_PRIMITIVES_SCRIPTS_DIR}" CACHE INTERNAL "the kit's run-time scripts")
set(GPU_PRIMITIVES_TEMPLATE "${CMAKE_CURRENT_LIST_DIR}/variant_tests.cmake.in" CACHE INTERNAL "the discovery script")

# The GPUs as ctest resources: one GPU of the specification's slots, unless the build set its own
# (ctest --resource-spec-file with `gpu-resource-spec.sh` of every GPU replaces it for a run).
execute_process(COMMAND "${GPU_PRIMITIVES_SCRIPTS_DIR}/gpu-resource-spec.sh" 1
                OUTPUT_VARIABLE one_gpu COMMAND_ERROR_IS_FATAL ANY)
# A global property, not the cache: a cached value loses its lines after the first (CMake warns on every configure).
set_property(GLOBAL PROPERTY GPU_PRIMITIVES_ONE_GPU "${one_gpu}")
string(JSON slots GET "${one_gpu}" local 0 gpus 0 slots)
set(GPU_PRIMITIVES_SLOTS_PER_GPU "${slots}" CACHE INTERNAL "a GPU's slots")
if(NOT DEFINED CTEST_RESOURCE_SPEC_FILE)
  set(CTEST_RESOURCE_SPEC_FILE "${CMAKE_BINARY_DIR}/one-gpu-resources.json")
  file(CONFIGURE OUTPUT "${CTEST_RESOURCE_SPEC_FILE}" CONTENT "${one_gpu}")
endif()

function(gpu_primitives_test_program program)
  get_property(count GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_COUNT)
  if(NOT count)
    set(count 0)
  endif()
  set_property(GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_${count} ${program} ${ARGN})
  math(EXPR count "${count} + 1")
  set_property(GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_COUNT ${count})
endfunction()

# The MPS daemon's start and stop, once a build (harness/session/mps_client.hpp says why the GPU tests share it).
function(_gpu_primitives_mps_fixture)
  get_property(added GLOBAL PROPERTY GPU_PRIMITIVES_MPS_ADDED)
  if(added)
    return()
  endif()
  set(daemon "${GPU_PRIMITIVES_SCRIPTS_DIR}/mps-daemon.sh")
  add_test(NAME gpu.mps.start COMMAND "${daemon}" start "${CMAKE_BINARY_DIR}/mps")
  add_test(NAME gpu.mps.stop COMMAND "${daemon}" stop "${CMAKE_BINARY_DIR}/mps")
  set_tests_properties(gpu.mps.start PROPERTIES FIXTURES_SETUP gpu_mps LABELS mps SKIP_RETURN_CODE 77 TIMEOUT 60)
  set_tests_properties(gpu.mps.stop PROPERTIES FIXTURES_CLEANUP gpu_mps LABELS mps TIMEOUT 60)
  set_property(GLOBAL PROPERTY GPU_PRIMITIVES_MPS_ADDED TRUE)
endfunction()

function(gpu_primitives_add_tests library)
  if(NOT TARGET ${library})
    message(FATAL_ERROR "gpu_primitives_add_tests: no target '${library}' (a shared library of your variants)")
  endif()
  if(NOT TARGET GpuPrimitives::kcheck)
    message(FATAL_ERROR "gpu_primitives_add_tests: the kit was built without its tests (no GpuPrimitives::kcheck)")
  endif()
  _gpu_primitives_mps_fixture()
  if(NOT DEFINED CTEST_RESOURCE_SPEC_FILE)  # the kit added with add_subdirectory: the caller's folder gets it
    set(CTEST_RESOURCE_SPEC_FILE "${CMAKE_BINARY_DIR}/one-gpu-resources.json")
    get_property(one_gpu GLOBAL PROPERTY GPU_PRIMITIVES_ONE_GPU)
    file(CONFIGURE OUTPUT "${CTEST_RESOURCE_SPEC_FILE}" CONTENT "${one_gpu}")
    set(CTEST_RESOURCE_SPEC_FILE "${CTEST_RESOURCE_SPEC_FILE}" PARENT_SCOPE)
  endif()
  get_property(count GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_COUNT)
  if(NOT count)
    return()
  endif()
  math(EXPR last "${count} - 1")
  foreach(index RANGE ${last})
    get_property(declaration GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_${index})
    list(POP_FRONT declaration program)
    cmake_parse_arguments(arg "CPU" "FAMILY;NAME;SUFFIX" "LABELS;PROPERTIES;LAUNCHER;TYPE_GROUPS" ${declaration})
    if(NOT TARGET GpuPrimitives::${program})
      continue()
    endif()
    set(kind gpu)
    set(defaults SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_GROUPS gpus:1)
    if(arg_CPU)
      set(kind cpu)
      set(defaults TIMEOUT 300)
    endif()
    if("RESOURCE_GROUPS" IN_LIST arg_PROPERTIES)  # one group, or ctest adds a second, maybe on another GPU
      list(REMOVE_ITEM defaults RESOURCE_GROUPS gpus:1)
    endif()
    set(mps_dir "")
    if(kind STREQUAL "gpu" AND NOT arg_LAUNCHER)
      list(APPEND defaults FIXTURES_REQUIRED gpu_mps)
      set(mps_dir "${CMAKE_BINARY_DIR}/mps")
    endif()
    set(launcher "")
    foreach(word IN LISTS arg_LAUNCHER)
      string(REPLACE "<SCRIPTS>" "${GPU_PRIMITIVES_SCRIPTS_DIR}" word "${word}")
      string(APPEND launcher "\"${word}\" ")
    endforeach()
    set(properties "")
    foreach(word IN LISTS defaults arg_PROPERTIES)
      string(APPEND properties "\"${word}\" ")
    endforeach()
    # "<entry>=<seconds>": measured seconds, the entries' COST, where the build keeps them (the suite's own).
    set(measured "")
    set(seconds_lines "${GPU_PRIMITIVES_ENTRY_SECONDS}")
    if("COST" IN_LIST arg_PROPERTIES)  # a COST given wins
      set(seconds_lines "")
    endif()
    string(REPLACE "." "\\." prefix "${arg_NAME}")
    foreach(line IN LISTS seconds_lines)
      if(line MATCHES "^${prefix}\\.([^ ]+) ([0-9.]+)$")
        list(APPEND measured "${CMAKE_MATCH_1}=${CMAKE_MATCH_2}")
      endif()
    endforeach()
    list(JOIN arg_LABELS ";" labels)
    string(MAKE_C_IDENTIFIER "${library}_${arg_NAME}${arg_SUFFIX}" script_name)
    set(script "${CMAKE_CURRENT_BINARY_DIR}/gpu_primitives_tests/${script_name}.cmake")
    configure_file("${GPU_PRIMITIVES_TEMPLATE}" "${script}.in" @ONLY)
    file(GENERATE OUTPUT "${script}" INPUT "${script}.in")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
  endforeach()
endfunction()
