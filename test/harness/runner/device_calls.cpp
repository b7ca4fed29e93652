#include "harness/runner/device_calls.hpp"

#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/runner/batch_report.hpp"
#include "harness/runner/gpu_session.hpp"
#include "harness/runner/phase_clock.hpp"

#include <kernels/reduce.hpp>
#include <kernels/scan.hpp>
#include <kernels/sort.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

namespace harness {
namespace {

// A property's call that does not finish ends the process like a batch's (diagnosis/hang_watchdog.hpp).
// Its input came from RapidCheck, not from a seed, so the line printed reruns a generated input
// of the same variant, mode, type, block size and length: what a hang depends on.
Case property_call(const kernels::VariantInfo& variant, kernels::TypeKey type, int block_size, std::size_t n) {
  Case c{.family = variant.family, .variant = std::string(variant.name), .type = type};
  c.block_size = block_size;
  c.n = n;
  return c;
}

HangWatch watch(const Case& c, std::uint64_t values) {
  return HangWatch(
      [c] {
        return CaseFailure{
            c, FailureKind::timeout,
            "a property's call did not finish (its input was RapidCheck's; the line below reruns a generated "
            "one of the same length)"}
            .lines();
      },
      values);
}

// The results of queued calls, copied back through one pinned host block and waited for once.
// A copy to pageable memory would wait by itself, a turn of a shared GPU per result; copies to
// pinned memory queue behind the calls' kernels like the kernels themselves.
class ResultCopies {
 public:
  template <class T>
  void queue(const DeviceBuffer<T>& from, std::vector<T>& to) {
    to.resize(from.size());
    if (!to.empty()) copies_.push_back({from.data(), to.data(), from.size() * sizeof(T)});
  }
  // Queues every copy into the pinned block, waits for the stream, then copies out.
  void wait() {
    std::size_t total = 0;
    for (const Copy& copy : copies_) total += aligned(copy.bytes);
    unsigned char* pinned = pinned_block(total);
    timed(Phase::wait, [&] {
      std::size_t at = 0;
      for (const Copy& copy : copies_) {
        kernels::check_cuda(
            cudaMemcpyAsync(pinned + at, copy.device, copy.bytes, cudaMemcpyDeviceToHost, test_stream()),
            "cudaMemcpyAsync (result)");
        at += aligned(copy.bytes);
      }
      kernels::check_cuda(cudaStreamSynchronize(test_stream()), "cudaStreamSynchronize (results)");
    });
    std::size_t at = 0;
    for (const Copy& copy : copies_) {
      std::memcpy(copy.host, pinned + at, copy.bytes);
      at += aligned(copy.bytes);
    }
    copies_.clear();
  }

