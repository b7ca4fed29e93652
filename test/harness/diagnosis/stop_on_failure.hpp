// KERNELS_STOP_FILE=<path>: the processes of one ctest run stop at the first failure of any of
// them. ctest --stop-on-failure starts no new entry after a failure but lets the running ones end,
// and when a kernel is broken the entries that do not see it (another type, say) run to their
// end: minutes for a sort, while one failure already answers a mutation run's question.
//
// A process whose test fails, or whose watchdog ends it for a hang, creates the file. Every
// other process of the run polls for it and, once it is there, prints kStoppedMarker and ends
// with exit 77 (ctest: Skipped): it neither passed nor failed. Whoever sets the variable removes
// the file before the run (ci/mutation/ctest_runs.py); without the variable nothing happens.
#pragma once

#include <chrono>

namespace harness {

inline constexpr const char* kStoppedMarker = "STOPPED: another entry of this run failed first";

// How often a process looks for the file.
inline constexpr std::chrono::milliseconds kStopPollInterval{100};

// Starts the poll (main(), before the tests).
void stop_when_another_entry_fails();

// Creates the file, if the variable names one; this process does not stop for it.
void tell_other_entries_of_failure();

}  // namespace harness
