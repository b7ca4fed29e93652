// The verdict on a scan of a large input (LargeInputSpec), computed on the device: the output of
// 2^31 ints is too large to download and compare in reasonable time, and needs no oracle array.
#pragma once

#include "harness/large/large_input.hpp"

#include <kernels/types.hpp>

namespace harness {

// Checks out[0, n) against the wrapping int kind-scan of the spec's input without an expected
// array: out[0] must be x0 (inclusive) or 0 (exclusive), and every step out[i] - out[i-1] must be
// x[i] (inclusive) or x[i-1] (exclusive), computed modulo 2^32. By induction this holds exactly
// when every element is right. The x are regenerated from the spec, not read back, so a scan
// that writes into its input is caught too. Runs on the test stream.
DeviceVerdict check_large_scan(const int* out, const LargeInputSpec& spec, kernels::ScanKind kind);

}  // namespace harness