 private:
  struct Copy {
    const void* device;
    void* host;
    std::size_t bytes;
  };
  static std::size_t aligned(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
  // The process's pinned block, grown as needed and kept: pinning costs more than a call.
  static unsigned char* pinned_block(std::size_t bytes) {
    static std::unique_ptr<unsigned char, decltype(&cudaFreeHost)> block{nullptr, &cudaFreeHost};
    static std::size_t capacity = 0;
    if (bytes > capacity) {
      block.reset();
      capacity = std::max(bytes, 2 * capacity);
      void* fresh = nullptr;
      kernels::check_cuda(cudaMallocHost(&fresh, capacity), "cudaMallocHost (results)");
      block.reset(static_cast<unsigned char*>(fresh));
    }
    return block.get();
  }
  std::vector<Copy> copies_;
};

template <class T, class Values>
std::vector<DeviceBuffer<T>> uploaded(const std::vector<Values>& inputs) {
  return timed(Phase::upload, [&] {
    std::vector<DeviceBuffer<T>> buffers;
    for (std::span<const T> values : inputs) buffers.emplace_back(values);
    return buffers;
  });
}

template <class T>
std::vector<DeviceBuffer<T>> allocated(const std::vector<std::size_t>& counts) {
  return timed(Phase::allocate, [&] {
    std::vector<DeviceBuffer<T>> buffers;
    for (std::size_t count : counts) buffers.emplace_back(count);
    return buffers;
  });
}

// A list of calls gets the hang allowance of their total length.
std::uint64_t total(const std::vector<std::size_t>& lengths) {
  return std::accumulate(lengths.begin(), lengths.end(), std::uint64_t{0});
}

// The longest of a list's calls stands for the list in a hang's report.
std::size_t longest(const std::vector<std::size_t>& lengths) {
  std::size_t n = 0;
  for (std::size_t length : lengths) n = std::max(n, length);
  return n;
}

}  // namespace

template <class In, class Out>
std::vector<Out> reduce_each_on_device(const kernels::VariantInfo& variant, kernels::Op op,
                                       std::span<const std::span<const In>> inputs, int block_size) {
  const std::vector<std::span<const In>> values(inputs.begin(), inputs.end());
  std::vector<std::size_t> lengths, bytes;
  for (std::span<const In> input : values) {
    lengths.push_back(input.size());
    bytes.push_back(kernels::reduce_workspace_bytes<In, Out>(variant.name, op, input.size(), {block_size}));
  }
  const std::vector<DeviceBuffer<In>> device_inputs = uploaded<In>(values);
  const std::vector<DeviceBuffer<Out>> results = allocated<Out>(std::vector<std::size_t>(values.size(), 1));
  const std::vector<DeviceBuffer<unsigned char>> spaces = allocated<unsigned char>(bytes);
  Case c = property_call(variant, kernels::type_key_v<In, Out>, block_size, longest(lengths));
  c.op = op;
  const HangWatch watched = watch(c, total(lengths));
  timed(Phase::launch, [&] {
    for (std::size_t i = 0; i < values.size(); ++i) {
      kernels::reduce<In, Out>(variant.name, op, device_inputs[i].data(), lengths[i], results[i].data(),
                               {spaces[i].data(), bytes[i]}, {block_size}, test_stream());
    }
  });
  std::vector<std::vector<Out>> host(values.size());
  ResultCopies copies;
  for (std::size_t i = 0; i < values.size(); ++i) copies.queue(results[i], host[i]);
  copies.wait();
  std::vector<Out> reduced;
  for (const std::vector<Out>& result : host) reduced.push_back(result[0]);
  return reduced;
}

template <class T>
std::vector<std::vector<T>> scan_each_on_device(const kernels::VariantInfo& variant, kernels::Op op,
                                                std::span<const ScanCall<T>> calls, int block_size) {
  std::vector<std::span<const T>> values;
  std::vector<std::size_t> lengths, bytes;
  for (const ScanCall<T>& call : calls) {
    values.push_back(call.values);
    lengths.push_back(call.values.size());
    bytes.push_back(kernels::scan_workspace_bytes<T>(variant.name, call.kind, op, call.values.size(), {block_size}));
  }
  const std::vector<DeviceBuffer<T>> device_inputs = uploaded<T>(values);
  const std::vector<DeviceBuffer<T>> results = allocated<T>(lengths);
  const std::vector<DeviceBuffer<unsigned char>> spaces = allocated<unsigned char>(bytes);
  Case c = property_call(variant, kernels::type_key_v<T, T>, block_size, longest(lengths));
  c.kind = calls.empty() ? kernels::ScanKind::inclusive : calls.front().kind;
  c.op = op;
  const HangWatch watched = watch(c, total(lengths));
  timed(Phase::launch, [&] {
    for (std::size_t i = 0; i < calls.size(); ++i) {
      kernels::scan<T>(variant.name, calls[i].kind, op, device_inputs[i].data(), lengths[i], results[i].data(),
                       {spaces[i].data(), bytes[i]}, {block_size}, test_stream());
    }
  });
  std::vector<std::vector<T>> scanned(calls.size());
  ResultCopies copies;
  for (std::size_t i = 0; i < calls.size(); ++i) copies.queue(results[i], scanned[i]);
  copies.wait();
  return scanned;
}

template <class K>
std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_on_device(const kernels::VariantInfo& variant,
                                                                     kernels::SortForm form, std::span<const K> keys,
                                                                     int block_size) {
  const bool pairs = form == kernels::SortForm::pairs;
  std::vector<std::uint32_t> indices(pairs ? keys.size() : 0);
  std::iota(indices.begin(), indices.end(), 0u);
  const DeviceBuffer<K> keys_in = timed(Phase::upload, [&] { return DeviceBuffer<K>(keys); });
  const DeviceBuffer<std::uint32_t> values_in =
      timed(Phase::upload, [&] { return DeviceBuffer<std::uint32_t>(std::span<const std::uint32_t>(indices)); });
  DeviceBuffer<K> keys_out = timed(Phase::allocate, [&] { return DeviceBuffer<K>(keys.size()); });
  DeviceBuffer<std::uint32_t> values_out =
      timed(Phase::allocate, [&] { return DeviceBuffer<std::uint32_t>(indices.size()); });
  const std::size_t bytes = kernels::sort_workspace_bytes<K>(variant.name, form, keys.size(), {block_size});
  DeviceBuffer<unsigned char> workspace = timed(Phase::allocate, [&] { return DeviceBuffer<unsigned char>(bytes); });
  Case c = property_call(variant, kernels::type_key_v<K, K>, block_size, keys.size());
  c.form = form;
  const HangWatch watched = watch(c, keys.size());
  timed(Phase::launch, [&] {
    if (pairs) {
      kernels::sort_pairs<K>(variant.name, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(),
                             keys.size(), {workspace.data(), bytes}, {block_size}, test_stream());
    } else {
      kernels::sort_keys<K>(variant.name, keys_in.data(), keys_out.data(), keys.size(), {workspace.data(), bytes},
                            {block_size}, test_stream());
    }
  });
  std::pair<std::vector<K>, std::vector<std::uint32_t>> sorted;
  ResultCopies copies;
  copies.queue(keys_out, sorted.first);
  copies.queue(values_out, sorted.second);
  copies.wait();
  return sorted;
}

#define HARNESS_INSTANTIATE_REDUCE_ON_DEVICE(key, In, Out, label)                                    \
  template std::vector<Out> reduce_each_on_device<In, Out>(const kernels::VariantInfo&, kernels::Op, \
                                                           std::span<const std::span<const In>>, int);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_ON_DEVICE)
#undef HARNESS_INSTANTIATE_REDUCE_ON_DEVICE

#define HARNESS_INSTANTIATE_SCAN_ON_DEVICE(key, T, out, label)                                          \
  template std::vector<std::vector<T>> scan_each_on_device<T>(const kernels::VariantInfo&, kernels::Op, \
                                                              std::span<const ScanCall<T>>, int);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_ON_DEVICE)
#undef HARNESS_INSTANTIATE_SCAN_ON_DEVICE

#define HARNESS_INSTANTIATE_SORT_ON_DEVICE(key, K, out, label)                      \
  template std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_on_device<K>( \
      const kernels::VariantInfo&, kernels::SortForm, std::span<const K>, int);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SORT_ON_DEVICE)
#undef HARNESS_INSTANTIATE_SORT_ON_DEVICE

}  // namespace harness
