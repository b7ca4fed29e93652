# How the suite's tests become ctest entries. The test programs judge variants by library: each is declared
# once (gpu_primitives_test_program), and gpu_primitives_add_tests gives every library's variants their entries,
# the suite's own as a user's (cmake/GpuPrimitivesTesting.cmake, the one road). The variants come from the
# program itself at ctest time (`<exe> --list-variants <library>`), so registering a variant in a library is all
# it takes to get its ctest entries and labels. The rest here: the suite's other tests (CPU, device, Python).

# The type keys of the library and the names tests and labels use for them, read from the lists
# in kernels/include/kernels/types.hpp, whose groups say which families take a type:
# KERNELS_SCAN_TYPE_KEYS (every family), KERNELS_ELEMENT_TYPE_KEYS (reductions and sorts: the scan
# types and the short integers), KERNELS_TYPE_KEYS (reductions: the widening keys too) and
# KERNELS_TYPE_NAME_<key>.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/include/kernels/types.hpp)
file(STRINGS ${PROJECT_SOURCE_DIR}/kernels/include/kernels/types.hpp type_lines
     REGEX "^(#define KERNELS_FOR_EACH_[A-Z_]+_TYPE\\(X\\)|  X\\([a-z0-9_]+, )")
# The list's lines end in the macro's backslashes, which would escape CMake's list separators.
string(REPLACE "\\" "" type_lines "${type_lines}")
set(KERNELS_TYPE_KEYS "")
set(KERNELS_ELEMENT_TYPE_KEYS "")
set(KERNELS_SCAN_TYPE_KEYS "")
set(group "")
foreach(line IN LISTS type_lines)
  if(line MATCHES "^#define KERNELS_FOR_EACH_([A-Z_]+)_TYPE")
    set(group ${CMAKE_MATCH_1})
    continue()
  endif()
  string(REGEX MATCH "X\\(([a-z0-9_]+), ([a-z0-9_ ]+), ([a-z0-9_ ]+), ([a-z0-9_]+)\\)" match "${line}")
  list(APPEND KERNELS_TYPE_KEYS ${CMAKE_MATCH_1})
  if(group STREQUAL "SCAN")
    list(APPEND KERNELS_SCAN_TYPE_KEYS ${CMAKE_MATCH_1})
  endif()
  if(NOT group STREQUAL "WIDENING")
    list(APPEND KERNELS_ELEMENT_TYPE_KEYS ${CMAKE_MATCH_1})
  endif()
  set(KERNELS_TYPE_NAME_${CMAKE_MATCH_1} ${CMAKE_MATCH_4})
endforeach()
if(NOT KERNELS_SCAN_TYPE_KEYS OR NOT KERNELS_ELEMENT_TYPE_KEYS)
  message(FATAL_ERROR "no type lists found in kernels/include/kernels/types.hpp")
endif()

# GPUs as ctest resources (cmake/GpuPrimitivesTesting.cmake writes the build folder's specification, one GPU
# of GPU_PRIMITIVES_SLOTS_PER_GPU slots). A GPU test takes one slot, so a GPU runs as many test processes at once
# whether it is alone or one of several. A test that holds much of a device's memory takes as many slots as its
# memory needs, a slot standing for KERNELS_GPU_SLOT_MIB (4.5 GiB, a sixteenth of what an 80 GB H100 leaves
# beside sixteen test processes' contexts): ctest then never puts more on a GPU than its memory holds.
set(GPU_PRIMITIVES_SCRIPTS_DIR ${PROJECT_SOURCE_DIR}/test/runtime)
include(${PROJECT_SOURCE_DIR}/cmake/GpuPrimitivesTesting.cmake)
set(KERNELS_GPU_SLOT_MIB 4608)

# Every GPU test: skipped (exit 77) without a GPU, bounded in time so a hung kernel cannot eat a
# runner, one slot of one GPU (which the test process alone then sees).
set(KERNELS_GPU_TEST_PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_GROUPS gpus:1)

# The GPU test processes share each GPU through the build's MPS daemon, the fixture gpu_mps
# (harness/session/mps_client.hpp says why); KERNELS_USE_MPS=0 runs them without it.
_gpu_primitives_mps_fixture()
set(KERNELS_MPS_TEST_PROPERTIES FIXTURES_REQUIRED gpu_mps ENVIRONMENT KERNELS_MPS_DIR=${PROJECT_BINARY_DIR}/mps)

# kernels_add_self_test(<name> COMMAND <word>... [LABELS <label>...] [PROPERTIES <prop> <value>...])
# One of the suite's own tests (TIMEOUT 300 unless PROPERTIES sets one); none when the kit is built inside another
# project (KERNELS_SELF_TESTS off). Every function below adds its tests through it.
function(kernels_add_self_test name)
  if(NOT KERNELS_SELF_TESTS)
    return()
  endif()
  cmake_parse_arguments(arg "" "" "COMMAND;LABELS;PROPERTIES" ${ARGN})
  add_test(NAME ${name} COMMAND ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}" TIMEOUT 300 ${arg_PROPERTIES})
endfunction()

