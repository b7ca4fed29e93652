// 64-bit indexing of the sorts: every sort variant that accepts 2^28 keys sorts 2^28 and
// 2^31 + 2^20 + 3 int keys (or its limit, if lower), keys alone and, where the variant offers
// it, with each key's index as its value. The keys come from 2^16 classes with a known sorted
// layout (harness/large_sort_input.hpp), so the device checks the output exactly (order,
// multiset and, for stable variants, the input order of equal keys) without a host sort. Guard
// bands around the outputs must keep their poison. Label `large`; skipped (with the reason) if
// the device lacks the memory.
#include "harness/core/device_buffer.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/reduce/large_input.hpp"
#include "harness/sort/large_sort_input.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/core/run_seed.hpp"
#include "harness/gtest/test_main.hpp"

#include <kernels/registry.hpp>
#include <kernels/sort.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kernels::SortForm;
using kernels::VariantInfo;

constexpr std::size_t kGuard = harness::kArrayGuard;
constexpr std::uint64_t kTwoToThe28 = std::uint64_t(1) << 28;

class LargeSort : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }

  void check_length(std::uint64_t wanted) {
    const int block_size = variant().resolve_block_size(0);
    const std::uint64_t n = variant().accepted_length_at_most(wanted, block_size, kernels::TypeKey::int32);
    // The key-value check demands the input order of equal keys, so only stable variants take it.
    const bool with_values = variant().supports(SortForm::pairs) && variant().stable;
    const SortForm form = with_values ? SortForm::pairs : SortForm::keys;
    const std::size_t workspace_bytes = kernels::sort_workspace_bytes<int>(variant().name, form, n);
    const std::size_t arrays = with_values ? 4 : 2;  // keys in and out, values in and out
    const std::size_t needed = arrays * (n + 2 * kGuard) * sizeof(int) + workspace_bytes + (256u << 20);
    if (harness::free_device_memory() < needed) {
      GTEST_SKIP() << harness::kMemorySkip << "needs " << (needed >> 20) << " MiB of device memory, "
                   << (harness::free_device_memory() >> 20) << " MiB free";
    }
    const harness::LargeSortSpec spec{n, harness::derive_seed(harness::run_seed(), n)};
    const std::vector<std::uint64_t> class_starts = harness::large_sort_class_starts(spec);

    const cudaStream_t stream = harness::test_stream();
    harness::DeviceBuffer<int> keys_in(n);
    harness::DeviceBuffer<std::uint32_t> values_in(with_values ? n : 0);
    harness::fill_large_sort_input(keys_in.data(), values_in.data(), spec, stream);
    // Keys out and values out, each inside guard bands (values are checked as ints).
    harness::DeviceBuffer<int> keys_out(n + 2 * kGuard);
    harness::DeviceBuffer<int> values_out(with_values ? n + 2 * kGuard : 0);
    harness::DeviceBuffer<unsigned char> workspace(workspace_bytes);
    const int poison = harness::output_poison<int>();

    for (SortForm checked : with_values ? std::vector{SortForm::keys, SortForm::pairs}
                                        : std::vector{SortForm::keys}) {
      const std::string what = "sort/" + std::string(variant().name) + " form=" +
                               std::string(kernels::name(checked)) + " type=int n=" + std::to_string(n) +
                               " (large input, seed " + std::to_string(spec.seed) + ")";
      harness::fill_ints(keys_out.data(), keys_out.size(), poison, stream);
      harness::fill_ints(values_out.data(), values_out.size(), poison, stream);
      const kernels::Workspace ws{workspace.data(), workspace_bytes};
      std::uint32_t* values = nullptr;
      if (checked == SortForm::pairs) {
        values = reinterpret_cast<std::uint32_t*>(values_out.data() + kGuard);
        kernels::sort_pairs<int>(variant().name, keys_in.data(), keys_out.data() + kGuard, values_in.data(), values,
                                 n, ws, {block_size}, stream);
      } else {
        kernels::sort_keys<int>(variant().name, keys_in.data(), keys_out.data() + kGuard, n, ws, {block_size},
                                stream);
      }
      const harness::LargeVerdict verdict =
          harness::check_large_sort(keys_out.data() + kGuard, values, spec, class_starts);
      EXPECT_EQ(verdict.mismatches, 0u) << what << ": first wrong output at " << verdict.first_bad;
      std::uint64_t outside = harness::count_not_equal(keys_out.data(), kGuard, poison) +
                              harness::count_not_equal(keys_out.data() + kGuard + n, kGuard, poison);
      if (checked == SortForm::pairs) {
        outside += harness::count_not_equal(values_out.data(), kGuard, poison) +
                   harness::count_not_equal(values_out.data() + kGuard + n, kGuard, poison);
      } else {
        outside += harness::count_not_equal(values_out.data(), values_out.size(), poison);
      }
      EXPECT_EQ(outside, 0u) << what << ": writes outside the outputs it was given";
    }
  }
};

TEST_P(LargeSort, TwoToThe28Keys) { check_length(kTwoToThe28); }

TEST_P(LargeSort, MoreThanTwoToThe31Keys) { check_length((1ull << 31) + (1ull << 20) + 3); }

INSTANTIATE_TEST_SUITE_P(large, LargeSort, testing::ValuesIn(harness::variants_taking(kernels::Family::sort, kernels::TypeKey::int32, kTwoToThe28)), harness::variant_param_name);

}  // namespace
