// A batch that never finishes: a kernel that never ends (a loop whose bound a bug broke, a
// look-back waiting for a flag nobody sets) or a call that never returns (a host loop over
// passes that no longer shrink). Neither can be interrupted from inside the process, and ctest's
// timeout would only say that the whole test ran too long. So a watchdog thread watches each
// batch's progress: each run (its call, then its kernels) is a step, and a step that goes
// unfinished past its allowance ends the process with exit status 1, after printing the FAIL and
// rerun lines of the case at fault: the first run whose kernels have not finished (each run
// marks its end on the stream with an event), or else the run whose call has not returned. ctest
// shows those lines; kcheck, rerunning the case, ends the same way instead of hanging.
//
// A step's allowance grows with its length, so that a hang in a short run is reported within
// seconds while the longest honest runs of a quadratic variant on a slow GPU still finish:
// T/12 + T * values / 2^24 for T = KERNELS_HANG_TIMEOUT_S (default 60: 5 s for a short run,
// 65 s for a run of 2^24 values). 0 turns the watchdog off, as under compute-sanitizer, whose
// runs are many times slower.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
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

// How long a step of `values` values may stay unfinished under the deadline T (see above).
std::chrono::milliseconds step_allowance(std::uint64_t values, unsigned timeout_seconds);

// The step under way: `id` changes whenever one finishes and the next begins; `values` is its
// length, which sets its allowance.
struct WatchedStep {
  std::size_t id;
  std::uint64_t values;
};

// Watches work while it lives. Past a step's allowance, on the watchdog's thread, `lines()`
// gives what to print (the culprit's FAIL and rerun lines), and the process ends with status 1.
class HangWatch {
 public:
  // Work in steps: `step()` (called on the watchdog's thread, a few times a second) names the
  // step under way, and each step gets its allowance from the moment it is first seen.
  HangWatch(std::function<std::string()> lines, std::function<WatchedStep()> step);
  // One call of `values` values.
  HangWatch(std::function<std::string()> lines, std::uint64_t values);
  // One call that gets the whole deadline T (a large case: its length is past what the
  // allowance's scale is for, and its kernels are the fast variants').
  static std::chrono::milliseconds whole_deadline();
  HangWatch(std::function<std::string()> lines, std::chrono::milliseconds allowance);
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
  // From now on the marks may be queried: at once for runs launched on a stream, after the
  // launch for runs captured into a graph (a query during a stream capture would break it).
  void may_query() { queryable_ = true; }
  // The first run whose mark the stream has not reached, or else the run whose call has not returned.
  struct Culprit {
    std::size_t run;
    bool call_returned;
  };
  std::optional<Culprit> culprit() const;
  // The step under way, for the watchdog: it changes whenever a call returns or a run's mark is
  // reached; its length is that of the first unfinished run whose kernels have not been seen to
  // finish (a call may wait for them), or else of the call being made. `length(r)` is run r's.
  WatchedStep step_under_way(const std::function<std::uint64_t(std::size_t)>& length);

 private:
  std::size_t runs_;
  std::atomic<std::size_t> launching_;
  std::atomic<std::size_t> marked_{0};
  std::atomic<bool> queryable_{false};
  std::size_t reached_ = 0;  // marks known reached (the watchdog's thread only)
};

}  // namespace harness
