// The large cases of the scans (large/large_case.hpp): an inclusive or exclusive scan of n ints
// from the generator of large/large_input.hpp into an output between poisoned guard bands,
// judged on the device (large_scan_check.hpp); an inclusive scan's last value must also be the
// total, computed apart from the generator.
#pragma once

#include "harness/large/large_case.hpp"

namespace harness {

extern const LargeRunner kLargeScan;

}  // namespace harness
