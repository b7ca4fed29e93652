#include "fuzz/device_calls.hpp"

#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/workspace_arena.hpp"
#include "harness/runner/batch_report.hpp"
#include "harness/session/gpu_session.hpp"
#include "harness/session/phase_clock.hpp"

#include <kernels/reduce.hpp>
#include <kernels/scan.hpp>
#include <kernels/sort.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace harness {
namespace {

// A property's call that does not finish ends the process like a batch's (diagnosis/hang_watchdog.hpp).
// Its input came from RapidCheck, not from a seed, so the line printed reruns a generated input
// of the same variant, mode, type, block size and length: what a hang depends on.
Case property_call(const kernels::VariantInfo& variant, kernels::TypeKey type, int block_size, std::size_t n,
                   std::optional<kernels::Op> op = {}, std::optional<kernels::ScanKind> kind = {},
                   std::optional<kernels::SortForm> form = {}) {
  Case c{.family = variant.family, .variant = std::string(variant.name), .type = type};
  c.block_size = block_size;
  c.n = n;
  if (op) c.op = *op;
  if (kind) c.kind = *kind;
  if (form) c.form = *form;
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

// A DeviceBuffer of `values`, its copy queued.
template <class T>
DeviceBuffer<T> uploaded(std::span<const T> values) {
  return timed(Phase::upload, [&] { return DeviceBuffer<T>(values); });
}

template <class T>
DeviceBuffer<T> allocated(std::size_t count) {
  return timed(Phase::allocate, [&] { return DeviceBuffer<T>(count); });
}

}  // namespace

// One queued call: its buffers, its launch, and the copies of its results.
class DeviceCalls::Call {
 public:
  explicit Call(Case described) : described_(std::move(described)) {}
  virtual ~Call() = default;
  // Launches the call's kernels on the tests' stream.
  virtual void launch() = 0;
  // Queues the copies of its results to the host.
  virtual void queue_copies(ResultCopies& copies) = 0;
  // Makes the result from the copies, once they have arrived.
  virtual void finish() {}
  // The call as a hang's report names it (property_call).
  const Case& described() const { return described_; }
  // The bytes its workspace query gave, and the sequence whose one workspace it goes through (-1: its own).
  virtual std::size_t workspace_bytes() const = 0;
  int sequence = -1;
  // Its workspace (its own, or its sequence's), which wait() gives it before launch().
  void give_workspace(unsigned char* space) { workspace_ = space; }

 protected:
  unsigned char* workspace() const { return workspace_; }

 private:
  Case described_;
  unsigned char* workspace_ = nullptr;
};

namespace {

template <class In, class Out>
class ReduceCall final : public DeviceCalls::Call {
 public:
  ReduceCall(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values, int block_size)
      : Call(property_call(variant, kernels::type_key_v<In, Out>, block_size, values.size(), op)),
        variant_(variant),
        op_(op),
        block_size_(block_size),
        bytes_(kernels::reduce_workspace_bytes<In, Out>(variant.name, op, values.size(), {block_size})),
        input_(uploaded(values)),
        output_(allocated<Out>(1)) {}
  void launch() override {
    kernels::reduce<In, Out>(variant_.name, op_, input_.data(), input_.size(), output_.data(), {workspace(), bytes_},
                             {block_size_}, test_stream());
  }
  std::size_t workspace_bytes() const override { return bytes_; }
  void queue_copies(ResultCopies& copies) override { copies.queue(output_, copied_); }
  void finish() override { result = copied_.at(0); }

  Out result{};

 private:
  const kernels::VariantInfo& variant_;
  kernels::Op op_;
  int block_size_;
  std::size_t bytes_;
  DeviceBuffer<In> input_;
  DeviceBuffer<Out> output_;
  std::vector<Out> copied_;
};

template <class T>
class ScanCall final : public DeviceCalls::Call {
 public:
  ScanCall(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op, std::span<const T> values,
           int block_size)
      : Call(property_call(variant, kernels::type_key_v<T, T>, block_size, values.size(), op, kind)),
        variant_(variant),
        kind_(kind),
        op_(op),
        block_size_(block_size),
        bytes_(kernels::scan_workspace_bytes<T>(variant.name, kind, op, values.size(), {block_size})),
        input_(uploaded(values)),
        output_(allocated<T>(values.size())) {}
  void launch() override {
    kernels::scan<T>(variant_.name, kind_, op_, input_.data(), input_.size(), output_.data(), {workspace(), bytes_},
                     {block_size_}, test_stream());
  }
  std::size_t workspace_bytes() const override { return bytes_; }
  void queue_copies(ResultCopies& copies) override { copies.queue(output_, result); }

