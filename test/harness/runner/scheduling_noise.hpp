// Uneven scheduling for stress tests of cross-block protocols: a kernel on a second stream
// keeps a random subset of multiprocessors busy for random times, so that the blocks of the
// kernel under test start, run and finish out of their usual order.
#pragma once

#include <cstdint>

namespace harness {

// Launches the noise on the session's noise stream and returns at once; every block spins for
// up to `max_microseconds`, chosen from `seed`.
void launch_scheduling_noise(std::uint64_t seed, unsigned max_microseconds);

// Waits for the noise to end.
void wait_for_scheduling_noise();

}  // namespace harness
