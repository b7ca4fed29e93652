# How tests become ctest entries.
#
# GPU test executables are grouped: one process runs every test of one variant, every element
# type, because the driver makes a GPU's contexts one at a time (kernels_add_family_gpu_tests
# says what that cost). The variants come from the executable itself at ctest time
# (`<exe> --list-variants`, which prints the gtest parameter names it was instantiated for), so
# registering a variant in kernels/ is all it takes to get its ctest entries and labels.

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

# GPUs as ctest resources. Every ctest run has a resource specification: this build folder
# declares one GPU, the first visible one (CMake writes CTEST_RESOURCE_SPEC_FILE into
# CTestTestfile.cmake), and `--resource-spec-file` with ci/gpu-resource-spec.sh's specification
# of every GPU replaces it. A GPU has KERNELS_GPU_SLOTS_PER_GPU slots (16, the script's): a GPU
# test takes one, so a GPU runs as many test processes at once whether it is alone or one of
# several, and N GPUs run N times as many. A test that holds much of a device's memory takes as
# many slots as its memory needs, a slot standing for KERNELS_GPU_SLOT_MIB (4.5 GiB, a sixteenth
# of what an 80 GB H100 leaves beside sixteen test processes' contexts): ctest then never puts
# more on a GPU than its memory holds, with no lock that would serialise such tests across GPUs.
execute_process(COMMAND ${PROJECT_SOURCE_DIR}/ci/gpu-resource-spec.sh 1
                OUTPUT_VARIABLE one_gpu_spec COMMAND_ERROR_IS_FATAL ANY)
set(CTEST_RESOURCE_SPEC_FILE ${PROJECT_BINARY_DIR}/one-gpu-resources.json)
file(CONFIGURE OUTPUT ${CTEST_RESOURCE_SPEC_FILE} CONTENT "${one_gpu_spec}")
string(JSON KERNELS_GPU_SLOTS_PER_GPU GET "${one_gpu_spec}" local 0 gpus 0 slots)
set(KERNELS_GPU_SLOT_MIB 4608)

# Every GPU test: skipped (exit 77) without a GPU, bounded in time so a hung kernel cannot eat a
# runner, one slot of one GPU (which the test process alone then sees).
set(KERNELS_GPU_TEST_PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_GROUPS gpus:1)

# The GPU test processes share each GPU through a CUDA MPS daemon of this build folder's own
# (harness/session/mps_client.hpp says why, and what a process whose context is lost does):
# gpu.mps.start starts it before them and gpu.mps.stop stops it after them, the ctest fixture
# gpu_mps, which ctest adds to any selection of them. KERNELS_USE_MPS=0 runs them without it.
# A sanitizer's entries (a launcher's) and the benchmarks' do not join.
set(KERNELS_MPS_DIR ${PROJECT_BINARY_DIR}/mps)
add_test(NAME gpu.mps.start COMMAND ${PROJECT_SOURCE_DIR}/ci/mps-daemon.sh start ${KERNELS_MPS_DIR})
add_test(NAME gpu.mps.stop COMMAND ${PROJECT_SOURCE_DIR}/ci/mps-daemon.sh stop ${KERNELS_MPS_DIR})
set_tests_properties(gpu.mps.start PROPERTIES FIXTURES_SETUP gpu_mps LABELS mps SKIP_RETURN_CODE 77 TIMEOUT 60)
set_tests_properties(gpu.mps.stop PROPERTIES FIXTURES_CLEANUP gpu_mps LABELS mps TIMEOUT 60)
set(KERNELS_MPS_TEST_PROPERTIES FIXTURES_REQUIRED gpu_mps ENVIRONMENT KERNELS_MPS_DIR=${KERNELS_MPS_DIR})

# kernels_add_cpu_test(<target> [LABELS <label>...])
function(kernels_add_cpu_test target)
  cmake_parse_arguments(arg "" "" "LABELS" ${ARGN})
  add_test(NAME cpu.${target} COMMAND ${target})
  set_tests_properties(cpu.${target} PROPERTIES LABELS "cpu;${arg_LABELS}" TIMEOUT 300)
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
  add_test(NAME cpu.${name} COMMAND "${KERNELS_PYTHON}" "${script}" ${arg_ARGS})
  set_tests_properties(cpu.${name} PROPERTIES LABELS "cpu;${arg_LABELS}" TIMEOUT 300)
endfunction()

