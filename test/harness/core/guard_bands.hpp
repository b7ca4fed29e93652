// Guard bands around everything a kernel reads or writes (GUIDE §3: no access outside [0, n)).
//
// A GuardedImage packs segments (the inputs of a batch, or its outputs) into one buffer, each
// between bands of poison, and after the runs says what changed that must not have: any guard
// element, or any element of a read-only segment. Input poison is chosen so that reading it
// changes the result (NaN for floats; for integers the op's absorbing extreme, or an odd
// constant for sums). Each segment may start a few elements past a 16-byte boundary, so that
// vectorised code meets every alignment. Plain host logic, tested on the CPU.
#pragma once

#include <kernels/types.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace harness {

// Poison before and after every input and array output: more than the farthest a block of 1024
// threads taking up to eight values each can reach past the end.
inline constexpr std::size_t kArrayGuard = 8192;
// Canaries around every single-value output (reductions).
inline constexpr std::size_t kValueGuard = 4;

template <class T>
T input_poison(kernels::Op op);

// The poison of outputs and workspaces: every byte 0xA5.
template <class T>
T output_poison() {
  if constexpr (sizeof(T) == 4) return std::bit_cast<T>(0xA5A5A5A5u);
  else return std::bit_cast<T>(0xA5A5A5A5A5A5A5A5ull);
}

template <class T>
class GuardedImage {
 public:
  // Segment k has lengths[k] elements and starts shifts[k] elements past a 16-byte boundary of
  // the image (which is itself allocated on such a boundary); `guard` poison elements separate
  // the segments and surround them.
  GuardedImage(std::span<const std::uint64_t> lengths, std::span<const unsigned> shifts, std::size_t guard, T poison);

  std::size_t segments() const { return offsets_.size(); }
  std::size_t offset(std::size_t k) const { return offsets_[k]; }
  std::uint64_t length(std::size_t k) const { return lengths_[k]; }
  std::span<T> segment(std::size_t k) { return {image_.data() + offsets_[k], lengths_[k]}; }
  std::span<const T> segment(std::size_t k) const { return {image_.data() + offsets_[k], lengths_[k]}; }
  const std::vector<T>& image() const { return image_; }

  struct Violation {
    std::size_t segment;  // the segment the changed element belongs to or lies nearest
    std::string what;
  };
  // Compares `after` (the image downloaded after the runs) with this one: every guard element
  // must be unchanged, and every segment element too when `segments_read_only`. At most `limit`.
  std::vector<Violation> violations(std::span<const T> after, bool segments_read_only, std::size_t limit = 8) const;

 private:
  std::vector<std::size_t> offsets_;
  std::vector<std::uint64_t> lengths_;
  std::vector<T> image_;
};

}  // namespace harness
