// 64-bit indexing of the any-length scans: every scan variant that accepts 2^28 ints scans 2^28
// and 2^31 + 2^20 + 3 ints (or its limit, if lower), inclusive and exclusive. Inputs are
// generated on the device and the verdict is computed there (harness/large_scan_check.hpp),
// exactly; the last inclusive value is also compared with the total that a separate kernel
// computes from the generator (harness/reduce/large_input.hpp). Guard bands around the output
// must keep their poison. Label `large`; skipped (with the reason) if the device lacks the
// memory.
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/reduce/large_input.hpp"
#include "harness/scan/large_scan_check.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/core/run_seed.hpp"
#include "harness/gtest/test_main.hpp"

#include <kernels/registry.hpp>
#include <kernels/scan.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kernels::ScanKind;
using kernels::VariantInfo;

constexpr std::size_t kGuard = harness::kArrayGuard;
constexpr std::uint64_t kTwoToThe28 = std::uint64_t(1) << 28;

class LargeScan : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }

  void check_length(std::uint64_t wanted) {
    const int block_size = variant().resolve_block_size(0);
    const std::uint64_t n = variant().accepted_length_at_most(wanted, block_size, kernels::TypeKey::int32);
    std::size_t workspace_bytes = 0;
    for (ScanKind kind : variant().kinds) {
      workspace_bytes = std::max(workspace_bytes, kernels::scan_workspace_bytes<int>(variant().name, kind, n));
    }
    const std::size_t needed = (2 * n + 2 * kGuard) * sizeof(int) + workspace_bytes + (256u << 20);
    if (harness::free_device_memory() < needed) {
      GTEST_SKIP() << harness::kMemorySkip << "needs " << (needed >> 20) << " MiB of device memory, "
                   << (harness::free_device_memory() >> 20) << " MiB free";
    }
    const harness::LargeInputSpec spec = harness::large_input_spec(n, harness::derive_seed(harness::run_seed(), n));
    const harness::LargeInputFacts facts = harness::large_input_facts(spec);

    const cudaStream_t stream = harness::test_stream();
    harness::DeviceBuffer<int> input(n);
    harness::fill_large_input(input.data(), spec, stream);
    harness::DeviceBuffer<int> output(n + 2 * kGuard);
    int* const out = output.data() + kGuard;
    harness::DeviceBuffer<unsigned char> workspace(workspace_bytes);
    const int poison = harness::output_poison<int>();
    for (ScanKind kind : variant().kinds) {
      const std::string what = "scan/" + std::string(variant().name) + " kind=" + std::string(kernels::name(kind)) +
                               " type=int n=" + std::to_string(n) + " (large input, seed " +
                               std::to_string(spec.seed) + ")";
      harness::fill_ints(output.data(), output.size(), poison, stream);
      kernels::scan<int>(variant().name, kind, input.data(), n, out, {workspace.data(), workspace_bytes},
                         {block_size}, stream);
      const harness::LargeVerdict verdict = harness::check_large_scan(out, spec, kind);
      EXPECT_EQ(verdict.mismatches, 0u) << what << ": first wrong output at " << verdict.first_bad;
      EXPECT_EQ(harness::count_not_equal(output.data(), kGuard, poison) +
                    harness::count_not_equal(out + n, kGuard, poison),
                0u)
          << what << ": writes outside [0, n)";
      if (kind == ScanKind::inclusive) {
        EXPECT_EQ(output.download(kGuard + n - 1, 1)[0], facts.wrapped_sum) << what << ": last value is not the total";
      }
    }
  }
};

TEST_P(LargeScan, TwoToThe28Ints) { check_length(kTwoToThe28); }

TEST_P(LargeScan, MoreThanTwoToThe31Ints) { check_length((1ull << 31) + (1ull << 20) + 3); }

INSTANTIATE_TEST_SUITE_P(large, LargeScan, testing::ValuesIn(harness::variants_taking(kernels::Family::scan, kernels::TypeKey::int32, kTwoToThe28)), harness::variant_param_name);

}  // namespace
