#include "harness/session/phase_clock.hpp"

#include "harness/settings/exact_number.hpp"

#include <cstdio>

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kPhaseNames[] = {"start", "generate", "upload", "allocate", "launch",
                                       "wait",  "download", "judge",  "guards"};
static_assert(std::size(kPhaseNames) == std::size_t(Phase::count));

std::array<double, std::size_t(Phase::count)> totals{};
// The innermost running timer of this thread and when it last started or resumed.
thread_local PhaseTimer* innermost = nullptr;
thread_local Clock::time_point since{};
thread_local Phase innermost_phase = Phase::count;

// Charges the time since `since` to the innermost timer's phase and restarts the count.
void charge_innermost() {
  const Clock::time_point now = Clock::now();
  if (innermost != nullptr) totals[std::size_t(innermost_phase)] += std::chrono::duration<double>(now - since).count();
  since = now;
}

}  // namespace

PhaseTimer::PhaseTimer(Phase phase) : outer_(innermost), phase_(phase) {
  charge_innermost();
  innermost = this;
  innermost_phase = phase;
}

PhaseTimer::~PhaseTimer() {
  charge_innermost();
  innermost = outer_;
  innermost_phase = outer_ != nullptr ? outer_->phase_ : Phase::count;
}

std::array<double, std::size_t(Phase::count)> phase_seconds() { return totals; }

std::string phase_line(double wall_s, double cpu_s) {
  std::string line = "phase seconds:";
  double timed_s = 0;
  char number[32];
  for (std::size_t p = 0; p < totals.size(); ++p) {
    std::snprintf(number, sizeof number, " %s %.2f", kPhaseNames[p], totals[p]);
    line += number;
    timed_s += totals[p];
  }
  std::snprintf(number, sizeof number, " other %.2f", wall_s - timed_s);
  line += number;
  std::snprintf(number, sizeof number, "; wall %.2f cpu %.2f", wall_s, cpu_s);
  return line + number;
}

bool parse_phase_times(const char* text) { return exact_switch("KERNELS_PHASE_TIMES", text, false); }

}  // namespace harness
