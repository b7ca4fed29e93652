// One plain call of a family on the device, returning its result: the primitives the property
// checks compose (guard bands and oracles are the batch runners' business).
#pragma once

#include <kernels/registry.hpp>

#include <span>
#include <vector>

namespace harness {

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size);

template <class T>
std::vector<T> scan_on_device(const kernels::VariantInfo& variant, kernels::ScanKind kind, std::span<const T> values,
                              int block_size);

}  // namespace harness
