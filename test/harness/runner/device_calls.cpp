#include "harness/runner/device_calls.hpp"

#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/runner/batch_report.hpp"
#include "harness/runner/gpu_session.hpp"
#include "harness/runner/phase_clock.hpp"

#include <kernels/reduce.hpp>
#include <kernels/scan.hpp>
#include <kernels/sort.hpp>

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

HangWatch watch(const Case& c) {
  return HangWatch(
      [c] {
        return CaseFailure{
            c, FailureKind::timeout,
            "a property's call did not finish (its input was RapidCheck's; the line below reruns a generated "
            "one of the same length)"}
            .lines();
      },
      c.n);
}

// A call's result on the host, timed as the wait for it: the copy is queued behind the call's
// kernels and waited for once (a wait and then a copy would be two turns of a shared GPU).
template <class T>
std::vector<T> downloaded(const DeviceBuffer<T>& result) {
  return timed(Phase::wait, [&] { return result.download(); });
}

}  // namespace

template <class In, class Out>
Out reduce_on_device(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size) {
  const DeviceBuffer<In> input = timed(Phase::upload, [&] { return DeviceBuffer<In>(values); });
  const std::size_t bytes = kernels::reduce_workspace_bytes<In, Out>(variant.name, op, values.size(), {block_size});
  DeviceBuffer<Out> result = timed(Phase::allocate, [] { return DeviceBuffer<Out>(1); });
  DeviceBuffer<unsigned char> workspace = timed(Phase::allocate, [&] { return DeviceBuffer<unsigned char>(bytes); });
  Case c = property_call(variant, kernels::type_key_v<In, Out>, block_size, values.size());
  c.op = op;
  const HangWatch watched = watch(c);
  timed(Phase::launch, [&] {
    kernels::reduce<In, Out>(variant.name, op, input.data(), values.size(), result.data(), {workspace.data(), bytes},
                             {block_size}, test_stream());
  });
  return downloaded(result)[0];
}

template <class T>
std::vector<T> scan_on_device(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op,
                              std::span<const T> values, int block_size) {
  const DeviceBuffer<T> input = timed(Phase::upload, [&] { return DeviceBuffer<T>(values); });
  const std::size_t bytes = kernels::scan_workspace_bytes<T>(variant.name, kind, op, values.size(), {block_size});
  DeviceBuffer<T> result = timed(Phase::allocate, [&] { return DeviceBuffer<T>(values.size()); });
  DeviceBuffer<unsigned char> workspace = timed(Phase::allocate, [&] { return DeviceBuffer<unsigned char>(bytes); });
  Case c = property_call(variant, kernels::type_key_v<T, T>, block_size, values.size());
  c.kind = kind;
  c.op = op;
  const HangWatch watched = watch(c);
  timed(Phase::launch, [&] {
    kernels::scan<T>(variant.name, kind, op, input.data(), values.size(), result.data(), {workspace.data(), bytes},
                     {block_size}, test_stream());
  });
  return downloaded(result);
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
  const HangWatch watched = watch(c);
  timed(Phase::launch, [&] {
    if (pairs) {
      kernels::sort_pairs<K>(variant.name, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(),
                             keys.size(), {workspace.data(), bytes}, {block_size}, test_stream());
    } else {
      kernels::sort_keys<K>(variant.name, keys_in.data(), keys_out.data(), keys.size(), {workspace.data(), bytes},
                            {block_size}, test_stream());
    }
  });
  std::vector<K> sorted = downloaded(keys_out);
  return {std::move(sorted), downloaded(values_out)};
}

#define HARNESS_INSTANTIATE_REDUCE_ON_DEVICE(key, In, Out, label) \
  template Out reduce_on_device<In, Out>(const kernels::VariantInfo&, kernels::Op, std::span<const In>, int);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_ON_DEVICE)
#undef HARNESS_INSTANTIATE_REDUCE_ON_DEVICE

#define HARNESS_INSTANTIATE_SCAN_ON_DEVICE(key, T, out, label)                                           \
  template std::vector<T> scan_on_device<T>(const kernels::VariantInfo&, kernels::ScanKind, kernels::Op, \
                                            std::span<const T>, int);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_ON_DEVICE)
#undef HARNESS_INSTANTIATE_SCAN_ON_DEVICE

#define HARNESS_INSTANTIATE_SORT_ON_DEVICE(key, K, out, label)                      \
  template std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_on_device<K>( \
      const kernels::VariantInfo&, kernels::SortForm, std::span<const K>, int);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SORT_ON_DEVICE)
#undef HARNESS_INSTANTIATE_SORT_ON_DEVICE

}  // namespace harness
