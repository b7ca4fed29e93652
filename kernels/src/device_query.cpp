#include <kernels/detail/device_query.hpp>
#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <utility>

namespace kernels::detail {

struct DeviceShape {
  int multiprocessors = 0;
  int threads_per_multiprocessor = 0;
};

DeviceShape current_device_shape() {
  static std::mutex mutex;
  static std::map<int, DeviceShape> by_device;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  std::lock_guard lock(mutex);
  auto it = by_device.find(device);
  if (it == by_device.end()) {
    DeviceShape shape;
    check_cuda(cudaDeviceGetAttribute(&shape.multiprocessors, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
    check_cuda(
        cudaDeviceGetAttribute(&shape.threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device),
        "cudaDeviceGetAttribute(cudaDevAttrMaxThreadsPerMultiProcessor)");
    it = by_device.emplace(device, shape).first;
  }
  return it->second;
}

}  // namespace kernels::detail

namespace kernels::variant {

int multiprocessor_count() { return detail::current_device_shape().multiprocessors; }

unsigned device_filling_grid(int block_size) {
  const detail::DeviceShape shape = detail::current_device_shape();
  const int blocks_per_multiprocessor = shape.threads_per_multiprocessor / block_size;
  return static_cast<unsigned>(shape.multiprocessors * (blocks_per_multiprocessor > 0 ? blocks_per_multiprocessor : 1));
}

}  // namespace kernels::variant
