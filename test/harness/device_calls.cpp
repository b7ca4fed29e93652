#include "device_calls.hpp"

#include "device_buffer.hpp"
#include "gpu_session.hpp"

#include <kernels/reduce.hpp>
#include <kernels/scan.hpp>

namespace harness {

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size) {
  const DeviceBuffer<In> input(values);
  DeviceBuffer<Out> result(1);
  const std::size_t bytes = kernels::reduce_workspace_bytes<In, Out>(variant.name, op, values.size(), {block_size});
  DeviceBuffer<unsigned char> workspace(bytes);
  kernels::reduce<In, Out>(variant.name, op, input.data(), values.size(), result.data(), {workspace.data(), bytes},
                           {block_size}, test_stream());
  return result.download()[0];
}

template <class T>
std::vector<T> scan_on_device(const kernels::VariantInfo& variant, kernels::ScanKind kind, std::span<const T> values,
                              int block_size) {
  const DeviceBuffer<T> input(values);
  DeviceBuffer<T> result(values.size());
  const std::size_t bytes = kernels::scan_workspace_bytes<T>(variant.name, kind, values.size(), {block_size});
  DeviceBuffer<unsigned char> workspace(bytes);
  kernels::scan<T>(variant.name, kind, input.data(), values.size(), result.data(), {workspace.data(), bytes},
                   {block_size}, test_stream());
  return result.download();
}

template int reduce_on_device<int, int>(const kernels::VariantInfo&, kernels::Op, std::span<const int>, int);
template float reduce_on_device<float, float>(const kernels::VariantInfo&, kernels::Op, std::span<const float>, int);
template long long reduce_on_device<int, long long>(const kernels::VariantInfo&, kernels::Op, std::span<const int>, int);
template std::vector<int> scan_on_device<int>(const kernels::VariantInfo&, kernels::ScanKind, std::span<const int>,
                                              int);

}  // namespace harness
