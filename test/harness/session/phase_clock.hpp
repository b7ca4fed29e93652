// Where a test process's time goes, by step of the batch runner and of the properties' device
// calls (fuzz/device_calls.hpp: their inputs count as generate, their results' copies as
// wait, their checks as judge). Every step is timed; with KERNELS_PHASE_TIMES=1 the GPU tests' main prints the summed
// seconds of each step at exit, one line (bench/suite_timing.py --phases adds up a preset's
// lines). A step timed inside another pauses the outer one, so the steps never count a second
// twice; "other" is the rest of the process's time (RapidCheck's own work, the tests' own
// work, gtest).
#pragma once

#include <array>
#include <chrono>
#include <string>

namespace harness {

// start: from main() to the first test (the device's context is made there; on a GPU that many
// processes share, waiting for it is most of a short entry's time).
enum class Phase { start, generate, upload, allocate, launch, wait, download, judge, guards, count };

// Times `phase` from construction to destruction (not copyable). Timers run on the tests' thread:
// the totals are the process's, and not synchronised.
class PhaseTimer {
 public:
  explicit PhaseTimer(Phase phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  PhaseTimer* const outer_;
  const Phase phase_;
};

// f()'s result, its time charged to `phase`.
template <class F>
decltype(auto) timed(Phase phase, F&& f) {
  const PhaseTimer timer(phase);
  return f();
}

// Seconds charged to each phase so far, in Phase's order.
std::array<double, std::size_t(Phase::count)> phase_seconds();

// The line printed at exit: "phase seconds: start 0.40 generate 0.52 ... other 1.20; wall 5.40 cpu 3.10"
// given the process's wall and CPU seconds.
std::string phase_line(double wall_s, double cpu_s);

// Whether KERNELS_PHASE_TIMES asks for the line (an exact 0 or 1; unset is 0).
bool parse_phase_times(const char* text);

}  // namespace harness
