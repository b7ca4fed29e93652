#include "harness/diagnosis/stop_on_failure.hpp"
#include "harness/settings/environment.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <unistd.h>

namespace harness {
namespace {

constexpr int kSkippedExitCode = 77;

// This process created the file: it is the failure the others stop for.
std::atomic<bool> failed_here{false};

const char* stop_file() {
  const char* path = harness::suite_variable("KERNELS_STOP_FILE");
  return path != nullptr && *path != '\0' ? path : nullptr;
}

}  // namespace

void stop_when_another_entry_fails() {
  const char* path = stop_file();
  if (path == nullptr) return;
  std::thread([path] {
    for (;; std::this_thread::sleep_for(kStopPollInterval)) {
      if (failed_here.load() || access(path, F_OK) != 0) continue;
      std::fflush(stdout);  // what the test printed before, then why it ends
      std::fprintf(stderr, "%s (KERNELS_STOP_FILE=%s): this entry ends here, neither passed nor failed\n",
                   kStoppedMarker, path);
      std::_Exit(kSkippedExitCode);  // the main thread may be in a GPU call: nothing unwinds
    }
  }).detach();
}

void tell_other_entries_of_failure() {
  const char* path = stop_file();
  if (path == nullptr) return;
  failed_here.store(true);
  if (std::FILE* file = std::fopen(path, "w")) std::fclose(file);
}

}  // namespace harness
