#include "harness/scan/scan_family.hpp"

#include "harness/core/batch_run.hpp"
#include "harness/scan/scan_oracle.hpp"

#include <kernels/scan.hpp>
#include <kernels/types.hpp>

namespace harness {
namespace {

// Each run's output slot, at its input's alignment; an in-place run's slot starts as its input.
template <class T>
GuardedImage<T> output_image(const std::vector<const TestInput<T>*>& inputs, const std::vector<BatchRun>& runs) {
  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
  for (const BatchRun& run : runs) {
    lengths.push_back(inputs[run.input]->values.size());
    shifts.push_back(inputs[run.input]->offset);
  }
  GuardedImage<T> image(lengths, shifts, kArrayGuard, output_poison<T>());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (runs[r].in_place) image.set_contents(r, inputs[runs[r].input]->values);
  }
  return image;
}

}  // namespace

template <class T>
T ScanFamily<T>::input_poison(Mode) {
  return harness::input_poison<T>(kernels::Op::sum);
}

template <class T>
ScanFamily<T>::Device::Device(const kernels::VariantInfo& variant, Mode kind,
                              const std::vector<const TestInput<T>*>& inputs, const std::vector<BatchRun>& runs)
    : variant_(variant), kind_(kind), inputs_(inputs), runs_(runs), outputs_(output_image(inputs, runs)) {}

template <class T>
std::size_t ScanFamily<T>::Device::workspace_bytes(std::size_t run) const {
  return kernels::scan_workspace_bytes<T>(variant_.name, kind_, length(run), {runs_[run].block_size});
}

template <class T>
void ScanFamily<T>::Device::launch(std::size_t run, const T* input, kernels::Workspace workspace,
                                   cudaStream_t stream) const {
  T* const out = outputs_.segment(run);
  kernels::scan<T>(variant_.name, kind_, runs_[run].in_place ? out : input, length(run), out, workspace,
                   {runs_[run].block_size}, stream);
}

template <class T>
void ScanFamily<T>::Device::download() {
  results_ = outputs_.download_segments();
}

template <class T>
std::optional<std::string> ScanFamily<T>::Device::judge(std::size_t run) {
  const std::span<const T> got(results_.data() + outputs_.packed_offset(run), length(run));
  const std::uint64_t depth = variant_.depth_with(length(run), runs_[run].block_size);
  const Mismatches mismatches = judge_scan<T>(kind_, inputs_[runs_[run].input]->values, got, depth);
  if (mismatches.count > 0) return mismatches.describe();
  return std::nullopt;
}

template <class T>
std::string ScanFamily<T>::Device::pass(std::size_t run) const {
  return "all " + std::to_string(length(run)) + " outputs within the oracle's bounds";
}

template <class T>
std::vector<std::byte> ScanFamily<T>::Device::output_bits(std::size_t run) const {
  return bits_of(std::span<const T>(results_.data() + outputs_.packed_offset(run), length(run)));
}

template <class T>
std::vector<std::pair<std::size_t, std::string>> ScanFamily<T>::Device::violations() const {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (const auto& violation : outputs_.band_violations()) {
    found.emplace_back(violation.segment, "output: " + violation.what);
  }
  return found;
}

template <class T>
ScanFamily<T>::ApiCall::ApiCall(const kernels::VariantInfo& variant, Mode kind, std::uint64_t n)
    : variant_(variant), kind_(kind), n_(n), arrays_(std::span<const T>(std::vector<T>(2 * n, output_poison<T>()))) {}

template <class T>
ApiArgs<ScanFamily<T>> ScanFamily<T>::ApiCall::args(kernels::Workspace workspace) const {
  return {variant_.name, kind_, arrays_.data(), n_, arrays_.data() + n_, workspace};
}

template <class T>
std::size_t ScanFamily<T>::ApiCall::workspace_bytes() const {
  return kernels::scan_workspace_bytes<T>(variant_.name, kind_, n_);
}

template <class T>
void ScanFamily<T>::ApiCall::operator()(const ApiArgs<ScanFamily>& a, cudaStream_t stream) const {
  kernels::scan<T>(a.variant, a.mode, a.in, a.n, a.out, a.workspace, {a.block_size}, stream);
}

template <class T>
bool ScanFamily<T>::ApiCall::wrote_anything() const {
  return bits_of(std::span<const T>(arrays_.download())) !=
         bits_of(std::span<const T>(std::vector<T>(2 * n_, output_poison<T>())));
}

#define HARNESS_SCAN_FAMILY(key, in, out, label) \
  template class Batch<ScanFamily<in>>;          \
  template class ScanFamily<in>::ApiCall;
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_SCAN_FAMILY)
#undef HARNESS_SCAN_FAMILY

}  // namespace harness
