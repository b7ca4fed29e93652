// The checks every family makes of each variant, written once over the family's part of the
// batch runner (harness/<family>/<family>_family.hpp): the call captured into a CUDA graph, the
// rejected calls, bit-for-bit repeats of deterministic variants, and cross-block variants under
// uneven scheduling. CMake compiles this file beside each family's tests, once per type
// (kernels_add_family_gpu_tests), which names the family and type (gtest/tested_family.hpp).
#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/family_test.hpp"
#include "harness/gtest/rejected_calls.hpp"
#include "harness/gtest/test_main.hpp"
#include "harness/gtest/tested_family.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/runner/api_call.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/exact_number.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

using harness::Distribution;
using harness::TestedFamily;
using kernels::VariantInfo;

constexpr kernels::TypeKey kType = harness::kTestedType;
using Mode = TestedFamily::Mode;
using In = TestedFamily::In;
using Batch = harness::Batch<TestedFamily>;

// The distributions of the graph and repeat checks: random values and many equal ones (equal
// keys are where an unstable sort or an order-dependent float sum shows).
std::vector<Distribution> varied_and_repeated_values() {
  std::vector<Distribution> chosen;
  for (Distribution d : {Distribution::random, Distribution::duplicates}) {
    if (harness::applies_to(d, kType)) chosen.push_back(d);
  }
  return chosen;
}

// Every rejected call throws ValidationError naming the parameter, enqueues nothing (its capture
// records no node) and writes nothing. A template, so that the checks of arrays that only some
// families have (an output per element) compile only for those.
template <class Family>
void expect_rejected_calls(const VariantInfo& variant, std::uint64_t n) {
  using Args = harness::ApiArgs<Family>;
  const std::vector<Mode> declared = Family::modes(variant);
  const typename Family::ApiCall api(variant, declared.front(), n);
  const std::size_t bytes = api.workspace_bytes();
  harness::DeviceBuffer<unsigned char> workspace(bytes + 1);
  const Args valid = api.args({workspace.data(), bytes});

  std::vector<harness::RejectedCall> calls;
  const auto reject = [&](std::string parameter, auto change) {
    Args args = valid;
    change(args);
    calls.push_back({std::move(parameter), [&api, args](cudaStream_t stream) { api(args, stream); }});
  };
  reject("block_size", [&](Args& a) { a.block_size = harness::unaccepted_block_size(variant); });
  reject(Family::kNames.api_input, [](Args& a) { a.in = nullptr; });
  reject(Family::kNames.api_output, [](Args& a) { a.out = nullptr; });
  reject("variant", [](Args& a) { a.variant = "no_such_variant"; });
  if (bytes > 0) reject("workspace.bytes", [&](Args& a) { a.workspace.bytes = bytes - 1; });
  if constexpr (Family::kOutputPerElement) {
    using Out = typename Family::Out;
    reject(Family::kNames.api_output, [](Args& a) { a.out = const_cast<Out*>(a.in) + 1; });  // overlapping
    if (!variant.in_place) reject(Family::kNames.api_output, [](Args& a) { a.out = const_cast<Out*>(a.in); });
  }
  for (const auto& [too_long, block_size] : harness::unaccepted_lengths(variant, kType)) {
    reject("n", [&](Args& a) {
      a.n = too_long;
      a.block_size = block_size;
    });
  }
  for (Mode mode : Family::all_modes()) {
    if (std::find(declared.begin(), declared.end(), mode) == declared.end()) {
      reject(Family::mode_parameter(variant, mode), [&](Args& a) { a.mode = mode; });
    }
  }
  const std::string who = std::string(kernels::name(Family::kFamily)) + "/" + std::string(variant.name);
  harness::expect_rejected_without_work(who, calls);
  EXPECT_FALSE(api.wrote_anything()) << who << ": a rejected call wrote memory";
}

#define Contract HARNESS_TYPED(Contract)
class Contract : public harness::FamilyTest<TestedFamily> {};

