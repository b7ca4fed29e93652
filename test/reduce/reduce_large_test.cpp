// 64-bit indexing: every variant reduces 2^28 ints and 2^31 + 2^20 + 3 ints (more than 2^31
// elements, the extremes planted past index 2^31 so that a 32-bit index misses them), with the
// ops sum, max, min and the widening sum. Inputs are generated on the device; poison fills the
// guard bands before every run. Label `large`; skipped (with the reason) if the device lacks
// the memory.
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/reduce/large_input.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/core/run_seed.hpp"
#include "harness/gtest/test_main.hpp"

#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

using kernels::Op;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr std::size_t kGuard = harness::kArrayGuard;

class LargeReduce : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }
  bool widens() const { return variant().supports(TypeKey::int32_to_int64, Op::sum); }

  void check_length(std::uint64_t n) {
    const int block_size = variant().resolve_block_size(0);
    std::size_t workspace_bytes = 0;
    for (Op op : variant().ops(TypeKey::int32)) {
      workspace_bytes = std::max(workspace_bytes, kernels::reduce_workspace_bytes<int, int>(variant().name, op, n));
    }
    if (widens()) {
      workspace_bytes = std::max(workspace_bytes,
                                 kernels::reduce_workspace_bytes<int, long long>(variant().name, Op::sum, n));
    }
    const std::size_t needed = (n + 2 * kGuard) * sizeof(int) + workspace_bytes + (256u << 20);
    if (harness::free_device_memory() < needed) {
      GTEST_SKIP() << harness::kMemorySkip << "needs " << (needed >> 20) << " MiB of device memory, "
                   << (harness::free_device_memory() >> 20) << " MiB free";
    }
    const harness::LargeInputSpec spec = harness::large_input_spec(n, harness::derive_seed(harness::run_seed(), n));
    const harness::LargeInputFacts facts = harness::large_input_facts(spec);

    harness::DeviceBuffer<int> buffer(n + 2 * kGuard);
    int* const input = buffer.data() + kGuard;
    const cudaStream_t stream = harness::test_stream();
    harness::fill_large_input(input, spec, stream);
    harness::DeviceBuffer<unsigned char> workspace(workspace_bytes);
    harness::DeviceBuffer<int> result(1);
    harness::DeviceBuffer<long long> widened_result(1);
    const std::map<Op, int> expected{{Op::sum, facts.wrapped_sum}, {Op::max, facts.max}, {Op::min, facts.min}};
    for (const auto& [op, value] : expected) {
      if (!variant().supports(TypeKey::int32, op)) continue;
      const int poison = harness::input_poison<int>(op);
      harness::fill_ints(buffer.data(), kGuard, poison, stream);
      harness::fill_ints(input + n, kGuard, poison, stream);
      kernels::reduce<int, int>(variant().name, op, input, n, result.data(), {workspace.data(), workspace_bytes},
                                {block_size}, stream);
      const int got = result.download()[0];
      EXPECT_EQ(got, value) << "reduce/" << variant().name << " op=" << kernels::name(op) << " type=int n=" << n
                            << " (large input, seed " << spec.seed << ")";
    }
    if (!widens()) return;
    harness::fill_ints(input + n, kGuard, harness::input_poison<int>(Op::sum), stream);
    kernels::reduce<int, long long>(variant().name, Op::sum, input, n, widened_result.data(),
                                    {workspace.data(), workspace_bytes}, {block_size}, stream);
    EXPECT_EQ(widened_result.download()[0], facts.widened_sum)
        << "reduce/" << variant().name << " op=sum type=int_to_longlong n=" << n << " (large input, seed " << spec.seed
        << ")";
  }
};

TEST_P(LargeReduce, TwoToThe28Ints) { check_length(1ull << 28); }

TEST_P(LargeReduce, MoreThanTwoToThe31Ints) { check_length((1ull << 31) + (1ull << 20) + 3); }

// Variants that take more than 2^31 ints (those that take ints at all, up to any length).
INSTANTIATE_TEST_SUITE_P(large, LargeReduce,
                         testing::ValuesIn(harness::variants_taking(kernels::Family::reduce, TypeKey::int32,
                                                                    (1ull << 31) + (1ull << 20) + 3)),
                         harness::variant_param_name);

}  // namespace
