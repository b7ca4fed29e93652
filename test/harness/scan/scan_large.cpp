#include "harness/scan/scan_large.hpp"

#include "harness/large/large_input.hpp"
#include "harness/large/large_output.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/scan/scan_large_device.hpp"

#include <kernels/scan.hpp>

namespace harness {
namespace {

std::size_t workspace_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return kernels::scan_workspace_bytes<int>(variant.name, c.kind, c.op, c.n, {c.block_size});
}

std::size_t large_scan_device_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return (2 * c.n + 2 * kArrayGuard) * sizeof(int) + workspace_bytes(variant, c);
}

BatchReport run_large_scan(const kernels::VariantInfo& variant, const Case& c) {
  return large_case_report(c, [&] {
    const LargeInputSpec spec = large_input_spec(c.n, c.seed);
    const cudaStream_t stream = test_stream();
    // The input needs no guard band: the verdict regenerates it, so writes into it are caught.
    DeviceBuffer<int> input(c.n);
    fill_large_input(input.data(), spec, stream);
    const LargeOutput output(c.n, stream);
    int* const out = output.data();
    const std::size_t bytes = workspace_bytes(variant, c);
    DeviceBuffer<unsigned char> workspace(bytes);

    kernels::scan<int>(variant.name, c.kind, c.op, input.data(), c.n, out, {workspace.data(), bytes}, {c.block_size},
                       stream);
    std::vector<LargeProblem> problems;
    const DeviceVerdict verdict = check_large_scan(out, spec, c.kind, c.op);
    if (verdict.mismatches != 0) {
      problems.push_back(
          {FailureKind::wrong_value,
           std::to_string(verdict.mismatches) + " wrong outputs, the first at " + std::to_string(verdict.first_bad)});
    }
    if (c.kind == kernels::ScanKind::inclusive && c.op == kernels::Op::sum && c.n > 0) {
      const int last = output.element(c.n - 1);
      const int total = large_input_facts(spec).wrapped_sum;
      if (last != total) {
        problems.push_back({FailureKind::wrong_value,
                            "the last value " + std::to_string(last) + " is not the total " + std::to_string(total)});
      }
    }
    if (const std::uint64_t outside = output.guard_writes(); outside != 0) {
      problems.push_back({FailureKind::out_of_bounds, std::to_string(outside) + " writes outside [0, n)"});
    }
    return problems;
  });
}

}  // namespace

const LargeRunner kLargeScan{large_scan_device_bytes, run_large_scan};

}  // namespace harness
