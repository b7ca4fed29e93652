// GPU tests of every registered sort variant for one key type: CMake builds this file once per
// type (SORT_TEST_TYPE); ctest runs each variant of each type as its own entry. Every case is
// checked against the oracle's stable sort under IEEE totalOrder, the key-value form (where a
// variant offers it) with each key's original index, which makes stability visible.
#include "harness/gtest/batch_assertions.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/graph_capture.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/sort/sort_oracle.hpp"
#include "harness/sort/sort_family.hpp"
#include "harness/gtest/rejected_calls.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/variant_test.hpp"

#include <kernels/errors.hpp>
#include <kernels/registry.hpp>
#include <kernels/sort.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string>

namespace {

using harness::Distribution;
using harness::SortBatch;
using harness::TestInput;
using kernels::SortForm;
using kernels::TypeKey;
using kernels::VariantInfo;

constexpr TypeKey kType = TypeKey::SORT_TEST_TYPE;
using K = kernels::types_of<kType>::in;

// Up to 2^24 + 1: longer inputs are the large tests' (2^28 and 2^31 + 2^20 + 3 values), whose
// checks run on the device; here each costs seconds of host oracle under a parallel ctest.
constexpr std::uint64_t kStraddleLengths[] = {1023,  1024,  1025,          4095,          4097,          65535,
                                              65537, (1u << 20) - 1, (1u << 20) + 1, (1u << 24) + 1};
constexpr std::uint64_t kBatchValues = std::uint64_t(1) << 25;

class Sort : public harness::VariantTest<kType> {
 protected:
  struct Run {
    const TestInput<K>* input;
    int block_size;
  };

  const std::vector<SortForm>& forms() const { return variant().forms; }

  // The longest accepted length up to n with the preferred block size (the default config).
  std::uint64_t preferred_length(std::uint64_t n) const { return variant().accepted_length_at_most(n, 0, kType); }

  // Every run in every form the variant offers, in batches of at most kBatchValues keys; runs
  // beyond the variant's length limit are left out.
  void check(const std::vector<Run>& runs) {
    for (SortForm form : forms()) {
      std::optional<SortBatch<K>> batch;
      std::uint64_t values = 0;
      for (const Run& run : runs) {
        const TestInput<K>* run_input = input_for(*run.input, run.block_size);
        if (run_input == nullptr) continue;
        const std::uint64_t n = run_input->values.size();
        if (batch && values + n > kBatchValues) {
          EXPECT_TRUE(harness::all_passed(batch->run()));
          batch.reset();
        }
        if (!batch) {
          batch.emplace(variant(), form);
          values = 0;
        }
        batch->add_run(batch->add_input(*run_input), run.block_size);
        values += n;
      }
      if (batch) {
        EXPECT_TRUE(harness::all_passed(batch->run()));
      }
    }
  }

  harness::Case context(SortForm form, const TestInput<K>& values) const {
    harness::Case c{.family = kernels::Family::sort, .variant = std::string(variant().name), .type = kType};
    c.form = form;
    c.n = values.values.size();
    c.distribution = values.distribution;
    c.seed = values.seed;
    c.offset = values.offset;
    return c;
  }
};

// Every n from 0 to 2 * block + 1 for every block size (odd lengths included), inputs at every
// alignment.
TEST_P(Sort, EveryLengthUpToTwoBlocksPlusOne) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    for (std::uint64_t n = 0; n <= 2 * nominal_block(block_size) + 1; ++n) {
      runs.push_back({&input(Distribution::random, n, unsigned(n % 4)), block_size});
    }
  }
  check(runs);
}

// The straddle list up to each variant's limit, with every block size up to 2^20 values and,
// beyond, the smallest (whose blocks then take several tiles each) and the preferred.
TEST_P(Sort, LengthsStraddlingPowersOfTwo) {
  std::vector<Run> runs;
  const std::vector<int> beyond_2_20 = smallest_and_preferred_block_sizes();
  for (std::uint64_t n : kStraddleLengths) {
    const TestInput<K>& values = input(Distribution::random, n, 1);
    for (int block_size : n <= (1u << 20) ? block_sizes() : beyond_2_20) runs.push_back({&values, block_size});
  }
  check(runs);
}

