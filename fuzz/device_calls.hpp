// Plain calls of a family on the device, returning their results: the primitives the property
// checks compose (guard bands and oracles are the batch runners' business). The calls queued on
// one DeviceCalls are launched on the tests' stream in the order queued and waited for once: on
// a GPU that many test processes share, each wait is a turn of the GPU, and a property's case,
// however many draws it checks, needs only one.
#pragma once

#include <kernels/registry.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace harness {

// Sorted keys, and (for SortForm::pairs, with values 0..n-1 going in) the values that came with
// them.
template <class K>
struct SortedOnDevice {
  std::vector<K> keys;
  std::vector<std::uint32_t> values;
};

class DeviceCalls {
 public:
  DeviceCalls();
  ~DeviceCalls();
  DeviceCalls(const DeviceCalls&) = delete;
  DeviceCalls& operator=(const DeviceCalls&) = delete;

  // Each call copies its input to the device and returns where its result will be once wait()
  // has returned.
  template <class In, class Out>
  const Out& reduce(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size);
  template <class T>
  const std::vector<T>& scan(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op,
                             std::span<const T> values, int block_size);
  template <class K>
  const SortedOnDevice<K>& sort(const kernels::VariantInfo& variant, kernels::SortForm form, std::span<const K> keys,
                                int block_size);
  // Sorts the keys that `earlier`, a sort queued here, puts out, again by its variant, form and
  // block size: on the device, without a wait in between.
  template <class K>
  const SortedOnDevice<K>& sort_again(const SortedOnDevice<K>& earlier);

  // The calls queued from begin_sequence() to end_sequence() go through one workspace, as large as the
  // largest of theirs and poisoned once, before the first: a caller's reuse of a workspace, each call
  // after the first finding what the ones before it left.
  void begin_sequence();
  void end_sequence();

  // Launches the queued calls, waits for them once, and fills their results; then the list is
  // empty (the results stay until the DeviceCalls goes).
  void wait();

  class Call;

 private:
  std::vector<std::unique_ptr<Call>> queued_;
  std::vector<std::unique_ptr<Call>> done_;
  int sequences_ = 0;
  int open_sequence_ = -1;
};

}  // namespace harness
