#include "harness/sort/sort_large.hpp"

#include "harness/large/large_output.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/sort/sort_large_device.hpp"

#include <kernels/sort.hpp>

#include <optional>

namespace harness {
namespace {

// Calls f with a value of the case's key type, int or float (the large keys' two types).
template <class F>
decltype(auto) with_key_type(const Case& c, F&& f) {
  if (c.type == kernels::TypeKey::float32) return f(float{});
  return f(int{});
}

std::size_t workspace_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return with_key_type(c, [&](auto key) {
    return kernels::sort_workspace_bytes<decltype(key)>(variant.name, c.form, c.n, {c.block_size});
  });
}

std::size_t large_sort_device_bytes(const kernels::VariantInfo& variant, const Case& c) {
  const std::size_t arrays = c.form == kernels::SortForm::pairs ? 2 : 1;  // keys, and values
  return arrays * (2 * c.n + 2 * kArrayGuard) * sizeof(int) + workspace_bytes(variant, c);
}

BatchReport run_large_sort(const kernels::VariantInfo& variant, const Case& c) {
  return large_case_report(c, [&] {
    const bool pairs = c.form == kernels::SortForm::pairs;
    const LargeSortSpec spec{c.n, c.seed, c.type};
    const std::vector<std::uint64_t> class_starts = large_sort_class_starts(spec);
    const cudaStream_t stream = test_stream();
    DeviceBuffer<std::uint32_t> keys_in(c.n);
    DeviceBuffer<std::uint32_t> values_in(pairs ? c.n : 0);
    fill_large_sort_input(keys_in.data(), values_in.data(), spec, stream);
    // Keys and values out: 4-byte bits, checked as such.
    const LargeOutput keys_out(c.n, stream);
    std::optional<LargeOutput> values_out;
    if (pairs) values_out.emplace(c.n, stream);
    auto* const values = pairs ? reinterpret_cast<std::uint32_t*>(values_out->data()) : nullptr;
    const std::size_t bytes = workspace_bytes(variant, c);
    DeviceBuffer<unsigned char> workspace(bytes);

    with_key_type(c, [&](auto key) {
      using K = decltype(key);
      const auto* in = reinterpret_cast<const K*>(keys_in.data());
      auto* out = reinterpret_cast<K*>(keys_out.data());
      if (pairs) {
        kernels::sort_pairs<K>(variant.name, in, out, values_in.data(), values, c.n, {workspace.data(), bytes},
                               {c.block_size}, stream);
      } else {
        kernels::sort_keys<K>(variant.name, in, out, c.n, {workspace.data(), bytes}, {c.block_size}, stream);
      }
    });
    std::vector<LargeProblem> problems;
    const DeviceVerdict verdict =
        check_large_sort(reinterpret_cast<const std::uint32_t*>(keys_out.data()), values, spec, class_starts);
    if (verdict.mismatches != 0) {
      problems.push_back(
          {FailureKind::wrong_value,
           std::to_string(verdict.mismatches) + " wrong outputs, the first at " + std::to_string(verdict.first_bad)});
    }
    const std::uint64_t outside = keys_out.guard_writes() + (pairs ? values_out->guard_writes() : 0);
    if (outside != 0) {
      problems.push_back(
          {FailureKind::out_of_bounds, std::to_string(outside) + " writes outside the outputs it was given"});
    }
    return problems;
  });
}

}  // namespace

const LargeRunner kLargeSort{large_sort_device_bytes, run_large_sort};

}  // namespace harness