TEST_P(Sort, RaggedRandomLengths) {
  std::vector<Run> runs;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const std::uint64_t n = 1 + harness::random_bits(harness::run_seed(), k) % (1u << 19);
    for (int block_size : representative_block_sizes()) runs.push_back({&input(Distribution::random, n, unsigned(k % 4)), block_size});
  }
  check(runs);
}

// Sorted, reverse, all equal, two values, many duplicates, the type's extremes, and for floats
// NaN / +-inf / +-0.0 / subnormal mixes: every distribution the type admits. In the key-value
// form the duplicates are where stability shows.
TEST_P(Sort, EveryDistribution) {
  constexpr std::uint64_t kLengths[] = {1, 2, 3, 31, 33, 1000, 4097, 65537};
  std::vector<Run> runs;
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, kType)) continue;
    for (std::uint64_t n : kLengths) {
      for (int block_size : representative_block_sizes()) runs.push_back({&input(distribution, n, unsigned(n % 4)), block_size});
    }
  }
  check(runs);
}

TEST_P(Sort, CapturesIntoAGraphWithoutAllocatingOrSynchronising) {
  const TestInput<K>& values = input(Distribution::duplicates, preferred_length(100003), 0);
  const std::uint64_t n = values.values.size();
  const harness::DeviceBuffer<K> keys_in{std::span<const K>(values.values)};
  std::vector<std::uint32_t> indices(n);
  for (std::uint32_t i = 0; i < n; ++i) indices[i] = i;
  const harness::DeviceBuffer<std::uint32_t> values_in{std::span<const std::uint32_t>(indices)};
  for (SortForm form : forms()) {
    const std::size_t bytes = kernels::sort_workspace_bytes<K>(variant().name, form, n);
    harness::DeviceBuffer<unsigned char> workspace(bytes);
    harness::DeviceBuffer<K> keys_out(n);
    harness::DeviceBuffer<std::uint32_t> values_out(n);
    const auto not_captured = harness::replay_as_graph([&](cudaStream_t stream) {
      if (form == SortForm::pairs) {
        kernels::sort_pairs<K>(variant().name, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), n,
                               {workspace.data(), bytes}, {}, stream);
      } else {
        kernels::sort_keys<K>(variant().name, keys_in.data(), keys_out.data(), n, {workspace.data(), bytes}, {}, stream);
      }
    });
    ASSERT_FALSE(not_captured) << describe(context(form, values)) << "\n     cannot be captured in a graph: "
                               << *not_captured;
    const std::vector<std::uint32_t> got_values = form == SortForm::pairs ? values_out.download() : std::vector<std::uint32_t>{};
    const auto mismatches = harness::judge_sort<K>(values.values, keys_out.download(), got_values);
    EXPECT_EQ(mismatches.count, 0u) << describe(context(form, values)) << "\n     replayed graph: "
                                    << mismatches.describe() << "\n     rerun: " << kcheck_line(context(form, values)) << "\n";
  }
}

