// One plain reduction on the device, returning its result: the primitive the property checks
// compose (guard bands and oracles are the batch runner's business).
#pragma once

#include <kernels/registry.hpp>

#include <span>

namespace harness {

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size);

}  // namespace harness
