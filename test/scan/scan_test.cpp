// GPU tests of every registered scan variant for one element type: CMake builds this file once
// per type (SCAN_TEST_TYPE); ctest runs each variant of each type as its own entry.
#include "harness/gtest/batch_assertions.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/graph_capture.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/scan/scan_oracle.hpp"
#include "harness/scan/scan_family.hpp"
#include "harness/core/scheduling_noise.hpp"
#include "harness/gtest/rejected_calls.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/variant_test.hpp"

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>
#include <kernels/scan.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

namespace {

using harness::Distribution;
using harness::ScanBatch;
using harness::TestInput;
using kernels::ScanKind;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::SCAN_TEST_TYPE;
using T = kernels::types_of<kType>::in;

// Up to 2^24 + 1: longer inputs are the large tests' (2^28 and 2^31 + 2^20 + 3 values), whose
// checks run on the device; here each costs seconds of host oracle under a parallel ctest.
constexpr std::uint64_t kStraddleLengths[] = {1023,  1024,  1025,          4095,          4097,          65535,
                                              65537, (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1};
// Inputs above this many values are left out of the recursion tests (the straddle list goes on).
constexpr std::uint64_t kLongest = std::uint64_t(1) << 25;
// Output values per batch: bounds the device and host memory of one batch.
constexpr std::uint64_t kBatchValues = std::uint64_t(1) << 25;

class Scan : public harness::VariantTest<kType> {
 protected:
  struct Run {
    const TestInput<T>* input;
    int block_size;
  };

  // Every run for both kinds, in batches of at most kBatchValues outputs. Runs the variant does
  // not accept (single-block and quadratic variants have length limits) are left out.
  void check(const std::vector<Run>& runs, bool in_place = false) {
    for (ScanKind kind : variant().kinds) {
      std::optional<ScanBatch<T>> batch;
      std::uint64_t values = 0;
      for (const Run& run : runs) {
        const TestInput<T>* run_input = input_for(*run.input, run.block_size);
        if (run_input == nullptr) continue;
        const std::uint64_t n = run_input->values.size();
        if (batch && values + n > kBatchValues) {
          EXPECT_TRUE(harness::all_passed(batch->run()));
          batch.reset();
        }
        if (!batch) {
          batch.emplace(variant(), kind);
          values = 0;
        }
        batch->add_run(batch->add_input(*run_input), run.block_size, in_place);
        values += n;
      }
      if (batch) {
        EXPECT_TRUE(harness::all_passed(batch->run()));
      }
    }
  }

  std::vector<Run> every_block(const std::vector<const TestInput<T>*>& inputs) const {
    std::vector<Run> runs;
    for (const TestInput<T>* values : inputs) {
      for (int block_size : block_sizes()) runs.push_back({values, block_size});
    }
    return runs;
  }

  std::uint64_t tile(int block_size) const {
    return variant().tile_size(variant().resolve_block_size(block_size), kType);
  }

  harness::Case context(ScanKind kind, const TestInput<T>& values) const {
    harness::Case c{.family = kernels::Family::scan, .variant = std::string(variant().name), .type = kType};
    c.kind = kind;
    c.n = values.values.size();
    c.distribution = values.distribution;
    c.seed = values.seed;
    c.offset = values.offset;
    return c;
  }

  // The longest accepted length up to n with the preferred block size (the default config).
  std::uint64_t preferred_length(std::uint64_t n) const { return variant().accepted_length_at_most(n, 0, kType); }
};

// Every n from 0 to 2 * block + 1 for every block size, inputs at every alignment.
TEST_P(Scan, EveryLengthUpToTwoBlocksPlusOne) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    for (std::uint64_t n = 0; n <= 2 * nominal_block(block_size) + 1; ++n) {
      runs.push_back({&input(Distribution::random, n, unsigned(n % 4)), block_size});
    }
  }
  check(runs);
}

// The straddle list with every block size; beyond 2^22 values with the preferred one (the
// recursion boundaries cover every block size's levels, and the 2^24-value levels of the
// smallest blocks).
TEST_P(Scan, LengthsStraddlingPowersOfTwo) {
  for (std::uint64_t n : kStraddleLengths) {
    const TestInput<T>& values = input(Distribution::random, n, 1);
    if (n <= (1u << 22)) {
      check(every_block({&values}));
    } else {
      check({{&values, 0}});
    }
  }
}

// Around every level of a recursive scan: B, B +- 1, 2B + 1, B^2 +- 1, B^3 +- 1 for the tile
// size B of every block size, so that small blocks reach three and four levels.
TEST_P(Scan, RecursionBoundaries) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    const std::uint64_t b = tile(block_size);
    for (std::uint64_t n : {b - 1, b, b + 1, 2 * b + 1, b * b - 1, b * b, b * b + 1, b * b * b - 1, b * b * b + 1}) {
      if (n <= kLongest) runs.push_back({&input(Distribution::random, n, unsigned(n % 4)), block_size});
    }
  }
  check(runs);
}

