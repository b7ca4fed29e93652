#include "harness/diagnosis/hang_watchdog.hpp"

#include "harness/diagnosis/failure_list.hpp"
#include "harness/diagnosis/stop_on_failure.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/exact_number.hpp"

#include <kernels/errors.hpp>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace harness {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// How often the watchdog looks at the step under way.
constexpr std::chrono::milliseconds kPollInterval{100};

std::string seconds_text(std::chrono::milliseconds time) {
  const auto tenths = (time.count() + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

// The one watch of the process (batches run one after another) and the thread that keeps it.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* watchdog = new Watchdog;  // never destroyed: its thread may outlive main
    return *watchdog;
  }

  void start(std::function<std::string()> lines, std::function<WatchedStep()> step,
             std::function<std::chrono::milliseconds(std::uint64_t)> allowance) {
    std::lock_guard lock(mutex_);
    lines_ = std::move(lines);
    step_ = std::move(step);
    allowance_ = std::move(allowance);
    ++watch_;
    active_ = true;
    if (!thread_started_) {
      std::thread([this] { keep_watch(); }).detach();
      thread_started_ = true;
    }
    changed_.notify_one();
  }

  void stop() {
    std::lock_guard lock(mutex_);
    active_ = false;
    changed_.notify_one();
  }

 private:
  void keep_watch() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return active_; });
      const unsigned long watch = watch_;
      WatchedStep current = step_();
      auto since = std::chrono::steady_clock::now();
      for (;;) {
        if (changed_.wait_for(lock, kPollInterval, [&] { return !active_ || watch_ != watch; })) break;
        const WatchedStep now = step_();
        const auto time = std::chrono::steady_clock::now();
        if (now.id != current.id) {
          current = now;
          since = time;
          continue;
        }
        const std::chrono::milliseconds allowance = allowance_(current.values);
        if (time - since >= allowance) report(current, allowance);
      }
    }
  }

  [[noreturn]] void report(const WatchedStep& step, std::chrono::milliseconds allowance) {
    const std::string text = std::string(kHangMarker) + ": a step of " + std::to_string(step.values) +
                             " values went unfinished for its allowance of " + seconds_text(allowance) +
                             " (KERNELS_HANG_TIMEOUT_S=" + std::to_string(hang_timeout_seconds()) +
                             " sets it); the process ends here\n" + lines_() + "\n";
    std::fflush(stdout);  // what the test printed before, then the lines
    std::fputs(text.c_str(), stderr);
    append_to_failure_list(text);
    tell_other_entries_of_failure();
    std::_Exit(1);  // the main thread is stuck in a call or a synchronisation: nothing unwinds
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<std::string()> lines_;
  std::function<WatchedStep()> step_;
  std::function<std::chrono::milliseconds(std::uint64_t)> allowance_;
  unsigned long watch_ = 0;
  bool active_ = false;
  bool thread_started_ = false;
};

std::vector<cudaEvent_t>& mark_events() {
  static std::vector<cudaEvent_t> events;
  return events;
}

}  // namespace

unsigned parse_hang_timeout(const char* text) {
  const std::optional<unsigned> seconds = exact_number(std::string_view(text), 0u, kMaxHangTimeoutSeconds);
  if (!seconds) {
    throw std::invalid_argument("KERNELS_HANG_TIMEOUT_S: '" + std::string(text) +
                                "' is not a whole number of seconds in [0, " + std::to_string(kMaxHangTimeoutSeconds) +
                                "] (0: no watchdog)");
  }
  return *seconds;
}

unsigned hang_timeout_seconds() {
  static const unsigned seconds = [] {
    const char* text = harness::suite_variable("KERNELS_HANG_TIMEOUT_S");
    return text == nullptr ? kDefaultHangTimeoutSeconds : parse_hang_timeout(text);
  }();
  return seconds;
}