  std::vector<T> result;

 private:
  const kernels::VariantInfo& variant_;
  kernels::ScanKind kind_;
  kernels::Op op_;
  int block_size_;
  std::size_t bytes_;
  DeviceBuffer<T> input_;
  DeviceBuffer<T> output_;
};

// Values 0..n-1 for a pair sort, none for a keys-only one.
std::vector<std::uint32_t> indices(kernels::SortForm form, std::size_t n) {
  std::vector<std::uint32_t> made(form == kernels::SortForm::pairs ? n : 0);
  std::iota(made.begin(), made.end(), 0u);
  return made;
}

template <class K>
class SortCall final : public DeviceCalls::Call {
 public:
  // Sorts `keys`.
  SortCall(const kernels::VariantInfo& variant, kernels::SortForm form, std::span<const K> keys, int block_size)
      : SortCall(variant, form, block_size, uploaded(keys), nullptr) {}
  // Sorts what `earlier` puts out (its keys; for pairs, its values with them).
  explicit SortCall(const SortCall& earlier)
      : SortCall(earlier.variant_, earlier.form_, earlier.block_size_, DeviceBuffer<K>(), &earlier) {}

  void launch() override {
    const K* keys = from_ ? from_->keys_out_.data() : keys_in_.data();
    const std::uint32_t* values = from_ ? from_->values_out_.data() : values_in_.data();
    const std::size_t n = keys_out_.size();
    if (form_ == kernels::SortForm::pairs) {
      kernels::sort_pairs<K>(variant_.name, keys, keys_out_.data(), values, values_out_.data(), n,
                             {workspace(), bytes_}, {block_size_}, test_stream());
    } else {
      kernels::sort_keys<K>(variant_.name, keys, keys_out_.data(), n, {workspace(), bytes_}, {block_size_},
                            test_stream());
    }
  }
  std::size_t workspace_bytes() const override { return bytes_; }
  void queue_copies(ResultCopies& copies) override {
    copies.queue(keys_out_, result.keys);
    copies.queue(values_out_, result.values);
  }

  SortedOnDevice<K> result;

 private:
  SortCall(const kernels::VariantInfo& variant, kernels::SortForm form, int block_size, DeviceBuffer<K> keys_in,
           const SortCall* from)
      : Call(property_call(variant, kernels::type_key_v<K, K>, block_size,
                           from ? from->keys_out_.size() : keys_in.size(), {}, {}, form)),
        variant_(variant),
        form_(form),
        block_size_(block_size),
        from_(from),
        keys_in_(std::move(keys_in)),
        values_in_(from ? DeviceBuffer<std::uint32_t>() : uploaded<std::uint32_t>(indices(form, keys_in_.size()))),
        keys_out_(allocated<K>(described().n)),
        values_out_(allocated<std::uint32_t>(form == kernels::SortForm::pairs ? described().n : 0)),
        bytes_(kernels::sort_workspace_bytes<K>(variant.name, form, described().n, {block_size})) {}