# kernels_add_cpu_test(<target> [NAME <entry>] [ARGS <arg>...] [LABELS <label>...]): entry cpu.<target> by default
function(kernels_add_cpu_test target)
  cmake_parse_arguments(arg "" "NAME" "LABELS;ARGS" ${ARGN})
  if(NOT arg_NAME)
    set(arg_NAME cpu.${target})
  endif()
  kernels_add_self_test(${arg_NAME} COMMAND ${target} ${arg_ARGS} LABELS cpu ${arg_LABELS})
endfunction()

# kernels_add_cmake_script_test(<name> SCRIPT <file> [DEFINES <-Dvar=value>...] [LABELS <label>...] [TIMEOUT <s>])
# A test that runs a CMake script with the `cmake` ctest finds on PATH, not this build's absolute one: a build
# carried to another machine (ci/bundle-build.sh) finds its cmake elsewhere.
function(kernels_add_cmake_script_test name)
  cmake_parse_arguments(arg "" "SCRIPT;TIMEOUT" "DEFINES;LABELS" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 60)
  endif()
  kernels_add_self_test(${name} COMMAND cmake ${arg_DEFINES} -P ${arg_SCRIPT} LABELS ${arg_LABELS}
                        PROPERTIES TIMEOUT ${arg_TIMEOUT})
endfunction()

# The interpreter of the Python scripts and their CPU tests: a python3 with matplotlib, which
# ci/install-deps.sh installs for the system's python3; an interpreter earlier on PATH (pyenv, a
# virtual environment) may lack it.
function(kernels_python_with_matplotlib result candidate)
  execute_process(COMMAND "${candidate}" -c "import matplotlib" RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(NOT status EQUAL 0)
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()
find_program(KERNELS_PYTHON NAMES python3 NAMES_PER_DIR PATHS /usr/bin VALIDATOR kernels_python_with_matplotlib)
if(NOT KERNELS_PYTHON)
  message(WARNING "No python3 with matplotlib (ci/install-deps.sh installs it): the tests of the plotting scripts will fail")
  find_program(KERNELS_PYTHON NAMES python3 REQUIRED)
endif()

# kernels_add_python_cpu_test(<name> <script> [ARGS <arg>...] [LABELS <label>...])
function(kernels_add_python_cpu_test name script)
  cmake_parse_arguments(arg "" "" "ARGS;LABELS" ${ARGN})
  kernels_add_self_test(cpu.${name} COMMAND "${KERNELS_PYTHON}" "${script}" ${arg_ARGS} LABELS cpu ${arg_LABELS})
endfunction()

# Each GPU entry's measured seconds (test/entry_seconds.txt, bench/suite_timing.py --costs-out)
# become its ctest COST, so that a run starts the longest entries first even in a fresh build
# folder, which has no cost data of its own (a sanitizer entry of minutes started last would end
# the run minutes after the rest). An entry measured nowhere keeps ctest's own estimate.
set(KERNELS_ENTRY_SECONDS_FILE ${PROJECT_SOURCE_DIR}/test/entry_seconds.txt)
file(STRINGS ${KERNELS_ENTRY_SECONDS_FILE} GPU_PRIMITIVES_ENTRY_SECONDS REGEX "^[^#]")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${KERNELS_ENTRY_SECONDS_FILE})

# kernels_add_gpu_test(<name> COMMAND <target> [args...] LABELS <label>... [NO_MPS] [PROPERTIES <prop> <value>...])
# NO_MPS: the command is not a GPU test executable (whose main alone joins the MPS daemon).
function(kernels_add_gpu_test name)
  cmake_parse_arguments(arg "NO_MPS" "" "COMMAND;LABELS;PROPERTIES" ${ARGN})
  set(sharing ${KERNELS_MPS_TEST_PROPERTIES})
  if(arg_NO_MPS)
    set(sharing "")
  endif()
  set(cost "")
  foreach(line IN LISTS GPU_PRIMITIVES_ENTRY_SECONDS)  # its measured seconds, as gpu_primitives_add_tests' entries
    if(line MATCHES "^([^ ]+) ([0-9.]+)$" AND CMAKE_MATCH_1 STREQUAL name)
      set(cost COST ${CMAKE_MATCH_2})
    endif()
  endforeach()
  kernels_add_self_test(${name} COMMAND ${arg_COMMAND} LABELS gpu ${arg_LABELS}
                        PROPERTIES ${KERNELS_GPU_TEST_PROPERTIES} ${sharing} ${cost} ${arg_PROPERTIES})
endfunction()


# kernels_test_program(<target> [INSTALL])
# A test program that judges variants by library: GpuPrimitives::<target> in this build, as in an installed kit;
# INSTALL: installed (cmake/KernelsPackage.cmake), so that a user's gpu_primitives_add_tests runs it too.
function(kernels_test_program target)
  cmake_parse_arguments(arg "INSTALL" "" "" ${ARGN})
  add_executable(GpuPrimitives::${target} ALIAS ${target})
  if(arg_INSTALL)
    set_property(GLOBAL APPEND PROPERTY KERNELS_INSTALLED_TEST_PROGRAMS ${target})
  endif()
