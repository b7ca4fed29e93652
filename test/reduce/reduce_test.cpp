// GPU tests of every registered reduction variant for one element type: CMake builds this file
// once per type key (REDUCE_TEST_TYPE), so the executables compile in parallel and each ctest
// entry runs one variant of one type.
#include "harness/gtest/batch_assertions.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/graph_capture.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/reduce/reduce_family.hpp"
#include "harness/core/run_seed.hpp"
#include "harness/core/scheduling_noise.hpp"
#include "harness/gtest/rejected_calls.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/variant_test.hpp"

#include <kernels/errors.hpp>
#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

namespace {

using harness::BatchReport;
using harness::Distribution;
using harness::ReduceBatch;
using harness::TestInput;
using kernels::Op;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::REDUCE_TEST_TYPE;
using In = kernels::types_of<kType>::in;
using Out = kernels::types_of<kType>::out;

// Lengths that straddle powers of two and the grid and block boundaries of every variant.
constexpr std::uint64_t kStraddleLengths[] = {1023,    1024,    1025,          4095,          4097,
                                              65535,   65537,   (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1,
                                              25u << 20};

class Reduce : public harness::VariantTest<kType> {
 protected:
  std::vector<Op> ops() const { return variant().ops(kType); }

  // Runs every (length, block size) pair the contract accepts for each op, one batch per op:
  // `inputs(block)` names the (distribution, length, offset) of each input for that block size.
  struct Wanted {
    Distribution distribution;
    std::uint64_t n;
    unsigned offset;
  };
  void check(const std::vector<Wanted>& wanted, const std::vector<int>& blocks) {
    for (Op op : ops()) {
      ReduceBatch<In, Out> batch(variant(), op);
      for (int block_size : blocks) {
        for (const Wanted& w : wanted) {
          const auto n = length_for(w.n, block_size);
          if (n) batch.add_run(batch.add_input(input(w.distribution, *n, w.offset)), block_size);
        }
      }
      EXPECT_TRUE(harness::all_passed(batch.run()));
    }
  }

  // How a failure outside the batch runner names its case: everything, and the kcheck line.
  std::string context(Op op, const TestInput<In>& values) const {
    harness::Case c{.family = kernels::Family::reduce, .variant = std::string(variant().name), .type = kType, .op = op};
    c.n = values.values.size();
    c.distribution = values.distribution;
    c.seed = values.seed;
    c.offset = values.offset;
    return harness::describe(c) + "\n     rerun: " + harness::kcheck_line(c) + "\n";
  }

  // The longest accepted length up to n with the preferred block size (the default config).
  std::uint64_t preferred_length(std::uint64_t n) const { return variant().accepted_length_at_most(n, 0, kType); }
};

// Every n from 0 to 2 * block + 1 for every block size: empty input, a partial first block, a
// full block, one more than a block, and the two-values-per-thread boundary. Inputs start at
// every alignment relative to a 16-byte boundary.
TEST_P(Reduce, EveryLengthUpToTwoBlocksPlusOne) {
  for (int block_size : block_sizes()) {
    std::vector<Wanted> wanted;
    for (std::uint64_t n = 0; n <= 2 * nominal_block(block_size) + 1; ++n) {
      wanted.push_back({Distribution::random, n, unsigned(n % 4)});
    }
    check(wanted, {block_size});
  }
}

TEST_P(Reduce, LengthsStraddlingPowersOfTwo) {
  for (std::uint64_t n : kStraddleLengths) check({{Distribution::random, n, 1}}, block_sizes());
}

// Lengths drawn from the run seed: a different ragged set in every nightly run.
TEST_P(Reduce, RaggedRandomLengths) {
  std::vector<Wanted> wanted;
  for (std::uint64_t k = 0; k < 6; ++k) {
    wanted.push_back({Distribution::random, 1 + harness::random_bits(harness::run_seed(), k) % (1u << 21), unsigned(k % 4)});
  }
  check(wanted, block_sizes());
}

// Every distribution the type admits (overflowing, extreme, IEEE special values, cancellation)
// at lengths from one element to several multi-pass levels.
TEST_P(Reduce, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 65537, (1u << 20) + 1};
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    std::vector<Wanted> wanted;
    for (std::uint64_t n : kLengths) wanted.push_back({distribution, n, unsigned(n % 4)});
    check(wanted, representative_block_sizes());
  }
}

