// One plain call of a family on the device, returning its result: the primitives the property
// checks compose (guard bands and oracles are the batch runners' business).
#pragma once

#include <kernels/registry.hpp>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace harness {

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size);

template <class T>
std::vector<T> scan_on_device(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op,
                              std::span<const T> values, int block_size);

// Sorted keys, and (for SortForm::pairs, with values 0..n-1 going in) the values that came with
// them.
template <class K>
std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_on_device(const kernels::VariantInfo& variant,
                                                                     kernels::SortForm form, std::span<const K> keys,
                                                                     int block_size);

}  // namespace harness
