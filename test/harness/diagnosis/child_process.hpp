// Runs a program as a child process and collects what it printed: the means of rerunning a
// case apart from a process whose CUDA context a fault has killed.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace harness {

struct ChildResult {
  int exit_code = -1;      // the child's exit status, or -1 when a signal ended it
  int signal = 0;          // the signal that ended it, or 0
  bool timed_out = false;  // killed (SIGKILL) at the deadline
  std::string output;      // its stdout and stderr, interleaved
};

// Pointers to the strings' characters, then a null pointer: an argv or envp for exec and spawn.
// The strings must outlive them.
std::vector<char*> null_terminated(std::vector<std::string>& strings);

// Runs argv[0] (a path) with the arguments argv[1...], this process's environment outside MPS
// (runner/mps_client.hpp) plus `environment` ("NAME=value" entries, which win), stdin from /dev/null. Waits at most
// `timeout`. Throws std::runtime_error when the program cannot be started.
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                      std::chrono::milliseconds timeout);

}  // namespace harness
