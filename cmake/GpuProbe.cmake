# Says at configure time whether this machine has a usable GPU. Informational only: the build
# is the same either way, and the tests labelled gpu decide for themselves when they run
# (Skipped without a GPU, failed instead with KERNELS_REQUIRE_GPU=1 or the gpu preset).
try_run(kernels_gpu_probe_run kernels_gpu_probe_compiled
  "${CMAKE_BINARY_DIR}/gpu_probe" "${CMAKE_CURRENT_LIST_DIR}/gpu_probe.cpp"
  LINK_LIBRARIES CUDA::cudart_static
  RUN_OUTPUT_VARIABLE kernels_gpu_probe_output)
string(STRIP "${kernels_gpu_probe_output}" kernels_gpu_probe_output)
if(kernels_gpu_probe_compiled AND kernels_gpu_probe_run EQUAL 0)
  message(STATUS "GPU on this machine: ${kernels_gpu_probe_output}")
else()
  message(STATUS "No usable GPU on this machine (${kernels_gpu_probe_output}): "
                 "tests labelled gpu will report Skipped here")
endif()
