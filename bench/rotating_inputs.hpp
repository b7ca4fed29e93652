// The inputs and outputs of a row's calls: several slots, each call taking the next, so that
// every timed call reads data that has left L2 since its last use. Between two uses of a slot
// the other slots' calls touch at least cold_rotation_bytes(); at large n one slot is already
// larger than that, and there is one.
#pragma once

#include "device_fill.hpp"
#include "device_session.hpp"

#include <harness/memory/device_buffer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace bench {

template <class T>
class RotatingBuffers {
 public:
  // Slots of n inputs (filled with `values`, the same for every row of this type and n: the
  // seed is fixed) and of `outputs` elements.
  RotatingBuffers(std::uint64_t n, std::uint64_t outputs, Values values, cudaStream_t stream)
      : input_stride_(padded(n)),
        output_stride_(padded(outputs)),
        slots_(slot_count((input_stride_ + output_stride_) * sizeof(T))),
        inputs_(slots_ * input_stride_),
        outputs_(slots_ * output_stride_) {
    fill_device(inputs_.data(), inputs_.size(), values, kSeed, stream);
  }

  std::size_t slots() const { return slots_; }
  // Call number `call` uses slot call % slots().
  const T* input(std::size_t call) const { return inputs_.data() + call % slots_ * input_stride_; }
  T* output(std::size_t call) const { return outputs_.data() + call % slots_ * output_stride_; }

 private:
  static constexpr std::uint64_t kSeed = 20261122;
  // Every slot starts on a 256-byte boundary, as a buffer of its own from cudaMalloc would: the
  // vectorised variants see the alignment they are written for.
  static constexpr std::size_t kSlotAlignment = 256 / sizeof(T);

  static std::size_t padded(std::uint64_t count) {
    return std::size_t((count + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment);
  }
  static std::size_t slot_count(std::size_t slot_bytes) {
    return std::max<std::size_t>(1, (cold_rotation_bytes() + slot_bytes - 1) / slot_bytes);
  }

  std::size_t input_stride_;
  std::size_t output_stride_;
  std::size_t slots_;
  harness::DeviceBuffer<T> inputs_;
  harness::DeviceBuffer<T> outputs_;
};

}  // namespace bench
