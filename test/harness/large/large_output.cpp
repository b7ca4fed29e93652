#include "harness/large/large_output.hpp"

#include "harness/large/large_input.hpp"  // fill_ints, count_not_equal

namespace harness {

LargeOutput::LargeOutput(std::uint64_t n, cudaStream_t stream) : n_(n), buffer_(n + 2 * kArrayGuard) {
  fill_ints(buffer_.data(), buffer_.size(), output_poison<int>(), stream);
}

std::uint64_t LargeOutput::guard_writes() const {
  const int poison = output_poison<int>();
  return count_not_equal(buffer_.data(), kArrayGuard, poison) + count_not_equal(data() + n_, kArrayGuard, poison);
}

}  // namespace harness