# kernels_add_gpu_test(<name> COMMAND <target> [args...] LABELS <label>... [NO_MPS] [PROPERTIES <prop> <value>...])
# NO_MPS: the command is not a GPU test executable (whose main alone joins the MPS daemon).
function(kernels_add_gpu_test name)
  cmake_parse_arguments(arg "NO_MPS" "" "COMMAND;LABELS;PROPERTIES" ${ARGN})
  set(sharing ${KERNELS_MPS_TEST_PROPERTIES})
  if(arg_NO_MPS)
    set(sharing "")
  endif()
  add_test(NAME ${name} COMMAND ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "gpu;${arg_LABELS}" ${KERNELS_GPU_TEST_PROPERTIES} ${sharing}
                                          ${arg_PROPERTIES})
endfunction()

# Each GPU entry's measured seconds (test/entry_seconds.txt, bench/suite_timing.py --costs-out)
# become its ctest COST, so that a run starts the longest entries first even in a fresh build
# folder, which has no cost data of its own (a sanitizer entry of minutes started last would end
# the run minutes after the rest). An entry measured nowhere keeps ctest's own estimate.
set(KERNELS_ENTRY_SECONDS_FILE ${PROJECT_SOURCE_DIR}/test/entry_seconds.txt)
file(STRINGS ${KERNELS_ENTRY_SECONDS_FILE} KERNELS_ENTRY_SECONDS REGEX "^[^#]")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${KERNELS_ENTRY_SECONDS_FILE})

# kernels_add_tests_per_variant(<target> NAME <prefix> [FAMILY <family>] [TYPE_GROUPS <types>...] [SUFFIX <suffix>]
#                               [LABELS <label>...] [LAUNCHER <command>...] [PROPERTIES <prop> <value>...])
# Adds an entry per variant the executable lists (`<target> --list-variants`), running
# `[LAUNCHER...] <target> --gtest_filter=*/<param>`, labelled LABELS, the variant's family and
# its id (<family>/<variant>). With FAMILY the parameters name variants of that family and the
# entries are "<prefix>.<variant>"; without, they name ids (variant_param_id) and the entries are
# "<prefix>.<family>/<variant>". Each entry's failure list (harness/diagnosis/failure_list.hpp) is
# named after it. An entry's COST is its measured seconds unless PROPERTIES sets one.
# TYPE_GROUPS (each a comma-separated list of type names) makes an entry per variant and group
# instead, "<prefix>.<variant>.<type>-<type>...", running that group's per-type tests. SUFFIX
# ends every entry's name (".narrow": part of a variant's cases that PROPERTIES' environment picks).
function(kernels_add_tests_per_variant target)
  cmake_parse_arguments(arg "" "FAMILY;NAME;SUFFIX" "LABELS;PROPERTIES;LAUNCHER;TYPE_GROUPS" ${ARGN})
  list(JOIN arg_LABELS ";" labels)
  set(properties ${arg_PROPERTIES})
  set(measured "")
  if(NOT "COST" IN_LIST properties)
    string(REPLACE "." "\\." prefix "${arg_NAME}")
    foreach(line IN LISTS KERNELS_ENTRY_SECONDS)
      if(line MATCHES "^${prefix}\\.([^ ]+) ([0-9.]+)$")
        list(APPEND measured "${CMAKE_MATCH_1}=${CMAKE_MATCH_2}")
      endif()
    endforeach()
  endif()
  set(launcher "")
  foreach(word IN LISTS arg_LAUNCHER)
    string(APPEND launcher "\"${word}\" ")
  endforeach()
  string(MAKE_C_IDENTIFIER "${arg_NAME}${arg_SUFFIX}" script_name)
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${script_name}_variant_tests.cmake")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/variant_tests.cmake.in "${script}.in" @ONLY)
  file(GENERATE OUTPUT "${script}" INPUT "${script}.in")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()

