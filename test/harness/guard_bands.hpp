// Guard bands around everything a kernel reads or writes (GUIDE §3: no access outside [0, n)).
//
// Inputs are packed into one buffer, each preceded and followed by a band of poison chosen so
// that reading it changes the result (NaN for floats; for integers the op's absorbing extreme,
// or an odd constant for sums). Each input may start a few elements past a 16-byte boundary, so
// that vectorised loads meet every alignment. Outputs get slots separated by canaries: poison
// that must survive the run. Plain host logic, tested on the CPU.
#pragma once

#include <kernels/types.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace harness {

// Elements of poison before and after every input: more than the farthest a block of 1024
// threads taking two values each can reach past the end.
inline constexpr std::size_t kInputGuard = 4096;
// Canaries around every output slot.
inline constexpr std::size_t kOutputCanaries = 4;

template <class T>
T input_poison(kernels::Op op);

// The poison of outputs and workspaces: every byte 0xA5.
template <class T>
T output_poison() {
  if constexpr (sizeof(T) == 4) return std::bit_cast<T>(0xA5A5A5A5u);
  else return std::bit_cast<T>(0xA5A5A5A5A5A5A5A5ull);
}

// Where each input lands in a packed image: offsets[k] is the first element of input k.
struct PackedLayout {
  std::vector<std::size_t> offsets;
  std::size_t size = 0;  // elements in the whole image
};

// Input k has lengths[k] elements and starts shifts[k] elements after a 16-byte boundary of the
// image (which is itself allocated on such a boundary).
template <class T>
PackedLayout pack_layout(std::span<const std::uint64_t> lengths, std::span<const unsigned> shifts);

// The image to upload: poison everywhere except the inputs.
template <class T>
std::vector<T> pack_image(const PackedLayout& layout, std::span<const std::span<const T>> inputs, T poison);

// Describes every element of `after` that differs from `before`: the kernel wrote memory it may
// only read. At most `limit` lines.
template <class T>
std::vector<std::string> describe_changes(std::span<const T> before, std::span<const T> after, std::size_t limit = 8);

// Output slots: slot k of a `slots`-slot image lives at output_slot(k); all else is canary.
constexpr std::size_t output_slot(std::size_t k) { return kOutputCanaries + k * (1 + kOutputCanaries); }
constexpr std::size_t output_image_size(std::size_t slots) { return output_slot(slots); }

// Every canary of an output image that no longer holds the poison, described.
template <class T>
std::vector<std::string> damaged_canaries(std::span<const T> image, std::size_t slots);

}  // namespace harness