endfunction()

# kernels_add_family_gpu_tests(<family> TYPES <type key>...)
# Builds <family>_test from <family>_test.cpp in the calling folder (what is specific to the
# family) and test/variants/contract/contract_test.cpp (the checks every family shares), both compiled
# once per type (an object library each, so that they compile in parallel) and linked into one
# executable. ctest runs each variant in KERNELS_TYPE_GROUPS entries, each the tests of a group
# of its types: "<family>.<variant>.<type>-<type>..." (labels: gpu, <family>,
# <family>/<variant>). The groups take the family's types in turn, so each holds types of every
# width. Neither a process per variant and type nor one per variant: the driver makes a GPU's
# contexts one at a time (2.0 to 2.6 s each when 16 processes start together on an H100, 0.2 s
# alone), and 421 per-type processes spent 745 s of the gpu preset's process time starting; one
# process per variant ran its types one after another for up to 24 s, far from the seconds a
# kernel's author waits for. On an H200 two groups or one shortened no preset and lengthened the heavy variants'
# entries (bench/results/suite-timing.md); -DKERNELS_TYPE_GROUPS=<n> sets another count, to measure it again.
set(KERNELS_TYPE_GROUPS 4 CACHE STRING "ctest entries a variant's typed tests are split into, by element type")
function(kernels_add_family_gpu_tests family)
  cmake_parse_arguments(arg "" "" "TYPES" ${ARGN})
  set(target ${family}_test)
  add_executable(${target})
  set(index 0)
  set(objects_of_types "")
  foreach(type_key IN LISTS arg_TYPES)
    set(type ${KERNELS_TYPE_NAME_${type_key}})
    set(objects ${family}_test_${type})
    add_library(${objects} OBJECT ${family}_test.cpp ${PROJECT_SOURCE_DIR}/test/variants/contract/contract_test.cpp)
    target_compile_definitions(${objects} PRIVATE KERNELS_TEST_FAMILY=${family} KERNELS_TEST_TYPE=${type_key}
                                                  KERNELS_TEST_TYPE_NAME=${type})
    target_link_libraries(${objects} PRIVATE kcheck_gpu_test_main)
    kernels_enable_warnings(${objects})
    target_link_libraries(${target} PRIVATE ${objects})
    list(APPEND objects_of_types ${objects})
    math(EXPR group "${index} % ${KERNELS_TYPE_GROUPS}")
    list(APPEND group_${group} ${type})
    math(EXPR index "${index} + 1")
  endforeach()
  set(groups "")
  math(EXPR last_group "${KERNELS_TYPE_GROUPS} - 1")
  foreach(group RANGE ${last_group})
    list(JOIN group_${group} "," names)
    list(APPEND groups ${names})
  endforeach()
  target_link_libraries(${target} PRIVATE kcheck_gpu_test_main)
  kernels_enable_warnings(${target})
  kernels_test_program(${target} INSTALL)
  gpu_primitives_test_program(${target} FAMILY ${family} NAME ${family} TYPE_GROUPS ${groups})
endfunction()

# kernels_add_large_gpu_tests(<family> DEVICE_MEMORY_MIB <MiB>)
# Builds <family>_large_test from <family>_large_test.cpp in the calling folder and adds an entry
# "<family>.large.<variant>" per variant, labelled large. These tests hold much of a device's
# memory (more than 2^31 elements): DEVICE_MEMORY_MIB, the most any of them needs, sets the GPU
# slots each takes. They go first, the most slots first (COST 1000 plus their slots; ctest's own
# cost estimates, in seconds, stay far below, and an explicit cost is never replaced by them):
# started while the GPUs still have their slots free, not left to wait at the end of the run
# until that many slots free at once. With one COST for all, ctest started the 4-slot reductions
# first, and the 11-slot sorts found 11 free slots only once every other entry had ended: on the
# H100 they ran one after another for the preset's last 17 s.
function(kernels_add_large_gpu_tests family)
  cmake_parse_arguments(arg "" "DEVICE_MEMORY_MIB" "" ${ARGN})
  math(EXPR slots "(${arg_DEVICE_MEMORY_MIB} + ${KERNELS_GPU_SLOT_MIB} - 1) / ${KERNELS_GPU_SLOT_MIB}")
  if(slots GREATER GPU_PRIMITIVES_SLOTS_PER_GPU)
    message(FATAL_ERROR "${family} large tests need ${arg_DEVICE_MEMORY_MIB} MiB, more than a GPU's ${GPU_PRIMITIVES_SLOTS_PER_GPU} slots")
  endif()
  set(target ${family}_large_test)
  add_executable(${target} ${target}.cpp)
  target_link_libraries(${target} PRIVATE kcheck_gpu_test_main)
  kernels_enable_warnings(${target})
  kernels_test_program(${target} INSTALL)
  math(EXPR cost "1000 + ${slots}")
  gpu_primitives_test_program(${target} FAMILY ${family} NAME ${family}.large LABELS large
                              PROPERTIES RESOURCE_GROUPS gpus:${slots} COST ${cost})
endfunction()
