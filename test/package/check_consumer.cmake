# cpu.package_consumer: installs the build into a fresh prefix, runs the installed kcheck (no test
# fixtures in it) beside the build folder's (with them), then configures, builds and runs
# test/package/consumer against the prefix, and once more against the build folder itself
# (export()); then builds examples/your-kernels, a library of outside variants, against the prefix
# and runs its CPU checks (its variants load into the installed kcheck, their contracts as kept).
# Runs with: cmake -DBUILD_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=...
#                  -DCUDA_ROOT=... -DNVCC=... -P check_consumer.cmake
cmake_minimum_required(VERSION 3.25)
set(consumer_source "${CMAKE_CURRENT_LIST_DIR}/consumer")
set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "failed (${status}): ${command}")
  endif()
endfunction()

# check_consumer(<name> <package-folder>): the consumer built and run against that package.
function(check_consumer name package_dir)
  set(build "${WORK_DIR}/consumer-${name}")
  run(${CMAKE_COMMAND} -S "${consumer_source}" -B "${build}" -G "${GENERATOR}"
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCUDAToolkit_ROOT=${CUDA_ROOT}
      -DGpuPrimitives_DIR=${package_dir})
  run(${CMAKE_COMMAND} --build "${build}")
  run("${build}/consumer")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")

# The public headers (the operators' descriptors among them, which types.hpp includes) and the
# variant interface (kernels/variant/ and the detail headers it includes) are installed; no source.
file(GLOB_RECURSE installed_headers RELATIVE "${prefix}/include" "${prefix}/include/*")
foreach(wanted IN ITEMS kernels/reduce.hpp kernels/variant/reduce.cuh kernels/reduce/detail/make_reduce_variant.cuh)
  if(NOT wanted IN_LIST installed_headers)
    message(FATAL_ERROR "${wanted} is not installed (installed: ${installed_headers})")
  endif()
endforeach()
foreach(header IN LISTS installed_headers)
  if(NOT header MATCHES "^kernels/((operators|variant|detail|(reduce|scan|sort)/detail)/)?[a-z0-9_]+\\.(hpp|cuh)$")
    message(FATAL_ERROR "installed beside the public headers: include/${header}")
  endif()
endforeach()

file(GLOB_RECURSE config_files "${prefix}/*/GpuPrimitivesConfig.cmake")
list(LENGTH config_files config_count)
if(NOT config_count EQUAL 1)
  message(FATAL_ERROR "expected one installed GpuPrimitivesConfig.cmake, found: ${config_files}")
endif()
get_filename_component(installed_package_dir "${config_files}" DIRECTORY)

# kcheck --list <kcheck>: the variants it lists (needs no GPU).
function(listed_variants kcheck result)
  execute_process(COMMAND "${kcheck}" --list RESULT_VARIABLE status OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${kcheck} --list failed (${status}): ${errors}")
  endif()
  string(REGEX MATCHALL "(reduce|scan|sort)/[a-z0-9_/]+" variants "${listing}")
  set(${result} "${variants}" PARENT_SCOPE)
endfunction()

# The installed kcheck finds every library it needs from where it was installed, and holds the
# library's variants only; the build folder's (the one rerun lines name) also the test fixtures.
listed_variants("${prefix}/bin/kcheck" installed_variants)
listed_variants("${BUILD_DIR}/kcheck" build_tree_variants)
if(NOT "reduce/cub" IN_LIST installed_variants)
  message(FATAL_ERROR "the installed kcheck does not list reduce/cub: ${installed_variants}")
endif()
list(FILTER installed_variants INCLUDE REGEX "/fixture_")
if(installed_variants)
  message(FATAL_ERROR "the installed kcheck lists test fixtures: ${installed_variants}")
endif()
list(FILTER build_tree_variants INCLUDE REGEX "/fixture_")
if(NOT build_tree_variants)
  message(FATAL_ERROR "the build folder's kcheck lists no test fixture (test/fixtures)")
endif()
check_consumer(installed "${installed_package_dir}")
check_consumer(build-tree "${BUILD_DIR}")

# The example outside project: built against the prefix as a user's repository would be, its CPU checks run.
set(example "${WORK_DIR}/your-kernels")
run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/../../examples/your-kernels" -B "${example}" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCUDAToolkit_ROOT=${CUDA_ROOT} -DGpuPrimitives_DIR=${installed_package_dir})
run(${CMAKE_COMMAND} --build "${example}")
run(${CMAKE_CTEST_COMMAND} --test-dir "${example}" -L cpu --output-on-failure --no-tests=error)
# gpu_primitives_add_tests gave its variant the suite's entries, run by the installed programs (the suite's own).
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${example}" -N OUTPUT_VARIABLE entries)
foreach(entry IN ITEMS reduce.my_block_sum reduce.large.my_block_sum scan.my_block_scan sort.my_block_sort
                      reduce.property.my_block_sum scan.property.my_block_scan sort.property.my_block_sort
                      sanitize.memcheck.reduce.my_block_sum sanitize.racecheck.sort.my_block_sort.narrow
                      gpu.mps.start gpu.mps.stop
                      cpu.validation.reduce/my_block_sum cpu.validation.scan/my_block_scan
                      cpu.validation.sort/my_block_sort)
  if(NOT entries MATCHES "Test +#[0-9]+: ${entry}(\\.[a-z0-9_-]+)?\n")  # a family's entries split by type groups
    message(FATAL_ERROR "the example's build has no entry ${entry}:\n${entries}")
  endif()
endforeach()
string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" listed "${entries}")
foreach(entry IN LISTS listed)
  if(NOT entry MATCHES "my_|gpu\\.mps\\.")
    message(FATAL_ERROR "the example's build has an entry of a variant not its own: ${entry}")
  endif()
endforeach()
# The suite's test programs list the library's variants as their own when asked for that library's only.
execute_process(COMMAND "${BUILD_DIR}/test/variants/reduce/reduce_test" --list-variants "${example}/libmy_kernels.so" reduce
                RESULT_VARIABLE status OUTPUT_VARIABLE listed ERROR_VARIABLE errors)
if(NOT status EQUAL 0 OR NOT listed STREQUAL "my_block_sum float,int\n")
  message(FATAL_ERROR "reduce_test --list-variants <the example's library> reduce: exit ${status}, "
                      "'${listed}' (expected 'my_block_sum float,int'):\n${errors}")
endif()

# A newcomer starts from an installed template: each compiles as it is against the prefix alone.
foreach(family IN ITEMS reduce scan sort)
  set(copy "${WORK_DIR}/my_${family}_variant.cu")
  configure_file("${prefix}/share/GpuPrimitives/templates/${family}_variant.cu.template" "${copy}" COPYONLY)
  run("${NVCC}" -std=c++20 -arch=sm_90 -I "${prefix}/include" -c "${copy}" -o "${copy}.o")
endforeach()