std::chrono::milliseconds step_allowance(std::uint64_t values, unsigned timeout_seconds) {
  // T/12 + T * values / 2^24, in milliseconds; a length that would overflow gets a day. T = 0
  // (the watchdog off) allows nothing, and is never watched.
  if (timeout_seconds == 0) return std::chrono::milliseconds(0);
  constexpr std::uint64_t kValuesPerDeadline = std::uint64_t(1) << 24;
  const std::uint64_t timeout_ms = std::uint64_t(timeout_seconds) * 1000;
  const std::uint64_t most_values = (std::uint64_t(kMaxHangTimeoutSeconds) * 1000 * kValuesPerDeadline) / timeout_ms;
  if (values >= most_values) return std::chrono::seconds(kMaxHangTimeoutSeconds);
  return std::chrono::milliseconds(timeout_ms / 12 + timeout_ms * values / kValuesPerDeadline);
}

HangWatch::HangWatch(std::function<std::string()> lines, std::function<WatchedStep()> step) {
  if (const unsigned seconds = hang_timeout_seconds(); seconds != 0) {
    Watchdog::instance().start(std::move(lines), std::move(step),
                               [seconds](std::uint64_t values) { return step_allowance(values, seconds); });
  }
}

HangWatch::HangWatch(std::function<std::string()> lines, std::uint64_t values)
    : HangWatch(std::move(lines), [values] {
        return WatchedStep{0, values};
      }) {}

std::chrono::milliseconds HangWatch::whole_deadline() { return std::chrono::seconds(hang_timeout_seconds()); }

HangWatch::HangWatch(std::function<std::string()> lines, std::chrono::milliseconds allowance) {
  if (hang_timeout_seconds() != 0) {
    Watchdog::instance().start(
        std::move(lines),
        [] {
          return WatchedStep{0, 0};
        },
        [allowance](std::uint64_t) { return allowance; });
  }
}

HangWatch::~HangWatch() {
  if (hang_timeout_seconds() != 0) Watchdog::instance().stop();
}

RunMarks::RunMarks(std::size_t runs) : runs_(runs), launching_(kNone) {
  std::vector<cudaEvent_t>& events = mark_events();
  while (events.size() < runs) {
    cudaEvent_t event = nullptr;
    kernels::check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    events.push_back(event);
  }
}

void RunMarks::launched(std::size_t run, cudaStream_t stream) {
  // A mark that cannot be recorded (a capture the call invalidated, a failed stream) must not
  // stand in for the call's own error, which the batch reports: its error is cleared.
  if (cudaEventRecord(mark_events()[run], stream) != cudaSuccess) (void)cudaGetLastError();
  launching_ = kNone;
  marked_ = run + 1;
}

WatchedStep RunMarks::step_under_way(const std::function<std::uint64_t(std::size_t)>& length) {
  const std::size_t launching = launching_;
  const std::size_t call = launching != kNone ? launching : std::size_t(marked_);  // the call made, or the next
  if (queryable_) {
    const std::size_t marked = std::min<std::size_t>(marked_, runs_);
    while (reached_ < marked && cudaEventQuery(mark_events()[reached_]) != cudaErrorNotReady) ++reached_;
  }
  // What holds the work up: the kernels of an earlier run (a call may wait for them), or the call.
  const std::size_t first = queryable_ && reached_ < call ? reached_ : call;
  return {call + (runs_ + 1) * reached_, first < runs_ ? length(first) : 0};
}

std::optional<RunMarks::Culprit> RunMarks::culprit() const {
  // An earlier run's unfinished kernels first: a call that waits for them (a full launch queue,
  // a synchronisation inside the call) is not the culprit.
  if (queryable_) {
    for (std::size_t run = 0; run < std::min<std::size_t>(marked_, runs_); ++run) {
      if (cudaEventQuery(mark_events()[run]) == cudaErrorNotReady) return Culprit{run, true};
    }
  }
  if (const std::size_t run = launching_; run != kNone) return Culprit{run, false};
  return std::nullopt;
}

}  // namespace harness