TEST_P(Sort, RejectedCallsEnqueueNothingAndWriteNothing) {
  const std::uint64_t n = preferred_length(1024);
  harness::DeviceBuffer<K> keys{std::span<const K>(std::vector<K>(2 * n, harness::output_poison<K>()))};
  harness::DeviceBuffer<std::uint32_t> values{std::span<const std::uint32_t>(std::vector<std::uint32_t>(2 * n, 7u))};
  K* const in = keys.data();
  K* const out = keys.data() + n;
  const std::size_t bytes = kernels::sort_workspace_bytes<K>(variant().name, SortForm::keys, n);
  harness::DeviceBuffer<unsigned char> workspace(bytes + 1);
  const kernels::Workspace enough{workspace.data(), bytes};
  const int unsupported_block = harness::unaccepted_block_size(variant());
  const auto sort = [&](const K* from, std::uint64_t count, K* to, kernels::Workspace w, int block, cudaStream_t s,
                        std::string_view name = {}) {
    kernels::sort_keys<K>(name.empty() ? variant().name : name, from, to, count, w, {block}, s);
  };
  std::vector<harness::RejectedCall> calls{
      {"block_size", [&](cudaStream_t s) { sort(in, n, out, enough, unsupported_block, s); }},
      {"keys_in", [&](cudaStream_t s) { sort(nullptr, n, out, enough, 0, s); }},
      {"keys_out", [&](cudaStream_t s) { sort(in, n, nullptr, enough, 0, s); }},
      {"keys_out", [&](cudaStream_t s) { sort(in, n, in, enough, 0, s); }},
      {"keys_out", [&](cudaStream_t s) { sort(in, n, in + 1, enough, 0, s); }},
      {"variant", [&](cudaStream_t s) { sort(in, n, out, enough, 0, s, "no_such_variant"); }},
  };
  if (bytes > 0) calls.push_back({"workspace.bytes", [&](cudaStream_t s) { sort(in, n, out, {workspace.data(), bytes - 1}, 0, s); }});
  if (!variant().supports(SortForm::pairs)) {
    calls.push_back({"form", [&](cudaStream_t s) {
                       kernels::sort_pairs<K>(variant().name, in, out, values.data(), values.data() + n, n, enough, {}, s);
                     }});
  }
  for (const auto& [too_long, block_size] : harness::unaccepted_lengths(variant(), kType)) {
    calls.push_back({"n", [&, too_long, block_size](cudaStream_t s) { sort(in, too_long, out, enough, block_size, s); }});
  }
  harness::expect_rejected_without_work("sort/" + std::string(variant().name), calls);
  const std::vector<K> after = keys.download();
  const K poison = harness::output_poison<K>();
  for (const K& key : after) ASSERT_EQ(std::memcmp(&key, &poison, sizeof(K)), 0) << "a rejected call wrote memory";
}

// Variants that declare themselves bitwise deterministic.
class DeterministicSort : public Sort {};

TEST_P(DeterministicSort, SameBitsOnEveryRun) {
  const TestInput<K>& values = input(Distribution::duplicates, preferred_length((1u << 20) + 7), 0);
  const std::uint64_t n = values.values.size();
  const harness::DeviceBuffer<K> device_input{std::span<const K>(values.values)};
  const std::size_t bytes = kernels::sort_workspace_bytes<K>(variant().name, SortForm::keys, n);
  harness::DeviceBuffer<unsigned char> workspace(bytes);
  harness::DeviceBuffer<K> first(n), again(n);
  for (auto* target : {&first, &again}) {
    kernels::sort_keys<K>(variant().name, device_input.data(), target->data(), n, {workspace.data(), bytes}, {},
                          harness::test_stream());
  }
  const std::vector<K> a = first.download(), b = again.download();
  EXPECT_EQ(std::memcmp(a.data(), b.data(), n * sizeof(K)), 0) << describe(context(SortForm::keys, values))
                                                                << ": two runs differ";
}

std::vector<const VariantInfo*> sort_variants_where(const std::function<bool(const VariantInfo&)>& keep) {
  std::vector<const VariantInfo*> chosen;
  for (const VariantInfo* variant : kernels::variants_of(kernels::Family::sort)) {
    if (variant->supports(kType) && keep(*variant)) chosen.push_back(variant);
  }
  return chosen;
}

INSTANTIATE_TEST_SUITE_P(SORT_TEST_TYPE, Sort, testing::ValuesIn(sort_variants_where([](const VariantInfo&) { return true; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(SORT_TEST_TYPE, DeterministicSort,
                         testing::ValuesIn(sort_variants_where([](const VariantInfo& v) { return v.deterministic; })),
                         harness::variant_param_name);

}  // namespace