# kernels_add_gpu_tests_per_variant(<target> FAMILY <family> [NAME <prefix>] [TYPE_GROUPS <types>...] [SUFFIX <suffix>]
#                                   [LABELS <label>...] [LAUNCHER <command>...] [PROPERTIES <prop> <value>...])
# The GPU tests of one family's executable: kernels_add_tests_per_variant with the label gpu and
# the GPU tests' properties, through the MPS daemon unless a LAUNCHER runs them; NAME defaults to
# the target's name.
function(kernels_add_gpu_tests_per_variant target)
  cmake_parse_arguments(arg "" "FAMILY;NAME;SUFFIX" "LABELS;PROPERTIES;LAUNCHER;TYPE_GROUPS" ${ARGN})
  if(NOT arg_NAME)
    set(arg_NAME ${target})
  endif()
  # One resource group: PROPERTIES' own RESOURCE_GROUPS (a large test's slots) replaces the default
  # one, which ctest would otherwise add as a second group, maybe on another GPU than the first,
  # whose GPU is the one the test process runs on.
  set(defaults ${KERNELS_GPU_TEST_PROPERTIES})
  list(FIND arg_PROPERTIES RESOURCE_GROUPS given)
  if(NOT given EQUAL -1)
    list(FIND defaults RESOURCE_GROUPS at)
    math(EXPR value_at "${at} + 1")
    list(REMOVE_AT defaults ${at} ${value_at})
  endif()
  if(NOT arg_LAUNCHER)
    list(APPEND defaults ${KERNELS_MPS_TEST_PROPERTIES})
  endif()
  kernels_add_tests_per_variant(${target} NAME ${arg_NAME} FAMILY ${arg_FAMILY} TYPE_GROUPS ${arg_TYPE_GROUPS}
                                SUFFIX "${arg_SUFFIX}" LABELS gpu ${arg_LABELS} LAUNCHER ${arg_LAUNCHER} PROPERTIES ${defaults} ${arg_PROPERTIES})
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
# kernel's author waits for.
set(KERNELS_TYPE_GROUPS 4)
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
    target_link_libraries(${objects} PRIVATE kcheck_gpu_test_main_core)
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
  kernels_add_gpu_tests_per_variant(${target} FAMILY ${family} NAME ${family} TYPE_GROUPS ${groups})
  kernels_add_package_test_program(${target} FAMILY ${family} NAME ${family} OBJECTS ${objects_of_types})
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
  if(slots GREATER KERNELS_GPU_SLOTS_PER_GPU)
    message(FATAL_ERROR "${family} large tests need ${arg_DEVICE_MEMORY_MIB} MiB, more than a GPU's ${KERNELS_GPU_SLOTS_PER_GPU} slots")
  endif()
  set(target ${family}_large_test)
  add_library(${target}_objects OBJECT ${target}.cpp)
  target_link_libraries(${target}_objects PRIVATE kcheck_gpu_test_main_core)
  kernels_enable_warnings(${target}_objects)
  add_executable(${target})
  target_link_libraries(${target} PRIVATE ${target}_objects kcheck_gpu_test_main)
  kernels_add_package_test_program(${target} FAMILY ${family} NAME ${family}.large OBJECTS ${target}_objects
                                   LABELS large PROPERTIES RESOURCE_GROUPS gpus:${slots})
  math(EXPR cost "1000 + ${slots}")
  kernels_add_gpu_tests_per_variant(${target} FAMILY ${family} NAME ${family}.large LABELS large
                                    PROPERTIES RESOURCE_GROUPS gpus:${slots} COST ${cost})
endfunction()

# kernels_add_package_test_program(<target> OBJECTS <object library>... [FAMILY <family>] NAME <entry prefix>
#                                  [SUFFIX <suffix>] [CPU] [LABELS <label>...] [PROPERTIES <prop> <value>...]
#                                  [LAUNCHER <word>...])
# The installed twin of a test executable: the same objects without the test fixtures, bin name <target>, run by
# gpu_primitives_add_tests (cmake/GpuPrimitivesTesting.cmake) over a user's variant library with these entries'
# prefix, suffix, labels, properties and launcher (@DIR@: the installed programs' folder); installed and exported
# by cmake/KernelsPackage.cmake. A target given again adds entries, not a program.
function(kernels_add_package_test_program target)
  cmake_parse_arguments(arg "CPU" "FAMILY;NAME;SUFFIX" "OBJECTS;LABELS;PROPERTIES;LAUNCHER" ${ARGN})
  set(main kcheck_gpu_test_main_core)
  if(arg_CPU)
    set(main kcheck_cpu_test_main_core)
  endif()
  if(NOT TARGET ${target}_package)
    add_executable(${target}_package)
    target_link_libraries(${target}_package PRIVATE ${arg_OBJECTS} ${main})
    set_target_properties(${target}_package PROPERTIES OUTPUT_NAME ${target} EXPORT_NAME ${target}
                          RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/package-tests)
  endif()
  string(REPLACE ";" "," labels "${arg_LABELS}")
  string(REPLACE ";" "," properties "${arg_PROPERTIES}")
  string(REPLACE ";" "," launcher "${arg_LAUNCHER}")
  set_property(GLOBAL APPEND PROPERTY KERNELS_PACKAGE_TEST_PROGRAMS
               "${target}|${arg_FAMILY}|${arg_NAME}|${labels}|${properties}|${arg_CPU}|${arg_SUFFIX}|${launcher}")
endfunction()
