// One generated test input: what regenerates it, and its values. An input of more than
// kMadeOnTheHostAtMost values is made on the device where a batch uploads it
// (input/device_inputs.hpp): its values cross no bus, and the host makes them only if it judges
// a run of them (the batch's sampled run, a failure it describes, a sum the device leaves to it).
// Under compute-sanitizer (exact-size buffers, memory/buffer_layout.hpp) every input is made on
// the host.
#pragma once

#include "harness/input/device_inputs.hpp"
#include "harness/input/distributions.hpp"
#include "harness/memory/buffer_layout.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/session/phase_clock.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace harness {

template <class T>
class TestInput {
 public:
  TestInput(Distribution made_of, std::uint64_t n, std::uint64_t made_with, unsigned shift)
      : distribution(made_of),
        seed(made_with),
        offset(shift),
        n_(n),
        made_on_device_(n > kMadeOnTheHostAtMost && harness::made_on_device(made_of) && !exact_size_buffers()) {
    if (!made_on_device_) values();
  }

  Distribution distribution;
  std::uint64_t seed;
  unsigned offset;  // elements past a 16-byte boundary where the device copy starts

  std::uint64_t size() const { return n_; }
  bool made_on_device() const { return made_on_device_; }
  // Writes the values to `out` (device memory), on the tests' stream.
  void fill_on_device(T* out) const { generate_on_device(distribution, n_, seed, out); }
  // The values on the host, made on first use (by the tests' thread only).
  const std::vector<T>& values() const {
    if (!values_) values_ = timed(Phase::generate, [&] { return generate<T>(distribution, n_, seed); });
    return *values_;
  }

 private:
  std::uint64_t n_;
  bool made_on_device_;
  mutable std::optional<std::vector<T>> values_;
};

template <class T>
TestInput<T> make_test_input(Distribution distribution, std::uint64_t n, std::uint64_t seed, unsigned offset = 0) {
  return TestInput<T>(distribution, n, seed, offset);
}

// Segment k of `image` holds the input: its values, or, made on the device, the device makes it
// there. The image refers to the input, which must outlive it.
template <class T>
void place_input(GuardedImage<T>& image, std::size_t k, const TestInput<T>& input) {
  if (!input.made_on_device()) return image.set_contents(k, input.values());
  image.set_made_on_device(k, {[&input](T* segment) { input.fill_on_device(segment); },
                               [&input] { return std::span<const T>(input.values()); }});
}

}  // namespace harness
