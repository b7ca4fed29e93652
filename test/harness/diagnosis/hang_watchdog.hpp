// A batch that never finishes: a kernel that never ends (a loop whose bound a bug broke, a
// look-back waiting for a flag nobody sets) or a call that never returns (a host loop over
// passes that no longer shrink). Neither can be interrupted from inside the process, and ctest's
// timeout would only say that the whole test ran too long. So a watchdog thread waits beside each
// batch: past the deadline it prints the FAIL and rerun lines of the case at fault, the run whose
// call has not returned or else the first run whose kernels have not finished (each run marks its
// end on the stream with an event), and ends the process with exit status 1. ctest shows those
// lines; kcheck, rerunning the case, ends the same way instead of hanging.
//
// KERNELS_HANG_TIMEOUT_S sets the deadline of one batch in seconds (default 60; 0 turns the
// watchdog off, as under compute-sanitizer, whose runs are many times slower).
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace harness {

inline constexpr unsigned kDefaultHangTimeoutSeconds = 60;
// How the watchdog's report begins (child processes and the mutation runners look for it).
inline constexpr std::string_view kHangMarker = "HANG: a batch ran past its deadline";
inline constexpr unsigned kMaxHangTimeoutSeconds = 86400;

// KERNELS_HANG_TIMEOUT_S, parsed exactly (a whole number of seconds up to a day); 0 when off.
// Throws std::invalid_argument naming the variable, the value and the accepted range.
unsigned parse_hang_timeout(const char* text);
unsigned hang_timeout_seconds();

// Watches the batch while it lives. At the deadline, on the watchdog's thread, `lines()` gives
// what to print (the culprit's FAIL and rerun lines), and the process ends with status 1.
class HangWatch {
 public:
  explicit HangWatch(std::function<std::string()> lines);
  ~HangWatch();
  HangWatch(const HangWatch&) = delete;
  HangWatch& operator=(const HangWatch&) = delete;
};

// One event per run of a batch, recorded on the stream after the run's launch (also inside a
// graph capture, where it becomes a node): the first one not yet reached names the run whose
// kernels did not finish. The events are reused from batch to batch.
class RunMarks {
 public:
  explicit RunMarks(std::size_t runs);
  void launching(std::size_t run) { launching_ = run; }
  // After the run's call returned or threw.
  void launched(std::size_t run, cudaStream_t stream);
  // The run whose call has not returned, or else the first whose mark the stream has not reached.
  struct Culprit {
    std::size_t run;
    bool call_returned;
  };
  std::optional<Culprit> culprit() const;

 private:
  std::size_t runs_;
  std::atomic<std::size_t> launching_;
  std::atomic<std::size_t> marked_{0};
};

}  // namespace harness
