#include "harness/sort/large_sort.hpp"

#include "harness/core/device_buffer.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/sort/large_sort_input.hpp"

#include <kernels/sort.hpp>

namespace harness {
namespace {

std::size_t workspace_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return kernels::sort_workspace_bytes<int>(variant.name, c.form, c.n, {c.block_size});
}

std::size_t large_sort_device_bytes(const kernels::VariantInfo& variant, const Case& c) {
  const std::size_t arrays = c.form == kernels::SortForm::pairs ? 2 : 1;  // keys, and values
  return arrays * (2 * c.n + 2 * kArrayGuard) * sizeof(int) + workspace_bytes(variant, c);
}

BatchReport run_large_sort(const kernels::VariantInfo& variant, const Case& c) {
  return large_case_report(c, [&] {
    const bool pairs = c.form == kernels::SortForm::pairs;
    const LargeSortSpec spec{c.n, c.seed};
    const std::vector<std::uint64_t> class_starts = large_sort_class_starts(spec);
    const cudaStream_t stream = test_stream();
    DeviceBuffer<int> keys_in(c.n);
    DeviceBuffer<std::uint32_t> values_in(pairs ? c.n : 0);
    fill_large_sort_input(keys_in.data(), values_in.data(), spec, stream);
    // Keys out and values out, each inside guard bands (values are checked as ints).
    DeviceBuffer<int> keys_out(c.n + 2 * kArrayGuard);
    DeviceBuffer<int> values_out(pairs ? c.n + 2 * kArrayGuard : 0);
    const int poison = output_poison<int>();
    fill_ints(keys_out.data(), keys_out.size(), poison, stream);
    fill_ints(values_out.data(), values_out.size(), poison, stream);
    const std::size_t bytes = workspace_bytes(variant, c);
    DeviceBuffer<unsigned char> workspace(bytes);

    std::uint32_t* const values = pairs ? reinterpret_cast<std::uint32_t*>(values_out.data() + kArrayGuard) : nullptr;
    if (pairs) {
      kernels::sort_pairs<int>(variant.name, keys_in.data(), keys_out.data() + kArrayGuard, values_in.data(), values, c.n,
                               {workspace.data(), bytes}, {c.block_size}, stream);
    } else {
      kernels::sort_keys<int>(variant.name, keys_in.data(), keys_out.data() + kArrayGuard, c.n, {workspace.data(), bytes},
                              {c.block_size}, stream);
    }
    std::vector<LargeProblem> problems;
    const LargeVerdict verdict = check_large_sort(keys_out.data() + kArrayGuard, values, spec, class_starts);
    if (verdict.mismatches != 0) {
      problems.push_back({FailureKind::wrong_value, std::to_string(verdict.mismatches) +
                                                        " wrong outputs, the first at " + std::to_string(verdict.first_bad)});
    }
    std::uint64_t outside = 0;
    for (const DeviceBuffer<int>* array : {&keys_out, &values_out}) {
      if (array->size() == 0) continue;
      outside += count_not_equal(array->data(), kArrayGuard, poison) + count_not_equal(array->data() + kArrayGuard + c.n, kArrayGuard, poison);
    }
    if (outside != 0) {
      problems.push_back({FailureKind::out_of_bounds, std::to_string(outside) + " writes outside the outputs it was given"});
    }
    return problems;
  });
}

}  // namespace

const LargeRunner kLargeSort{large_sort_device_bytes, run_large_sort};

}  // namespace harness
