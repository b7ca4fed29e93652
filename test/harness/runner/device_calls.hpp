// Plain calls of a family on the device, returning their results: the primitives the property
// checks compose (guard bands and oracles are the batch runners' business). The calls of one
// list are queued on the tests' stream together and waited for once: on a GPU that many test
// processes share, each wait is a turn of the GPU, and a property's case needs only one.
#pragma once

#include <kernels/registry.hpp>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace harness {

// The reduction of each input.
template <class In, class Out>
std::vector<Out> reduce_each_on_device(const kernels::VariantInfo& variant, kernels::Op op,
                                       std::span<const std::span<const In>> inputs, int block_size);

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size) {
  const std::span<const In> inputs[] = {values};
  return reduce_each_on_device<In, Out>(variant, op, inputs, block_size)[0];
}

template <class T>
struct ScanCall {
  kernels::ScanKind kind;
  std::span<const T> values;
};

// The scan of each call's values.
template <class T>
std::vector<std::vector<T>> scan_each_on_device(const kernels::VariantInfo& variant, kernels::Op op,
                                                std::span<const ScanCall<T>> calls, int block_size);

template <class T>
std::vector<T> scan_on_device(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op,
                              std::span<const T> values, int block_size) {
  const ScanCall<T> calls[] = {{kind, values}};
  return std::move(scan_each_on_device<T>(variant, op, calls, block_size)[0]);
}

// Sorted keys, and (for SortForm::pairs, with values 0..n-1 going in) the values that came with
// them.
template <class K>
std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_on_device(const kernels::VariantInfo& variant,
                                                                     kernels::SortForm form, std::span<const K> keys,
                                                                     int block_size);

}  // namespace harness
