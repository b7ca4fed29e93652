// The device makes every input it makes bit for bit as the host does: a long input made on the
// device is then the input whose seed a failure prints, and the one the CPU oracle reads when it
// makes the values itself (harness/input/test_input.hpp).
#include "harness/input/device_inputs.hpp"
#include "harness/input/distributions.hpp"
#include "harness/input/test_input.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/numeric/element_traits.hpp"

#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using harness::Distribution;

// Lengths of one value, odd ones (a cancellation pair left over) and more than a grid-stride
// loop's first pass.
constexpr std::uint64_t kLengths[] = {1, 2, 3, 65537, 1048576 + 7};

template <class T>
void expect_device_inputs_are_the_hosts(kernels::TypeKey type) {
  std::uint64_t compared = 0;
  for (Distribution distribution : harness::kAllDistributions) {
    if (!harness::applies_to(distribution, type) || !harness::made_on_device(distribution)) continue;
    for (std::uint64_t n : kLengths) {
      const std::uint64_t seed = 0x5eed + n;
      const std::vector<T> host = harness::generate<T>(distribution, n, seed);
      harness::DeviceBuffer<T> device(n);
      harness::generate_on_device<T>(distribution, n, seed, device.data());
      const std::vector<T> made = device.download();
      std::uint64_t first_difference = n;
      for (std::uint64_t i = 0; i < n && first_difference == n; ++i) {
        if (std::memcmp(&host[i], &made[i], sizeof(T)) != 0) first_difference = i;
      }
      EXPECT_EQ(first_difference, n) << kernels::name(type) << " " << harness::name(distribution) << " n " << n
                                     << ": the device's value differs there";
      ++compared;
    }
  }
  EXPECT_GT(compared, 0u) << kernels::name(type);
}

TEST(DeviceInputs, AreTheHostsBitForBitForEveryTypeAndDistribution) {
#define HARNESS_EXPECT_DEVICE_INPUTS(key, T, out, label) expect_device_inputs_are_the_hosts<T>(kernels::TypeKey::key);
  KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_EXPECT_DEVICE_INPUTS)
#undef HARNESS_EXPECT_DEVICE_INPUTS
}

// An input of more than kMadeOnTheHostAtMost values is made on the device where it is uploaded,
// a shorter one on the host.
TEST(DeviceInputs, OnlyInputsPastTheHostsLengthAreMadeOnTheDevice) {
  const auto host_at_most = harness::kMadeOnTheHostAtMost;
  EXPECT_FALSE(harness::make_test_input<int>(Distribution::random, host_at_most, 1).made_on_device());
  EXPECT_TRUE(harness::make_test_input<int>(Distribution::random, host_at_most + 1, 1).made_on_device());
  EXPECT_FALSE(harness::make_test_input<int>(Distribution::sorted, host_at_most + 1, 1).made_on_device())
      << "a sorted input is a host sort";
}

}  // namespace
