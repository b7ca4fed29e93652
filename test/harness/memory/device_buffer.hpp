// Owning device allocation with checked transfers; the test side's only way to device memory
// (memory/device_allocation.hpp says where it comes from).
// Every transfer and fill is ordered on the tests' stream (cudaMemset would run on the legacy
// stream, which the non-blocking test stream does not wait for). Only a download waits for the
// stream: an upload from pageable memory returns once its bytes are staged (the host copy may
// then change), and what reads the device copy, a kernel or a download, is ordered after it on
// the same stream; a wait per upload and fill made a batch's dozen preparations as many turns
// of a GPU that sixteen test processes share.
#pragma once

#include "harness/memory/device_allocation.hpp"
#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace harness {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) data_ = static_cast<T*>(allocate_device_bytes(count * sizeof(T)));
  }
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_) release_device_bytes(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

  void upload(std::span<const T> host, std::size_t at = 0) {
    if (host.empty()) return;
    kernels::check_cuda(
        cudaMemcpyAsync(data_ + at, host.data(), host.size_bytes(), cudaMemcpyHostToDevice, test_stream()),
        "cudaMemcpyAsync (upload)");
  }
  // Copies another buffer of the same size, device to device.
  void copy_from(const DeviceBuffer& other) {
    if (count_ == 0) return;
    kernels::check_cuda(
        cudaMemcpyAsync(data_, other.data_, count_ * sizeof(T), cudaMemcpyDeviceToDevice, test_stream()),
        "cudaMemcpyAsync (device to device)");
  }

  // Sets every byte of the buffer.
  void fill_bytes(unsigned char byte) {
    kernels::check_cuda(cudaMemsetAsync(data_, byte, count_ * sizeof(T), test_stream()), "cudaMemsetAsync");
  }
  std::vector<T> download() const { return download(0, count_); }
  std::vector<T> download(std::size_t at, std::size_t count) const {
    std::vector<T> host(count);
    if (count > 0) {
      kernels::check_cuda(
          cudaMemcpyAsync(host.data(), data_ + at, count * sizeof(T), cudaMemcpyDeviceToHost, test_stream()),
          "cudaMemcpyAsync (download)");
      kernels::check_cuda(cudaStreamSynchronize(test_stream()), "cudaStreamSynchronize (download)");
    }
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace harness
