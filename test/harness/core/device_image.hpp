// A GuardedImage on the device: uploaded when made, downloaded after the runs to be checked.
#pragma once

#include "harness/core/device_buffer.hpp"
#include "harness/core/guard_bands.hpp"

#include <span>
#include <vector>

namespace harness {

template <class T>
class DeviceImage {
 public:
  explicit DeviceImage(GuardedImage<T> host) : host_(std::move(host)), device_(std::span<const T>(host_.image())) {}

  T* segment(std::size_t k) const { return device_.data() + host_.offset(k); }
  const GuardedImage<T>& host() const { return host_; }

  // The device's image after the runs.
  std::vector<T> download() const { return device_.download(); }

 private:
  GuardedImage<T> host_;
  DeviceBuffer<T> device_;
};

}  // namespace harness
