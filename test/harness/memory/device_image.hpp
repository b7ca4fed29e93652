// A GuardedImage on the device. A small image (up to kWholeCopyBytes) goes to and from the host
// whole, one copy each way. A large one is made and checked on the device, so that only the
// segments' values cross: the poison is filled on the device, long segments are uploaded
// straight from their values and short ones packed into one copy that the device scatters;
// after the runs the bands are checked on the device (only a changed band comes back) and the
// segments come back packed. A segment made on the device (GuardedImage::set_made_on_device) is
// made there after the upload, in any image. A read-only image (an input) also keeps a device
// copy as made, so that after the runs it is compared on the device and comes back whole only
// when something changed it.
// With exact-size buffers (memory/buffer_layout.hpp) each segment is a device allocation of its
// own instead, starting at the segment's alignment: a buffer of its `shift + n` elements whose
// last n are the segment (an empty segment with no shift points just past a 16-byte allocation),
// so that any access past the segment's end leaves its allocation; there are no bands on the
// device to check.
#pragma once

#include "harness/memory/buffer_layout.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/memory/device_regions.hpp"
#include "harness/memory/guard_bands.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <vector>

namespace harness {

template <class T>
class DeviceImage {
 public:
  enum class Access { written, read_only };
  using Violation = typename GuardedImage<T>::Violation;

  explicit DeviceImage(GuardedImage<T> host, Access access = Access::written) : host_(std::move(host)) {
    std::size_t packed = 0;
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      packed_offsets_.push_back(packed);
      packed += host_.length(k);
    }
    packed_size_ = packed;
    if (!exact_size_buffers()) {
      image_ = DeviceBuffer<T>(host_.size());
      if (whole_copies()) {
        image_.upload(host_.image());
      } else {
        fill_words_on_device(image_.data(), image_.size(), sizeof(T), word_pattern(host_.poison()));
        upload_contents();
      }
      fill_segments_on_device();
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
      exact_.back().upload(host_.image(host_.offset(k) - before, host_.offset(k) + host_.length(k)));
    }
    fill_segments_on_device();
  }

  T* segment(std::size_t k) const {
    if (exact_.empty()) return image_.data() + host_.offset(k);
    return exact_[k].data() + exact_[k].size() - host_.length(k);
  }
  const GuardedImage<T>& host() const { return host_; }

  // Whether a read-only image is still the one uploaded, bit for bit, decided on the device.
  // With exact-size buffers (sanitizer runs, small) it is not known: download() and compare.
  bool known_unchanged() const {
    return exact_.empty() && as_uploaded_.size() == image_.size() &&
           same_bytes_on_device(image_.data(), as_uploaded_.data(), image_.size() * sizeof(T));
  }

  // Every segment after the runs, one after the other: segment k from packed_offset(k).
  std::vector<T> download_segments() const {
    if (!exact_.empty()) {
      std::vector<T> packed;
      packed.reserve(packed_size_);
      for (std::size_t k = 0; k < host_.segments(); ++k) {
        const std::vector<T> values = exact_[k].download(exact_[k].size() - host_.length(k), host_.length(k));
        packed.insert(packed.end(), values.begin(), values.end());
      }
      return packed;
    }
    if (whole_copies()) {
      const std::vector<T> whole = image_.download();
      std::vector<T> packed;
      packed.reserve(packed_size_);
      for (std::size_t k = 0; k < host_.segments(); ++k) {
        const auto begin = whole.begin() + static_cast<std::ptrdiff_t>(host_.offset(k));
        packed.insert(packed.end(), begin, begin + static_cast<std::ptrdiff_t>(host_.length(k)));
      }
      return packed;
    }
    std::vector<RegionCopy> copies;
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      copies.push_back({host_.offset(k), packed_offsets_[k], host_.length(k)});
    }
    const DeviceBuffer<T> packed(packed_size_);
    copy_regions_on_device(packed.data(), image_.data(), copies, sizeof(T));
    return packed.download();
  }
  std::size_t packed_offset(std::size_t k) const { return packed_offsets_[k]; }

  // Segment k after the runs, alone (what a device-judged batch brings back of a run, only for
  // the runs it reports or samples): downloaded on the first request and kept.
  std::span<const T> segment_on_host(std::size_t k) const {
    auto fetched = fetched_.find(k);
    if (fetched == fetched_.end()) {
      std::vector<T> values = exact_.empty() ? image_.download(host_.offset(k), host_.length(k))
                                             : exact_[k].download(exact_[k].size() - host_.length(k), host_.length(k));
      fetched = fetched_.emplace(k, std::move(values)).first;
    }
    return fetched->second;
  }

  // The changes to the bands after the runs, at most `limit`: for a large image found on the
  // device, then named from the changed bands alone.
  std::vector<Violation> band_violations(std::size_t limit = 8) const {
    std::vector<Violation> found;
    if (!exact_.empty()) return found;
    if (whole_copies()) return host_.violations(image_.download(), false, limit);
    std::vector<Region> bands;
    for (std::size_t b = 0; b < host_.bands(); ++b) {
      bands.push_back({host_.band_begin(b), host_.band_end(b) - host_.band_begin(b)});
    }
    const std::vector<bool> intact =
        regions_hold_on_device(image_.data(), bands, sizeof(T), word_pattern(host_.poison()));
    for (std::size_t b = 0; b < bands.size() && found.size() < limit; ++b) {
      if (!intact[b]) host_.add_band_violations(b, image_.download(bands[b].begin, bands[b].count), limit, found);
    }
    return found;
  }

  // The whole image after the runs, bands included.
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
  // A segment this long is uploaded straight from its values; shorter ones are packed into one
  // copy that the device scatters (a copy per segment would cost more than its bytes: a batch
  // may hold thousands of short inputs).
  static constexpr std::size_t kStraight = std::size_t(1) << 16;

  bool whole_copies() const { return copied_whole(host_.size() * sizeof(T)); }

  // The segments made on the device (GuardedImage::set_made_on_device), over the poison uploaded.
  void fill_segments_on_device() {
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      if (const auto& made = host_.made_on_device(k)) made->fill(segment(k));
    }
  }

  void upload_contents() {
    std::vector<T> packed;
    std::vector<RegionCopy> scatter;
    for (std::size_t k = 0; k < host_.segments(); ++k) {
      const std::span<const T> values = host_.contents(k);
      if (values.empty()) continue;
      if (values.size() >= kStraight) {
        image_.upload(values, host_.offset(k));
      } else {
        scatter.push_back({packed.size(), host_.offset(k), values.size()});
        packed.insert(packed.end(), values.begin(), values.end());
      }
    }
    if (packed.empty()) return;
    const DeviceBuffer<T> staged{std::span<const T>(packed)};
    copy_regions_on_device(image_.data(), staged.data(), scatter, sizeof(T));
  }

  GuardedImage<T> host_;
  std::vector<std::size_t> packed_offsets_;
  std::size_t packed_size_ = 0;
  DeviceBuffer<T> image_;
  DeviceBuffer<T> as_uploaded_;
  std::vector<DeviceBuffer<T>> exact_;
  mutable std::map<std::size_t, std::vector<T>> fetched_;  // segment_on_host()'s
};

}  // namespace harness
