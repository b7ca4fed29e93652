# The CMake package GpuPrimitives: what `cmake --install` puts under a prefix, and the files that
# let another project write
#   find_package(GpuPrimitives 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE GpuPrimitives::kernels)
# against that prefix, or against a build folder without installing (export()).
#
# Installed: libkernels, its public headers (kernels/include/kernels/; kernels/src stays private) and,
# when the tests are built, kcheck and the test programs: the very ones the suite's own entries run
# (gpu_primitives_add_tests, cmake/GpuPrimitivesTesting.cmake), with the scripts they run, the
# kit's README, the guide, the templates and the example.
include(CMakePackageConfigHelpers)

set(KERNELS_PACKAGE_NAME GpuPrimitives)
set(KERNELS_PACKAGE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/${KERNELS_PACKAGE_NAME}")

# The same name inside this build, for a project that adds this one with add_subdirectory().
add_library(${KERNELS_PACKAGE_NAME}::kernels ALIAS kernels)
add_library(${KERNELS_PACKAGE_NAME}::variant_api ALIAS variant_api)

# No SOVERSION on purpose: the mutation runs swap libkernels.so itself through LD_LIBRARY_PATH
# (ci/mutation/ctest_runs.py), which a versioned soname would bypass.
# Installed files find their libraries by relative path; libcudart where it was linked from
# (a toolkit outside the system's library path, /usr/local/cuda, is common).
set_target_properties(kernels PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS kernels EXPORT ${KERNELS_PACKAGE_NAME}Targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/include/kernels
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The variant interface: its target, the detail headers kernels/variant/*.cuh include (at the paths variant files
# use, <kernels/detail/...> and <kernels/<family>/detail/...>), and the variant templates to start from.
install(TARGETS variant_api EXPORT ${KERNELS_PACKAGE_NAME}Targets)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/detail DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kernels
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "library_load.hpp" EXCLUDE)
foreach(family IN ITEMS reduce scan sort)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/${family}/detail DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kernels/${family}
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/templates/ DESTINATION ${CMAKE_INSTALL_DATADIR}/${KERNELS_PACKAGE_NAME}/templates)
# The kit stands alone: its README, the guide and the example project to copy.
install(FILES ${PROJECT_SOURCE_DIR}/docs/kit/README.md ${PROJECT_SOURCE_DIR}/docs/your-kernels.md
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${KERNELS_PACKAGE_NAME})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/your-kernels DESTINATION ${CMAKE_INSTALL_DATADIR}/${KERNELS_PACKAGE_NAME}/examples)

set(test_program_declarations "")
if(TARGET kcheck)
  file(RELATIVE_PATH bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(kcheck PROPERTIES INSTALL_RPATH "$ORIGIN/${bin_to_lib}" INSTALL_RPATH_USE_LINK_PATH TRUE)
  install(TARGETS kcheck EXPORT ${KERNELS_PACKAGE_NAME}Targets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

  # The test programs (kernels_test_program ... INSTALL) in libexec/, beside the scripts their entries run, and
  # their declarations (gpu_primitives_test_program) as the build made them, for gpu_primitives_add_tests.
  get_property(installed_programs GLOBAL PROPERTY KERNELS_INSTALLED_TEST_PROGRAMS)
  set(libexec ${CMAKE_INSTALL_LIBEXECDIR}/${KERNELS_PACKAGE_NAME})  # KERNELS_SCRIPTS_INSTALL_DIR too
  file(RELATIVE_PATH libexec_to_lib "/${libexec}" "/${CMAKE_INSTALL_LIBDIR}")
  foreach(program IN LISTS installed_programs)
    set_target_properties(${program} PROPERTIES INSTALL_RPATH "$ORIGIN/${libexec_to_lib}" INSTALL_RPATH_USE_LINK_PATH TRUE)
    install(TARGETS ${program} EXPORT ${KERNELS_PACKAGE_NAME}Targets RUNTIME DESTINATION ${libexec})
  endforeach()
  install(PROGRAMS ${GPU_PRIMITIVES_SCRIPTS_DIR}/sanitize.sh ${GPU_PRIMITIVES_SCRIPTS_DIR}/sanitize_first_error.py
                   ${GPU_PRIMITIVES_SCRIPTS_DIR}/mps-daemon.sh ${GPU_PRIMITIVES_SCRIPTS_DIR}/gpu-resource-spec.sh
          DESTINATION ${libexec})
  get_property(count GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_COUNT)
  math(EXPR last "${count} - 1")
  foreach(index RANGE ${last})
    get_property(declaration GLOBAL PROPERTY GPU_PRIMITIVES_TEST_PROGRAM_${index})
    list(GET declaration 0 program)
    if(program IN_LIST installed_programs)
      set(words "")
      foreach(word IN LISTS declaration)
        string(APPEND words " \"${word}\"")
      endforeach()
      string(APPEND test_program_declarations "gpu_primitives_test_program(${words})\n")
    endif()
  endforeach()
endif()
file(WRITE ${PROJECT_BINARY_DIR}/installed/${KERNELS_PACKAGE_NAME}TestPrograms.cmake
     "# Written by cmake/KernelsPackage.cmake: the installed test programs' entries for a variant.\n${test_program_declarations}")

install(EXPORT ${KERNELS_PACKAGE_NAME}Targets
  NAMESPACE ${KERNELS_PACKAGE_NAME}::
  DESTINATION ${KERNELS_PACKAGE_CMAKE_DIR})
# The build folder as a package too: GpuPrimitives_DIR=<build> finds it there.
export(EXPORT ${KERNELS_PACKAGE_NAME}Targets
  NAMESPACE ${KERNELS_PACKAGE_NAME}::
  FILE ${PROJECT_BINARY_DIR}/${KERNELS_PACKAGE_NAME}Targets.cmake)

set(KERNELS_SCRIPTS_INSTALL_DIR ${CMAKE_INSTALL_LIBEXECDIR}/${KERNELS_PACKAGE_NAME})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/${KERNELS_PACKAGE_NAME}Config.cmake.in
  ${PROJECT_BINARY_DIR}/${KERNELS_PACKAGE_NAME}Config.cmake
  INSTALL_DESTINATION ${KERNELS_PACKAGE_CMAKE_DIR} PATH_VARS KERNELS_SCRIPTS_INSTALL_DIR)
# Until 1.0 a minor version may break the interface: only the same minor version matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/${KERNELS_PACKAGE_NAME}ConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/${KERNELS_PACKAGE_NAME}Config.cmake
  ${PROJECT_BINARY_DIR}/${KERNELS_PACKAGE_NAME}ConfigVersion.cmake
  ${PROJECT_BINARY_DIR}/installed/${KERNELS_PACKAGE_NAME}TestPrograms.cmake
  ${CMAKE_CURRENT_LIST_DIR}/${KERNELS_PACKAGE_NAME}Testing.cmake
  ${CMAKE_CURRENT_LIST_DIR}/variant_tests.cmake.in
  DESTINATION ${KERNELS_PACKAGE_CMAKE_DIR})