TEST_P(Scan, RaggedRandomLengths) {
  std::vector<const TestInput<T>*> inputs;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const std::uint64_t n = 1 + harness::random_bits(harness::run_seed(), k) % (1u << 18);
    inputs.push_back(&input(Distribution::random, n, unsigned(k % 4)));
  }
  check(every_block(inputs));
}

TEST_P(Scan, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 65537, 262147};
  std::vector<Run> runs;
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    for (std::uint64_t n : kLengths) {
      for (int block_size : representative_block_sizes()) {
        runs.push_back({&input(distribution, n, unsigned(n % 4)), block_size});
      }
    }
  }
  check(runs);
}

// Graph capture in global mode fails on any allocation or synchronisation; the replay must
// match the oracle.
TEST_P(Scan, CapturesIntoAGraphWithoutAllocatingOrSynchronising) {
  const TestInput<T>& values = input(Distribution::random, preferred_length(1000003), 0);
  const std::uint64_t n = values.values.size();
  const harness::DeviceBuffer<T> device_input{std::span<const T>(values.values)};
  for (ScanKind kind : variant().kinds) {
    const std::size_t bytes = kernels::scan_workspace_bytes<T>(variant().name, kind, n);
    harness::DeviceBuffer<unsigned char> workspace(bytes);
    harness::DeviceBuffer<T> result(n);
    const auto not_captured = harness::replay_as_graph([&](cudaStream_t stream) {
      kernels::scan<T>(variant().name, kind, device_input.data(), n, result.data(), {workspace.data(), bytes}, {},
                       stream);
    });
    ASSERT_FALSE(not_captured) << describe(context(kind, values)) << "\n     cannot be captured in a graph: "
                               << *not_captured;
    const auto mismatches = harness::judge_scan<T>(kind, values.values, result.download(),
                                                    variant().depth_with(n, 0));
    EXPECT_EQ(mismatches.count, 0u) << describe(context(kind, values)) << "\n     replayed graph: "
                                    << mismatches.describe() << "\n     rerun: " << kcheck_line(context(kind, values)) << "\n";
  }
}

// Every rejected call throws ValidationError naming the right parameter, enqueues nothing (a
// capture of it records no node) and leaves the output as it was.
TEST_P(Scan, RejectedCallsEnqueueNothingAndWriteNothing) {
  const std::uint64_t n = preferred_length(1024);
  harness::DeviceBuffer<T> buffer{std::span<const T>(std::vector<T>(2 * n, harness::output_poison<T>()))};
  T* const in = buffer.data();
  T* const out = buffer.data() + n;
  const ScanKind kind = variant().kinds.front();
  const std::size_t bytes = kernels::scan_workspace_bytes<T>(variant().name, kind, n);
  harness::DeviceBuffer<unsigned char> workspace(bytes + 1);
  const kernels::Workspace enough{workspace.data(), bytes};
  const int unsupported_block = harness::unaccepted_block_size(variant());
  const auto scan = [&](const T* from, std::uint64_t count, T* to, kernels::Workspace w, int block, cudaStream_t s,
                        std::string_view name = {}, std::optional<ScanKind> other_kind = {}) {
    kernels::scan<T>(name.empty() ? variant().name : name, other_kind.value_or(kind), from, count, to, w, {block}, s);
  };
  std::vector<harness::RejectedCall> calls{
      {"block_size", [&](cudaStream_t s) { scan(in, n, out, enough, unsupported_block, s); }},
      {"in", [&](cudaStream_t s) { scan(nullptr, n, out, enough, 0, s); }},
      {"out", [&](cudaStream_t s) { scan(in, n, nullptr, enough, 0, s); }},
      {"out", [&](cudaStream_t s) { scan(in, n, in + 1, enough, 0, s); }},  // overlapping
      {"variant", [&](cudaStream_t s) { scan(in, n, out, enough, 0, s, "no_such_variant"); }},
  };
  if (!variant().in_place) calls.push_back({"out", [&](cudaStream_t s) { scan(in, n, in, enough, 0, s); }});
  if (bytes > 0) calls.push_back({"workspace.bytes", [&](cudaStream_t s) { scan(in, n, out, {workspace.data(), bytes - 1}, 0, s); }});
  for (const auto& [too_long, block_size] : harness::unaccepted_lengths(variant(), kType)) {
    calls.push_back({"n", [&, too_long, block_size](cudaStream_t s) { scan(in, too_long, out, enough, block_size, s); }});
  }
  for (ScanKind undeclared : kernels::kAllScanKinds) {
    if (variant().supports(undeclared)) continue;
    calls.push_back({"kind", [&, undeclared](cudaStream_t s) { scan(in, n, out, enough, 0, s, {}, undeclared); }});
  }
  harness::expect_rejected_without_work("scan/" + std::string(variant().name), calls);
  const std::vector<T> after = buffer.download();
  const T poison = harness::output_poison<T>();
  for (const T& value : after) ASSERT_EQ(std::memcmp(&value, &poison, sizeof(T)), 0) << "a rejected call wrote memory";
}

