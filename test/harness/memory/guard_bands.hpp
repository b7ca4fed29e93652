// Guard bands around everything a kernel reads or writes (docs/semantics.md: no access outside [0, n)).
//
// A GuardedImage packs segments (the inputs of a batch, or its outputs) into one buffer, each
// between bands of poison, and after the runs says what changed that must not have: any guard
// element, or any element of a read-only segment. Input poison is chosen so that reading it
// changes the result (NaN for floats; for integers the op's absorbing extreme, or an odd
// constant for sums). Each segment may start a few elements past a 16-byte boundary, so that
// vectorised code meets every alignment. Plain host logic, tested on the CPU.
#pragma once

#include "harness/numeric/element_traits.hpp"

#include <kernels/types.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
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
  return std::bit_cast<T>(static_cast<bits_t<T>>(0xA5A5A5A5A5A5A5A5ull));
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
  std::size_t size() const { return size_; }  // elements, bands included
  T poison() const { return poison_; }

  // What segment k holds when the image is made: `values` (length(k) of them), which the image
  // borrows, not copies, so the caller keeps them alive as long as the image; without, poison.
  // A large image is never held whole on the host: its device image is filled with poison,
  // then gets each segment's contents (memory/device_image.hpp).
  void set_contents(std::size_t k, std::span<const T> values);
  std::span<const T> contents(std::size_t k) const { return contents_[k]; }
  // Segment k is made on the device instead, by fill(segment) once the image is there (its host
  // image is poison); as_made() gives its values on the host, when a check of the read-only
  // segment needs them (violations).
  struct DeviceMade {
    std::function<void(T*)> fill;
    std::function<std::span<const T>()> as_made;
  };
  void set_made_on_device(std::size_t k, DeviceMade made) { made_on_device_[k] = std::move(made); }
  const std::optional<DeviceMade>& made_on_device(std::size_t k) const { return made_on_device_[k]; }
  // Elements [begin, end) of the image as made: poison, and each segment's contents.
  std::vector<T> image(std::size_t begin, std::size_t end) const;
  std::vector<T> image() const { return image(0, size_); }

  struct Violation {
    std::size_t segment;  // the segment the changed element belongs to or lies nearest
    std::string what;
  };
  // Compares `after` (the image downloaded after the runs) with the image as made: every guard
  // element must be unchanged, and every segment element too when `segments_read_only`. At most
  // `limit`, in the order of the image.
  std::vector<Violation> violations(std::span<const T> after, bool segments_read_only, std::size_t limit = 8) const;

  // The bands on their own: band b lies before segment b (band segments() after the last), over
  // [band_begin(b), band_end(b)). Adds to `found`, up to `limit` in all, the changes in band b's
  // elements after the runs (`band_after`); a change blames the nearer segment.
  std::size_t bands() const { return offsets_.size() + 1; }
  std::size_t band_begin(std::size_t b) const { return b > 0 ? offsets_[b - 1] + lengths_[b - 1] : 0; }
  std::size_t band_end(std::size_t b) const { return b < offsets_.size() ? offsets_[b] : size_; }
  void add_band_violations(std::size_t b, std::span<const T> band_after, std::size_t limit,
                           std::vector<Violation>& found) const;

 private:
  std::vector<std::size_t> offsets_;
  std::vector<std::uint64_t> lengths_;
  std::vector<std::span<const T>> contents_;
  std::vector<std::optional<DeviceMade>> made_on_device_;
  std::size_t size_ = 0;
  T poison_;
};

}  // namespace harness
