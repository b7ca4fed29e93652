// Owning device allocation with checked transfers; the test side's only way to device memory.
#pragma once

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
    if (count > 0) {
      kernels::check_cuda(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc (test buffer)");
    }
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
    if (data_) cudaFree(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

  void upload(std::span<const T> host, std::size_t at = 0) {
    if (host.empty()) return;
    kernels::check_cuda(cudaMemcpy(data_ + at, host.data(), host.size_bytes(), cudaMemcpyHostToDevice),
                        "cudaMemcpy (upload)");
  }
  std::vector<T> download() const { return download(0, count_); }
  std::vector<T> download(std::size_t at, std::size_t count) const {
    std::vector<T> host(count);
    if (count > 0) {
      kernels::check_cuda(cudaMemcpy(host.data(), data_ + at, count * sizeof(T), cudaMemcpyDeviceToHost),
                          "cudaMemcpy (download)");
    }
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace harness
