// A GPU test process's share of the GPU through the CUDA MPS daemon of its build folder.
//
// Without MPS a GPU runs the kernels of one process at a time, and most of the suite's kernels
// fill a few SMs for microseconds: sixteen test processes then wait for each other's turns.
// Through one MPS server their kernels run side by side. cmake/KernelsTesting.cmake starts the
// daemon before the suite's GPU entries (test/runtime/mps-daemon.sh, the ctest fixture gpu_mps) and gives
// each entry KERNELS_MPS_DIR; a process joins only while that daemon serves.
//
// The price of MPS: a fatal fault of any client (a kernel that reads past its memory) ends the
// context of every client on the GPU, and the server takes no new client until they have all
// ended. So a process that finds its context lost while it shares the GPU cannot tell its own
// fault from another's, nor rerun its cases apart to find the culprit: it runs again, as it was
// started, without MPS, and that run's verdict is the entry's. Its child processes (kcheck
// reruns of a case) never join.
#pragma once

#include <string>
#include <vector>

namespace harness {

// Names the build folder of the daemon (test/runtime/mps-daemon.sh writes <dir>/serving while it serves).
inline constexpr const char* kMpsDirVariable = "KERNELS_MPS_DIR";

// First in main(), before any CUDA call: if KERNELS_MPS_DIR names a daemon that serves, keeps the
// command line and environment as started (for a rerun) and joins it, by pointing the CUDA
// runtime at its pipes (CUDA_MPS_PIPE_DIRECTORY, CUDA_MPS_LOG_DIRECTORY).
void join_mps_if_serving();

// Whether this process joined.
bool joined_mps();

// This process's environment as a child process gets it: without the variables that joined
// the daemon (as they were before joining).
std::vector<std::string> environment_outside_mps();

// Whether this process's CUDA context is lost: a fault's error comes back from every call after
// it, an ordinary error only once.
bool cuda_context_lost();

// In a process that joined: prints `why` and that the entry runs again without MPS, then
// replaces the process with its command line as started, outside MPS, with the same run seed.
// Otherwise does nothing.
void rerun_without_mps_if_joined(const std::string& why);

}  // namespace harness
