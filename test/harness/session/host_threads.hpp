// Host work split over the machine's cores. A GPU test process runs one variant's every type,
// one batch after another, and its host steps (generating long inputs, judging float scans and
// reductions run by run) would otherwise keep one core busy while a run of one variant's entries
// leaves the others idle. The phase clock's timers belong to the tests' thread: the pieces must
// not use them (the caller's timer counts the whole split step).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace harness {

// Host work of fewer values than this stays on the tests' thread: starting threads would cost
// more than they save.
inline constexpr std::uint64_t kValuesWorthSplitting = std::uint64_t(1) << 16;

// The threads a split step uses at most: the machine's cores, up to kMaxHostThreads.
inline constexpr unsigned kMaxHostThreads = 8;
unsigned host_threads();

// Calls piece(begin, end) over [0, count), each piece at least `grain` long but the last, on up
// to host_threads() threads (the caller's among them), and returns when every piece has ended;
// then rethrows the first exception a piece threw. One piece, on the caller's thread, when
// count <= grain.
void parallel_for(std::size_t count, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& piece);

// Calls every task once, on up to host_threads() threads, and returns when all have ended; then
// rethrows the exception of the lowest-numbered task that threw, whichever ended first: the same
// failure as if they had run in turn (a property's draws, whose failure must shrink alike).
void run_all(const std::vector<std::function<void()>>& tasks);

}  // namespace harness
