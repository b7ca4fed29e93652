// Runs cases of one variant on the device, with guard bands, and judges them against the oracle.
// One runner for every family: what differs (the output layout, the call, the oracle) is the
// family's part, `Family` (harness/<family>/<family>_family.hpp, held to the concept of
// runner/batch_family.hpp); the rest is here.
//
// A batch holds one element type and one mode (the op of a reduction, the kind of a scan, the
// form of a sort). Its inputs are packed into one upload with poison between them, its outputs
// are segments between guard bands, every run gets a poisoned workspace slice with canaries, and
// every run is queued on one stream before a single synchronisation, so thousands of small
// cases cost little more than their launches. kcheck runs one case through the same code.
#pragma once

#include "harness/input/test_input.hpp"
#include "harness/memory/device_image.hpp"
#include "harness/numeric/element_traits.hpp"
#include "harness/runner/batch_family.hpp"
#include "harness/runner/batch_report.hpp"
#include "harness/runner/case.hpp"

#include <kernels/registry.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace harness {

// Values per batch (each distinct input once, plus each run's output where a run writes one
// value per element): bounds the device and host memory of one batch. Family tests plan their
// batches by it (a large input shared by every block size is generated, uploaded and folded by
// the oracle once), and reruns their repeats.
inline constexpr std::uint64_t kBatchValues = std::uint64_t(1) << 26;

// How a batch is run besides the plain way.
struct RunOptions {
  // Report passing cases too (kcheck prints them).
  bool describe_passes = false;
  // Capture every launch into one CUDA graph in global capture mode, which fails on any
  // allocation or synchronisation inside a call, then replay the graph.
  bool as_graph = false;
  // A run that repeats an earlier run (same input, block size and in-place) must give that
  // run's output bit for bit: the check of variants that declare themselves deterministic.
  bool same_bits_when_repeated = false;
  // Scheduling noise before each run (microseconds a noise block may spin; 0 is none), as the
  // stress tests run cross-block variants.
  unsigned noise_us = 0;
  // The seed of the first run's noise (of a graph's one noise), as a failure's rerun line gives it; 0 derives one
  // from the inputs and the process's count of noisy batches.
  std::uint64_t noise_seed = 0;
  // The runs one after another on the tests' stream through one workspace (the largest any run asks
  // for), poisoned once: each call finds what the calls before it left, as a caller's reused workspace.
  bool chained = false;
};

// The bytes of `values`, so that two values or arrays compare bit for bit (floats included: -0.0
// is not 0.0, NaN payloads count).
template <class T>
std::vector<std::byte> bits_of(std::span<const T> values) {
  const auto bytes = std::as_bytes(values);
  return {bytes.begin(), bytes.end()};
}

template <BatchFamily Family>
class BatchExecution;

// The device copy of one set of inputs, kept from one batch to the next batch of the same inputs
// in another mode: FamilyTest::check runs every mode of a partition of its runs in a row, and
// an upload per mode cost a reduction five uploads of each long input and an integer scan ten.
// A copy is padded with its mode's poison (an integer max and min pad with their own), so it
// serves the modes of equal poison; a batch in a mode of another poison, or one whose runs
// changed an input, replaces it.
template <class In>
class SharedInputImage {
 public:
  // The copy of `inputs` padded with `poison`, if this holds it.
  std::shared_ptr<const DeviceImage<In>> find(const std::vector<const TestInput<In>*>& inputs, In poison) const {
    if (!image_ || inputs != inputs_ || bits_of(poison) != bits_of(image_->host().poison())) return nullptr;
    return image_;
  }
  void keep(const std::vector<const TestInput<In>*>& inputs, std::shared_ptr<const DeviceImage<In>> image) {
    inputs_ = inputs;
    image_ = std::move(image);
  }
  // After runs changed an input: the next batch uploads its inputs afresh.
  void forget() { image_.reset(); }

 private:
  std::vector<const TestInput<In>*> inputs_;
  std::shared_ptr<const DeviceImage<In>> image_;
};

template <BatchFamily Family>
class Batch {
 public:
  using In = typename Family::In;
  using Mode = typename Family::Mode;

  Batch(const kernels::VariantInfo& variant, Mode mode) : variant_(variant), mode_(mode) {}

  // The input must outlive run(). An input added before is the same input: its runs share one
  // segment of the upload and one read-back of it (and the reduction's and sort's oracle results,
  // kept per input), however many block sizes run it; a copy per run made a batch of every block
  // size copy, upload, read back and judge its input that many times over on the host.
  std::size_t add_input(const TestInput<In>& input) {
    const auto known = std::find(inputs_.begin(), inputs_.end(), &input);
    if (known != inputs_.end()) return static_cast<std::size_t>(known - inputs_.begin());
    inputs_.push_back(&input);
    return inputs_.size() - 1;
  }
  // A run must lie inside the variant's contract (a std::logic_error otherwise: the test is
  // wrong, not the kernel).
  void add_run(std::size_t input, int block_size, bool in_place = false);
  std::size_t runs() const { return runs_.size(); }

  // Uploads, launches, judges and checks the guards of every run (runner/batch_run.hpp); with
  // `shared`, the inputs come from the copy an earlier batch of the same inputs left there, if
  // it fits this mode, and this batch's copy stays there for the next.
  BatchReport run(const RunOptions& options = {}, SharedInputImage<In>* shared = nullptr) const;

  Case case_of(std::size_t run) const;

 private:
  friend class BatchExecution<Family>;
  std::vector<std::optional<std::string>> differences_from_earlier_repeats(const typename Family::Device& device) const;

  const kernels::VariantInfo& variant_;
  Mode mode_;
  std::vector<const TestInput<In>*> inputs_;
  std::vector<BatchRun> runs_;
};

}  // namespace harness