// Graph capture in global mode fails on any allocation or synchronisation inside a call; the
// launched graph must match the oracle like any other run.
TEST_P(Contract, CapturesIntoAGraphWithoutAllocatingOrSynchronising) {
  for (Mode mode : modes()) {
    Batch batch(variant(), mode);
    for (Distribution distribution : varied_and_repeated_values()) {
      batch.add_run(batch.add_input(input(distribution, preferred_length(1000003), 0)), 0);
    }
    EXPECT_TRUE(harness::all_passed(batch.run({.as_graph = true})));
  }
}

// A caller reuses a workspace, as CUB's temporary storage is meant to be: calls one after another on
// one stream through one workspace, poisoned only before the first, each of other values and another
// length (shorter, longer), must each be right. State a call leaves for the next (a look-back's status
// words not reset) passes every single call and fails here.
TEST_P(Contract, CalledAgainThroughOneWorkspace) {
  const std::pair<Distribution, std::uint64_t> calls[] = {{Distribution::random, 1000003},
                                                          {Distribution::sorted, 4099},
                                                          {Distribution::reverse, std::uint64_t(1) << 21},
                                                          {Distribution::random, 33},
                                                          {Distribution::duplicates, 1000003}};
  for (Mode mode : modes()) {
    Batch batch(variant(), mode);
    for (const auto& [values, n] : calls) batch.add_run(batch.add_input(input(values, preferred_length(n), 0)), 0);
    EXPECT_TRUE(harness::all_passed(batch.run({.chained = true})));
  }
}

TEST_P(Contract, RejectedCallsEnqueueNothingAndWriteNothing) {
  expect_rejected_calls<TestedFamily>(variant(), preferred_length(1024));
}

// Variants that declare themselves bitwise deterministic: the same case four times in one batch
// (each with its own poisoned workspace) gives the same bits, floats included.
// A length off by one around a block shows at its edges: every n from 0 to 2 * block + 1 for
// every block size (empty input, a partial first block, a full block, one more, the
// two-values-per-thread boundary, odd lengths), inputs at every alignment to 16 bytes.
TEST_P(Contract, EveryLengthUpToTwoBlocksPlusOne) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    for (std::uint64_t n = 0; n <= 2 * nominal_block(block_size) + 1; ++n) {
      runs.push_back({{Distribution::random, n, unsigned(n % 4)}, block_size});
    }
  }
  check(runs);
}

#define DeterministicContract HARNESS_TYPED(DeterministicContract)
class DeterministicContract : public Contract {};

TEST_P(DeterministicContract, SameBitsOnEveryRun) {
  constexpr int kRepeats = 4;
  for (Mode mode : modes()) {
    Batch batch(variant(), mode);
    for (Distribution distribution : varied_and_repeated_values()) {
      const std::size_t values = batch.add_input(input(distribution, preferred_length((1u << 22) + 7), 0));
      for (int repeat = 0; repeat < kRepeats; ++repeat) batch.add_run(values, 0);
    }
    EXPECT_TRUE(harness::all_passed(batch.run({.same_bits_when_repeated = true})));
  }
}

// Variants whose blocks communicate (completion tickets, decoupled look-back), repeated under
// uneven scheduling: a noise kernel keeps random multiprocessors busy for random times, so blocks
// finish out of order, at sizes with many tiles, with small and large blocks; a missing fence or
// a wrong flag order shows up as a wrong value, sometimes. KERNELS_STRESS_REPEATS sets the
// repetitions (default 4; the look-back's acceptance run used 100).
#define CrossBlockContract HARNESS_TYPED(CrossBlockContract)
class CrossBlockContract : public Contract {};

// Microseconds a noise block may spin before each stress run.
constexpr unsigned kStressNoise = 50;

// KERNELS_STRESS_REPEATS, exactly: a whole number in [1, 100000], default 4.
int stress_repeats() {
  const char* text = harness::suite_variable("KERNELS_STRESS_REPEATS");
  if (text == nullptr) return 4;
  const std::optional<int> repeats = harness::exact_number(std::string_view(text), 1, 100000);
  if (!repeats) {
    throw std::invalid_argument("KERNELS_STRESS_REPEATS: '" + std::string(text) +
                                "' is not a whole number in [1, 100000]");
  }
  return *repeats;
}