// Sums whose true value leaves the type: integer sums wrap (int, unsigned, long long) or stay
// exact (the widening sum); float sums overflow to infinity. The test first checks that its
// inputs really do leave the range, so it cannot pass vacuously.
TEST_P(Reduce, SumsLeavingTheTypesRange) {
  if (!variant().supports(kType, Op::sum)) return;  // the variant declares no sum for this type
  for (Distribution distribution : {Distribution::max, Distribution::alternating}) {
    const TestInput<In>& values = input(distribution, preferred_length(65537), 0);
    const auto expected = harness::expect_reduce<In, Out>(Op::sum, values.values);
    if constexpr (std::is_integral_v<Out>) {
      long double true_sum = 0;
      for (In x : values.values) true_sum += static_cast<long double>(x);
      if constexpr (kernels::is_widening(kType)) {
        ASSERT_EQ(static_cast<long double>(expected.value), true_sum) << "the widening sum must be exact";
      } else if (distribution == Distribution::max) {
        ASSERT_NE(static_cast<long double>(expected.value), true_sum) << "these inputs must overflow";
      }
    } else {
      ASSERT_GE(expected.facts.abs_sum, static_cast<long double>(std::numeric_limits<Out>::max()))
          << "these inputs must be able to overflow";
    }
    check({{distribution, values.values.size(), 0}}, block_sizes());
  }
}

// A call captured into a CUDA graph in global capture mode fails if it allocates or
// synchronises; replaying the graph must give the oracle's answer.
TEST_P(Reduce, CapturesIntoAGraphWithoutAllocatingOrSynchronising) {
  const TestInput<In>& values = input(Distribution::random, preferred_length(1000003), 0);
  const harness::DeviceBuffer<In> device_input{std::span<const In>(values.values)};
  for (Op op : ops()) {
    const std::size_t bytes = kernels::reduce_workspace_bytes<In, Out>(variant().name, op, values.values.size());
    harness::DeviceBuffer<unsigned char> workspace(bytes);
    harness::DeviceBuffer<Out> result(1);
    const auto not_captured = harness::replay_as_graph([&](cudaStream_t stream) {
      kernels::reduce<In, Out>(variant().name, op, device_input.data(), values.values.size(), result.data(),
                               {workspace.data(), bytes}, {}, stream);
    });
    ASSERT_FALSE(not_captured) << context(op, values) << "\n     cannot be captured in a graph: " << *not_captured;
    const auto expected = harness::expect_reduce<In, Out>(op, values.values);
    const std::uint64_t depth = variant().depth_with(values.values.size(), 0);
    const auto problem = harness::judge_reduce(expected, result.download()[0], depth);
    EXPECT_FALSE(problem) << context(op, values) << "\n     replayed graph: " << *problem;
  }
}

// Every rejected call throws ValidationError, enqueues nothing (a capture of the call records
// no node) and leaves the output as it was.
TEST_P(Reduce, RejectedCallsEnqueueNothingAndWriteNothing) {
  const Op op = ops().front();
  const std::uint64_t n = preferred_length(1024);
  const harness::DeviceBuffer<In> device_input(n);
  harness::DeviceBuffer<Out> result{std::span<const Out>(std::vector<Out>{harness::output_poison<Out>()})};
  const std::size_t bytes = kernels::reduce_workspace_bytes<In, Out>(variant().name, op, n);
  harness::DeviceBuffer<unsigned char> workspace(bytes + 1);
  const kernels::Workspace enough{workspace.data(), bytes};
  const int unsupported_block = harness::unaccepted_block_size(variant());

  std::vector<harness::RejectedCall> calls{
      {"block_size", [&](cudaStream_t s) { kernels::reduce<In, Out>(variant().name, op, device_input.data(), n, result.data(), enough, {unsupported_block}, s); }},
      {"in", [&](cudaStream_t s) { kernels::reduce<In, Out>(variant().name, op, nullptr, n, result.data(), enough, {}, s); }},
      {"out", [&](cudaStream_t s) { kernels::reduce<In, Out>(variant().name, op, device_input.data(), n, nullptr, enough, {}, s); }},
      {"variant", [&](cudaStream_t s) { kernels::reduce<In, Out>("no_such_variant", op, device_input.data(), n, result.data(), enough, {}, s); }},
  };
  if (bytes > 0) {
    calls.push_back({"workspace.bytes", [&](cudaStream_t s) {
                       kernels::reduce<In, Out>(variant().name, op, device_input.data(), n, result.data(),
                                                {workspace.data(), bytes - 1}, {}, s);
                     }});
  }
  for (const auto& [too_long, block_size] : harness::unaccepted_lengths(variant(), kType)) {
    calls.push_back({"n", [&, too_long, block_size](cudaStream_t s) {
                       kernels::reduce<In, Out>(variant().name, op, device_input.data(), too_long, result.data(), enough,
                                                {block_size}, s);
                     }});
  }
  for (Op undeclared : kernels::kAllOps) {
    if (variant().supports(kType, undeclared)) continue;
    calls.push_back({"op", [&, undeclared](cudaStream_t s) {
                       kernels::reduce<In, Out>(variant().name, undeclared, device_input.data(), n, result.data(),
                                                enough, {}, s);
                     }});
  }
  harness::expect_rejected_without_work("reduce/" + std::string(variant().name), calls);
  const Out after = result.download()[0];
  const Out poison = harness::output_poison<Out>();
  EXPECT_EQ(std::memcmp(&after, &poison, sizeof(Out)), 0) << "a rejected call wrote its output";
}