  const kernels::VariantInfo& variant_;
  kernels::SortForm form_;
  int block_size_;
  const SortCall* from_;
  DeviceBuffer<K> keys_in_;
  DeviceBuffer<std::uint32_t> values_in_;
  DeviceBuffer<K> keys_out_;
  DeviceBuffer<std::uint32_t> values_out_;
  std::size_t bytes_;
};

}  // namespace

DeviceCalls::DeviceCalls() = default;
DeviceCalls::~DeviceCalls() = default;

template <class In, class Out>
const Out& DeviceCalls::reduce(const kernels::VariantInfo& variant, kernels::Op op, std::span<const In> values,
                               int block_size) {
  auto call = std::make_unique<ReduceCall<In, Out>>(variant, op, values, block_size);
  call->sequence = open_sequence_;
  const Out& result = call->result;
  queued_.push_back(std::move(call));
  return result;
}

template <class T>
const std::vector<T>& DeviceCalls::scan(const kernels::VariantInfo& variant, kernels::ScanKind kind, kernels::Op op,
                                        std::span<const T> values, int block_size) {
  auto call = std::make_unique<ScanCall<T>>(variant, kind, op, values, block_size);
  call->sequence = open_sequence_;
  const std::vector<T>& result = call->result;
  queued_.push_back(std::move(call));
  return result;
}

template <class K>
const SortedOnDevice<K>& DeviceCalls::sort(const kernels::VariantInfo& variant, kernels::SortForm form,
                                           std::span<const K> keys, int block_size) {
  auto call = std::make_unique<SortCall<K>>(variant, form, keys, block_size);
  call->sequence = open_sequence_;
  const SortedOnDevice<K>& result = call->result;
  queued_.push_back(std::move(call));
  return result;
}

template <class K>
const SortedOnDevice<K>& DeviceCalls::sort_again(const SortedOnDevice<K>& earlier) {
  for (const auto* list : {&queued_, &done_}) {
    for (const std::unique_ptr<Call>& call : *list) {
      const auto* sort = dynamic_cast<const SortCall<K>*>(call.get());
      if (sort == nullptr || &sort->result != &earlier) continue;
      auto again = std::make_unique<SortCall<K>>(*sort);
      again->sequence = open_sequence_;
      const SortedOnDevice<K>& result = again->result;
      queued_.push_back(std::move(again));
      return result;
    }
  }
  throw std::logic_error("DeviceCalls::sort_again: the earlier sort was not queued on these calls");
}

void DeviceCalls::begin_sequence() {
  if (open_sequence_ != -1) throw std::logic_error("DeviceCalls::begin_sequence: a sequence is already open");
  open_sequence_ = sequences_++;
}

void DeviceCalls::end_sequence() { open_sequence_ = -1; }

void DeviceCalls::wait() {
  if (queued_.empty()) return;
  // Each call's workspace: its own, or its sequence's one, the largest its calls ask for, poisoned as the batch
  // runner's are. They live until the calls have ended, below.
  std::map<int, std::size_t> largest;
  for (const std::unique_ptr<Call>& call : queued_) {
    if (call->sequence >= 0) largest[call->sequence] = std::max(largest[call->sequence], call->workspace_bytes());
  }
  std::map<int, DeviceBuffer<unsigned char>> shared;
  for (const auto& [sequence, bytes] : largest) {
    DeviceBuffer<unsigned char>& space = shared.emplace(sequence, allocated<unsigned char>(bytes)).first->second;
    if (bytes > 0)
      kernels::check_cuda(cudaMemsetAsync(space.data(), WorkspaceArena::kPoison, bytes, test_stream()),
                          "cudaMemsetAsync (a sequence's workspace)");
  }
  std::vector<DeviceBuffer<unsigned char>> own;
  own.reserve(queued_.size());
  for (const std::unique_ptr<Call>& call : queued_) {
    if (call->sequence >= 0) {
      call->give_workspace(shared.at(call->sequence).data());
    } else {
      own.push_back(allocated<unsigned char>(call->workspace_bytes()));
      call->give_workspace(own.back().data());
    }
  }
  // The list gets the hang allowance of its total length; its longest call stands for it.
  std::uint64_t values = 0;
  const Call* longest = queued_.front().get();
  for (const std::unique_ptr<Call>& call : queued_) {
    values += call->described().n;
    if (call->described().n > longest->described().n) longest = call.get();
  }
  const HangWatch watched = watch(longest->described(), values);
  timed(Phase::launch, [&] {
    for (const std::unique_ptr<Call>& call : queued_) call->launch();
  });
  ResultCopies copies;
  for (const std::unique_ptr<Call>& call : queued_) call->queue_copies(copies);
  copies.wait();
  for (std::unique_ptr<Call>& call : queued_) {
    call->finish();
    done_.push_back(std::move(call));
  }
  queued_.clear();
}

#define HARNESS_INSTANTIATE_REDUCE_CALL(key, In, Out, label) \
  template const Out& DeviceCalls::reduce<In, Out>(const kernels::VariantInfo&, kernels::Op, std::span<const In>, int);
KERNELS_FOR_EACH_TYPE(HARNESS_INSTANTIATE_REDUCE_CALL)
#undef HARNESS_INSTANTIATE_REDUCE_CALL

#define HARNESS_INSTANTIATE_SCAN_CALL(key, T, out, label)                                                          \
  template const std::vector<T>& DeviceCalls::scan<T>(const kernels::VariantInfo&, kernels::ScanKind, kernels::Op, \
                                                      std::span<const T>, int);
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_INSTANTIATE_SCAN_CALL)
#undef HARNESS_INSTANTIATE_SCAN_CALL

#define HARNESS_INSTANTIATE_SORT_CALL(key, K, out, label)                                                \
  template const SortedOnDevice<K>& DeviceCalls::sort<K>(const kernels::VariantInfo&, kernels::SortForm, \
                                                         std::span<const K>, int);                       \
  template const SortedOnDevice<K>& DeviceCalls::sort_again<K>(const SortedOnDevice<K>&);
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_SORT_CALL)
#undef HARNESS_INSTANTIATE_SORT_CALL

}  // namespace harness