TEST_P(CrossBlockContract, StressUnderUnevenScheduling) {
  const int repeats = stress_repeats();
  for (int repeat = 0; repeat < repeats; ++repeat) {
    for (Mode mode : modes()) {
      Batch batch(variant(), mode);
      for (int block_size : representative_block_sizes()) {
        for (std::uint64_t n : {std::uint64_t(1u << 22) + 3, std::uint64_t(300007)}) {
          const harness::TestInput<In>* stress_input = input_for({Distribution::random, n, 0}, block_size);
          if (stress_input != nullptr) batch.add_run(batch.add_input(*stress_input), block_size);
        }
      }
      EXPECT_TRUE(harness::all_passed(batch.run({.noise_us = kStressNoise}))) << "stress repeat " << repeat;
    }
  }
}

// Variants with a vector path (the record's vector_values and tile_size): the places where a
// tile chooses between vector and scalar loads and stores.
#define VectorPathContract HARNESS_TYPED(VectorPathContract)
class VectorPathContract : public Contract {
 protected:
  std::uint64_t lanes() const { return variant().vector_values(kType); }
  std::uint64_t tile(int block_size) const {
    return variant().tile_size(variant().resolve_block_size(block_size), kType);
  }
};

// More tiles than a look-back window holds (32).
constexpr std::uint64_t kManyTiles = 33;

// A tile that takes its vector path past n writes or reads past the end (the guard bands and
// poison see it): ragged ends inside the last vector of one, two and many tiles, short by 1 to
// lanes - 1, at every block size; aligned, and misaligned where the end is one value short.
TEST_P(VectorPathContract, RaggedEndsInsideTheLastVector) {
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    for (std::uint64_t tiles : {std::uint64_t(1), std::uint64_t(2), kManyTiles}) {
      for (std::uint64_t short_by = 1; short_by < lanes(); ++short_by) {
        const std::uint64_t n = tiles * tile(block_size) - short_by;
        runs.push_back({{Distribution::random, n, 0}, block_size});
        if (short_by == 1 || short_by == lanes() - 1) runs.push_back({{Distribution::random, n, 1}, block_size});
      }
    }
  }
  check(runs);
}

// Half and bfloat16 sums of the largest finite value (and their widening sums into float) on the
// vector path: one vector, one tile, a tile and a vector. Round-to-nearest overflows to inf where
// a vector's partial passes the largest finite value (and stays finite in float); a partial that
// saturates, or one accumulated in the narrow type, gives a wrong finite value or a wrong inf.
TEST_P(VectorPathContract, NarrowFloatSumsPastTheLargestFiniteValue) {
  if (!std::is_same_v<In, __half> && !std::is_same_v<In, __nv_bfloat16>) {
    GTEST_SKIP() << harness::kContractSkip << "the largest-value sums are those of half and bfloat16";
  }
  std::vector<Run> runs;
  for (int block_size : block_sizes()) {
    for (std::uint64_t n : {lanes(), 2 * lanes() - 1, tile(block_size), tile(block_size) + lanes()})
      runs.push_back({{Distribution::max, n, 0}, block_size});
  }
  check(runs);
}

std::vector<const VariantInfo*> tested(bool (*keep)(const VariantInfo&)) {
  return harness::variants_where(TestedFamily::kFamily, kType, keep);
}

// A family and type may have no deterministic, cross-block or vector-path variant (no sort
// communicates across blocks or loads vectors): then those suites have no instance, which is not
// a mistake.
HARNESS_ALLOW_UNINSTANTIATED(DeterministicContract);
HARNESS_ALLOW_UNINSTANTIATED(CrossBlockContract);
HARNESS_ALLOW_UNINSTANTIATED(VectorPathContract);

INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, Contract,
                         testing::ValuesIn(tested([](const VariantInfo&) { return true; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, DeterministicContract,
                         testing::ValuesIn(tested([](const VariantInfo& v) { return v.deterministic; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, VectorPathContract,
                         testing::ValuesIn(tested([](const VariantInfo& v) { return v.vector_values != nullptr; })),
                         harness::variant_param_name);
INSTANTIATE_TEST_SUITE_P(KERNELS_TEST_TYPE_NAME, CrossBlockContract,
                         testing::ValuesIn(tested([](const VariantInfo& v) { return v.cross_block; })),
                         harness::variant_param_name);

}  // namespace