// Variants that declare themselves bitwise deterministic.
class DeterministicReduce : public Reduce {};

// A deterministic variant gives the same bits for the same input twice, floats included.
TEST_P(DeterministicReduce, SameBitsOnEveryRun) {
  const TestInput<In>& values = input(Distribution::random, preferred_length((1u << 22) + 7), 0);
  const harness::DeviceBuffer<In> device_input{std::span<const In>(values.values)};
  for (Op op : ops()) {
    const std::size_t bytes = kernels::reduce_workspace_bytes<In, Out>(variant().name, op, values.values.size());
    harness::DeviceBuffer<unsigned char> workspace(bytes);
    harness::DeviceBuffer<Out> results(8);
    for (std::size_t repeat = 0; repeat < results.size(); ++repeat) {
      kernels::reduce<In, Out>(variant().name, op, device_input.data(), values.values.size(), results.data() + repeat,
                               {workspace.data(), bytes}, {}, harness::test_stream());
    }
    kernels::check_cuda(cudaStreamSynchronize(harness::test_stream()), "cudaStreamSynchronize");
    const std::vector<Out> got = results.download();
    for (std::size_t repeat = 1; repeat < got.size(); ++repeat) {
      EXPECT_EQ(std::memcmp(&got[0], &got[repeat], sizeof(Out)), 0)
          << context(op, values) << "\n     run " << repeat << " gave " << harness::show_value(got[repeat])
          << ", run 0 gave " << harness::show_value(got[0]);
    }
  }
}

// Variants whose blocks communicate (the completion ticket of the single-pass reduction),
// repeated under uneven scheduling: a noise kernel on another stream keeps random
// multiprocessors busy for random times, so blocks finish out of order.
// KCHECK_STRESS_REPEATS sets the repetitions (default 4).
class CrossBlockReduce : public Reduce {};

TEST_P(CrossBlockReduce, StressUnderUnevenScheduling) {
  const char* repeats_text = std::getenv("KCHECK_STRESS_REPEATS");
  const int repeats = repeats_text ? std::atoi(repeats_text) : 4;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (int block_size : representative_block_sizes()) {
      for (Op op : ops()) {
        ReduceBatch<In, Out> batch(variant(), op);
        const auto n = length_for((1u << 22) + 3, block_size);
        if (!n) continue;
        batch.add_run(batch.add_input(input(Distribution::random, *n, 0)), block_size);
        harness::launch_scheduling_noise(harness::derive_seed(harness::run_seed(), repeat, block_size), 50);
        EXPECT_TRUE(harness::all_passed(batch.run())) << "stress repeat " << repeat;
        harness::wait_for_scheduling_noise();
      }
    }
  }
}

std::vector<const VariantInfo*> variants_for_this_type() {
  std::vector<const VariantInfo*> supporting;
  for (const VariantInfo* variant : kernels::variants_of(kernels::Family::reduce)) {
    if (variant->supports(kType)) supporting.push_back(variant);
  }
  return supporting;
}

std::vector<const VariantInfo*> deterministic_variants_for_this_type() {
  std::vector<const VariantInfo*> deterministic;
  for (const VariantInfo* variant : variants_for_this_type()) {
    if (variant->deterministic) deterministic.push_back(variant);
  }
  return deterministic;
}

INSTANTIATE_TEST_SUITE_P(REDUCE_TEST_TYPE, Reduce, testing::ValuesIn(variants_for_this_type()),
                         harness::variant_param_name);
std::vector<const VariantInfo*> cross_block_variants_for_this_type() {
  std::vector<const VariantInfo*> chosen;
  for (const VariantInfo* variant : variants_for_this_type()) {
    if (variant->cross_block) chosen.push_back(variant);
  }
  return chosen;
}

INSTANTIATE_TEST_SUITE_P(REDUCE_TEST_TYPE, CrossBlockReduce, testing::ValuesIn(cross_block_variants_for_this_type()),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(REDUCE_TEST_TYPE, DeterministicReduce,
                         testing::ValuesIn(deterministic_variants_for_this_type()),
                         harness::variant_param_name);

}  // namespace
