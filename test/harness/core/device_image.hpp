// A GuardedImage on the device: uploaded when made, downloaded after the runs to be checked. A
// read-only image (an input) also keeps a device copy as uploaded, so that after the runs it is
// compared on the device and comes back to the host only when something changed it.
// With exact-size buffers (core/buffer_layout.hpp) each segment is a device allocation of its
// own instead, starting at the segment's alignment: a buffer of its `shift + n` elements whose
// last n are the segment (an empty segment with no shift points just past a 16-byte allocation),
// so that any access past the segment's end leaves its allocation. The download then puts the
// segments back in the host image's layout, its guard bands unchanged.
#pragma once

#include "harness/core/buffer_layout.hpp"
#include "harness/core/device_compare.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/guard_bands.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace harness {

template <class T>
class DeviceImage {
 public:
  enum class Access { written, read_only };

  explicit DeviceImage(GuardedImage<T> host, Access access = Access::written) : host_(std::move(host)) {
    if (!exact_size_buffers()) {
      image_ = DeviceBuffer<T>(std::span<const T>(host_.image()));
      if (access == Access::read_only) {
        as_uploaded_ = DeviceBuffer<T>(image_.size());
        as_uploaded_.copy_from(image_);
      }
      return;
    }
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      std::size_t before = host_.offset(k) % kPerVector;
      if (before + host_.length(k) == 0) before = kPerVector;
      exact_.emplace_back(before + host_.length(k));
      exact_.back().upload(std::span<const T>(host_.image()).subspan(host_.offset(k) - before, before + host_.length(k)));
    }
  }

  T* segment(std::size_t k) const {
    if (exact_.empty()) return image_.data() + host_.offset(k);
    return exact_[k].data() + exact_[k].size() - host_.length(k);
  }
  const GuardedImage<T>& host() const { return host_; }

  // Whether a read-only image is still the one uploaded, bit for bit, decided on the device.
  // With exact-size buffers (sanitizer runs, small) it is not known: download() and compare.
  bool known_unchanged() const {
    return exact_.empty() && as_uploaded_.size() == image_.size() && same_bytes_on_device(image_.data(), as_uploaded_.data(), image_.size() * sizeof(T));
  }

  // The device's image after the runs.
  std::vector<T> download() const {
    if (exact_.empty()) return image_.download();
    std::vector<T> image = host_.image();
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      const std::vector<T> values = exact_[k].download(exact_[k].size() - host_.length(k), host_.length(k));
      std::copy(values.begin(), values.end(), image.begin() + static_cast<std::ptrdiff_t>(host_.offset(k)));
    }
    return image;
  }

 private:
  static constexpr std::size_t kPerVector = 16 / sizeof(T);

  GuardedImage<T> host_;
  DeviceBuffer<T> image_;
  DeviceBuffer<T> as_uploaded_;
  std::vector<DeviceBuffer<T>> exact_;
};

}  // namespace harness
