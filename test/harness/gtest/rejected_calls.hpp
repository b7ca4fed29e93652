// The rejected-call checks (test/variants/contract/contract_test.cpp): the only calls outside the
// declared contract the suite makes, each expecting a ValidationError naming its parameter and
// no work enqueued.
#pragma once

#include "harness/runner/graph_capture.hpp"

#include <kernels/registry.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace harness {

struct RejectedCall {
  std::string parameter;  // what the ValidationError must name
  StreamCall call;
};

// Captures each call and expects (gtest EXPECT) that it throws ValidationError naming its
// parameter and records no node. `who` ("scan/naive") prefixes the failure messages.
void expect_rejected_without_work(std::string_view who, const std::vector<RejectedCall>& calls);

// A block size the variant does not accept.
inline int unaccepted_block_size(const kernels::VariantInfo& variant) {
  for (int size : {48, 3, 2048, 256, 1}) {
    if (!variant.block_sizes.accepts(size)) return size;
  }
  return -1;
}

// Lengths the contract excludes, each with the block size it is tried with: one past the limit
// of the smallest block (when the limit is finite in practice) and, for variants that take whole
// blocks or tiles only, one more than a multiple.
inline std::vector<std::pair<std::uint64_t, int>> unaccepted_lengths(const kernels::VariantInfo& variant,
                                                                     kernels::TypeKey type) {
  std::vector<std::pair<std::uint64_t, int>> lengths;
  const int smallest = variant.block_sizes.smallest();
  const std::uint64_t limit = variant.max_length_with(smallest);
  if (limit < std::uint64_t(std::numeric_limits<std::int64_t>::max())) lengths.emplace_back(limit + 1, smallest);
  const std::uint64_t step = variant.length_step(0, type);
  if (step > 1 && step + 1 <= variant.max_length_with(0)) lengths.emplace_back(step + 1, 0);
  return lengths;
}

}  // namespace harness