// In-place scans (out == in), for the variants that declare them.
class InPlaceScan : public Scan {};

TEST_P(InPlaceScan, EveryLengthUpToTwoBlocksPlusOneAndStraddlingUpTo2To22) {
  std::vector<Run> runs;
  for (std::uint64_t n = 0; n <= 2 * nominal_block(0) + 1; ++n) {
    runs.push_back({&input(Distribution::random, n, unsigned(n % 4)), 0});
  }
  for (std::uint64_t n : kStraddleLengths) {
    if (n <= (1u << 22)) runs.push_back({&input(Distribution::random, n, 1), 0});
  }
  check(runs, true);
}

// Variants that declare themselves bitwise deterministic.
class DeterministicScan : public Scan {};

TEST_P(DeterministicScan, SameBitsOnEveryRun) {
  const TestInput<T>& values = input(Distribution::random, preferred_length((1u << 22) + 7), 0);
  const std::uint64_t n = values.values.size();
  const harness::DeviceBuffer<T> device_input{std::span<const T>(values.values)};
  for (ScanKind kind : variant().kinds) {
    const std::size_t bytes = kernels::scan_workspace_bytes<T>(variant().name, kind, n);
    harness::DeviceBuffer<unsigned char> workspace(bytes);
    harness::DeviceBuffer<T> first(n), again(n);
    kernels::scan<T>(variant().name, kind, device_input.data(), n, first.data(), {workspace.data(), bytes}, {},
                     harness::test_stream());
    kernels::scan<T>(variant().name, kind, device_input.data(), n, again.data(), {workspace.data(), bytes}, {},
                     harness::test_stream());
    const std::vector<T> a = first.download(), b = again.download();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), n * sizeof(T)), 0)
        << describe(context(kind, values)) << ": two runs differ\n     rerun: " << kcheck_line(context(kind, values)) << "\n";
  }
}

// Variants whose blocks communicate (the look-back scans), repeated under uneven scheduling (a
// noise kernel keeps random multiprocessors busy for random times) at sizes with many tiles,
// small and large blocks: a missing fence or a wrong flag order shows up as a wrong value,
// sometimes. KCHECK_STRESS_REPEATS sets the repetitions (default 4; the look-back's acceptance
// run used 100).
class CrossBlockScan : public Scan {};

TEST_P(CrossBlockScan, StressUnderUnevenScheduling) {
  const char* repeats_text = std::getenv("KCHECK_STRESS_REPEATS");
  const int repeats = repeats_text ? std::atoi(repeats_text) : 4;
  const std::vector<int> blocks = representative_block_sizes();
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (int block_size : blocks) {
      for (std::uint64_t n : {std::uint64_t(1u << 22) + 3, std::uint64_t(300007)}) {
        for (ScanKind kind : variant().kinds) {
          ScanBatch<T> batch(variant(), kind);
          const TestInput<T>* stress_input = input_for(input(Distribution::random, n, 0), block_size);
          if (stress_input == nullptr) continue;
          batch.add_run(batch.add_input(*stress_input), block_size);
          harness::launch_scheduling_noise(harness::derive_seed(harness::run_seed(), repeat, block_size, n), 50);
          EXPECT_TRUE(harness::all_passed(batch.run())) << "stress repeat " << repeat;
          harness::wait_for_scheduling_noise();
        }
      }
    }
  }
}

std::vector<const VariantInfo*> scan_variants_where(const std::function<bool(const VariantInfo&)>& keep) {
  std::vector<const VariantInfo*> chosen;
  for (const VariantInfo* variant : kernels::variants_of(kernels::Family::scan)) {
    if (variant->supports(kType) && keep(*variant)) chosen.push_back(variant);
  }
  return chosen;
}

INSTANTIATE_TEST_SUITE_P(SCAN_TEST_TYPE, Scan, testing::ValuesIn(scan_variants_where([](const VariantInfo&) { return true; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(SCAN_TEST_TYPE, InPlaceScan,
                         testing::ValuesIn(scan_variants_where([](const VariantInfo& v) { return v.in_place; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(SCAN_TEST_TYPE, DeterministicScan,
                         testing::ValuesIn(scan_variants_where([](const VariantInfo& v) { return v.deterministic; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(SCAN_TEST_TYPE, CrossBlockScan,
                         testing::ValuesIn(scan_variants_where([](const VariantInfo& v) { return v.cross_block; })),
                         harness::variant_param_name);

}  // namespace
