// The verdict on a scan of a large input (LargeInputSpec), computed on the device: the output of
// 2^31 ints is too large to download and compare in reasonable time, and needs no oracle array.
#pragma once

#include "harness/large/large_input.hpp"

#include <kernels/types.hpp>

namespace harness {

// Checks out[0, n) against the int kind-scan by `op` (the wrapping sum or last_nonzero, the int ops a scan
// offers) of the spec's input without an expected array: every out[i] must be op(out[i-1], x[i]) (inclusive) or
// op(out[i-1], x[i-1]) (exclusive), out[-1] and an exclusive out[0] the identity 0. By
// induction this holds exactly when every element is right, whatever the op's order. The x are
// regenerated from the spec, not read back, so a scan that writes into its input is caught too.
// Runs on the test stream.
DeviceVerdict check_large_scan(const int* out, const LargeInputSpec& spec, kernels::ScanKind kind, kernels::Op op);

}  // namespace harness
