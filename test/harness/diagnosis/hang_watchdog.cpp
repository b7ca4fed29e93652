#include "harness/diagnosis/hang_watchdog.hpp"

#include "harness/diagnosis/failure_list.hpp"
#include "harness/numeric/exact_number.hpp"

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

// The one watch of the process (batches run one after another) and the thread that keeps it.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* watchdog = new Watchdog;  // never destroyed: its thread may outlive main
    return *watchdog;
  }

  void start(std::function<std::string()> lines, std::chrono::seconds timeout) {
    std::lock_guard lock(mutex_);
    lines_ = std::move(lines);
    timeout_ = timeout;
    deadline_ = std::chrono::steady_clock::now() + timeout;
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
      if (changed_.wait_until(lock, deadline_, [&] { return !active_ || watch_ != watch; })) continue;
      const std::string text = std::string(kHangMarker) + " of " + std::to_string(timeout_.count()) +
                               " s (KERNELS_HANG_TIMEOUT_S); the process ends here\n" + lines_() + "\n";
      std::fflush(stdout);  // what the test printed before, then the lines
      std::fputs(text.c_str(), stderr);
      append_to_failure_list(text);
      std::_Exit(1);  // the main thread is stuck in a call or a synchronisation: nothing unwinds
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<std::string()> lines_;
  std::chrono::seconds timeout_{0};
  std::chrono::steady_clock::time_point deadline_;
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
    const char* text = std::getenv("KERNELS_HANG_TIMEOUT_S");
    return text == nullptr ? kDefaultHangTimeoutSeconds : parse_hang_timeout(text);
  }();
  return seconds;
}

HangWatch::HangWatch(std::function<std::string()> lines) {
  if (const unsigned seconds = hang_timeout_seconds(); seconds != 0) {
    Watchdog::instance().start(std::move(lines), std::chrono::seconds(seconds));
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

std::optional<RunMarks::Culprit> RunMarks::culprit() const {
  if (const std::size_t run = launching_; run != kNone) return Culprit{run, false};
  for (std::size_t run = 0; run < std::min<std::size_t>(marked_, runs_); ++run) {
    if (cudaEventQuery(mark_events()[run]) == cudaErrorNotReady) return Culprit{run, true};
  }
  return std::nullopt;
}

}  // namespace harness
