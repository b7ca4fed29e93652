#include "harness/scan/scan_family.hpp"

#include "harness/diagnosis/mismatches.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/numeric/exact_step.hpp"
#include "harness/numeric/float_sum.hpp"
#include "harness/runner/batch_run.hpp"
#include "harness/runner/device_judgement.hpp"
#include "harness/scan/scan_device_judge.hpp"
#include "harness/scan/scan_oracle.hpp"

#include <kernels/scan.hpp>
#include <kernels/types.hpp>

#include <type_traits>

namespace harness {
namespace {

// What the device judges: integer scans by the op's exact step, float scans of sums. A registered
// operator has no step here (its combine is compiled into its library): the oracle judges it.
template <class T>
bool has_device_judge(kernels::Op op) {
  if constexpr (std::is_integral_v<T>) {
    return visit_exact_step<T>(op, [](auto) {});
  } else {
    return op == kernels::Op::sum;
  }
}

// Each run's output slot, at its input's alignment; an in-place run's slot starts as its input.
template <class T>
GuardedImage<T> output_image(const std::vector<const TestInput<T>*>& inputs, const std::vector<BatchRun>& runs) {
  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
  for (const BatchRun& run : runs) {
    lengths.push_back(inputs[run.input]->size());
    shifts.push_back(inputs[run.input]->offset);
  }
  GuardedImage<T> image(lengths, shifts, kArrayGuard, output_poison<T>());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (runs[r].in_place) place_input(image, r, *inputs[runs[r].input]);
  }
  return image;
}

}  // namespace

// Each run's output is an array between guard bands of its own, judged on the device: integer
// scans exactly, each output against the one before it (scan/scan_device_judge.hpp); float sums
// each within the oracle's derived bound of its prefix. Only the runs the CPU oracle judges too
// come back to the host (runner/device_judgement.hpp).
template <class T>
class ScanFamily<T>::Device : public BatchDeviceBase<T, Mode> {
 public:
  using BatchDeviceBase<T, Mode>::BatchDeviceBase;

  std::size_t workspace_bytes(std::size_t run) const {
    return kernels::scan_workspace_bytes<T>(this->variant_.name, this->mode_.kind, this->mode_.op, this->length(run),
                                            {this->block_size(run)});
  }

  void launch(std::size_t run, const T* input, kernels::Workspace workspace, cudaStream_t stream) const {
    T* const out = outputs_.segment(run);
    kernels::scan<T>(this->variant_.name, this->mode_.kind, this->mode_.op, this->runs_[run].in_place ? out : input,
                     this->length(run), out, workspace, {this->block_size(run)}, stream);
  }

  void download() {
    std::vector<JudgedRun> sizes;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) sizes.push_back({this->length(r), this->block_size(r)});
    const std::uint64_t seed = derive_seed(this->input_of(0).seed, static_cast<std::uint64_t>(this->mode_.op),
                                           static_cast<std::uint64_t>(this->mode_.kind));
    const bool inclusive = this->mode_.kind == kernels::ScanKind::inclusive;
    if (!judged_on_device() || !has_device_judge<T>(this->mode_.op)) {
      judgement_.emplace(DeviceJudgement::by_the_oracle(sizes));
    } else if constexpr (std::is_integral_v<T>) {
      std::vector<ScanJudgeRun<T>> runs;
      for (std::size_t r = 0; r < this->runs_.size(); ++r) {
        const T* in = this->launched_input(r);
        runs.push_back({in, outputs_.segment(r), in == nullptr ? 0 : this->length(r)});
      }
      judgement_.emplace(judge_scans_on_device<T>(this->mode_.kind, this->mode_.op, runs), sizes, seed,
                         inclusive ? "out[i] == op(out[i-1], in[i])" : "out[i] == op(out[i-1], in[i-1])");
    } else {
      std::vector<FloatScanJudgeRun<T>> runs;
      for (std::size_t r = 0; r < this->runs_.size(); ++r) {
        const T* in = this->launched_input(r);
        const FloatSumJudge<T> bound(this->variant_.depth_with(this->length(r), this->block_size(r)));
        runs.push_back(
            {in, outputs_.segment(r), in == nullptr ? 0 : this->length(r), bound.bound_factor(), positive_zero()});
      }
      judgement_.emplace(judge_float_scans_on_device<T>(this->mode_.kind, runs), sizes, seed,
                         "each output within the oracle's bound of its prefix");
    }
  }

  std::optional<std::string> judge(std::size_t run) {
    if (!judgement_->judged_on_host(run)) return judgement_->verdict(run);
    const std::uint64_t depth = this->variant_.depth_with(this->length(run), this->block_size(run));
    const Mismatches mismatches =
        judge_scan<T>(this->mode_.kind, this->mode_.op, this->input_of(run).values(), got(run), depth, positive_zero());
    std::optional<std::string> verdict;
    if (mismatches.count > 0) verdict = mismatches.describe();
    return judgement_->agree(run, std::move(verdict));
  }

  std::string pass(std::size_t run) const {
    return "all " + std::to_string(this->length(run)) + " outputs within the oracle's bounds";
  }

  // Where the run wrote, for the bit-for-bit check of repeats.
  std::vector<DeviceBytes> output_on_device(std::size_t run) const {
    return {{outputs_.segment(run), this->length(run) * sizeof(T)}};
  }

  std::vector<std::pair<std::size_t, std::string>> violations() const {
    std::vector<std::pair<std::size_t, std::string>> found;
    for (const auto& violation : outputs_.band_violations()) {
      found.emplace_back(violation.segment, "output: " + violation.what);
    }
    return found;
  }

  template <class F>
  void for_each_extra_input(F&&) const {}  // a scan reads one input

 private:
  // A run's output on the host, fetched when it is first asked for.
  std::span<const T> got(std::size_t run) const { return outputs_.segment_on_host(run); }
  bool positive_zero() const { return this->variant_.zero_sum == kernels::ZeroSum::positive; }

  DeviceImage<T> outputs_{output_image(this->inputs_, this->runs_)};
  std::optional<DeviceJudgement> judgement_;
};

#define HARNESS_SCAN_FAMILY(key, in, out, label) template class Batch<ScanFamily<in>>;
KERNELS_FOR_EACH_SCAN_TYPE(HARNESS_SCAN_FAMILY)
#undef HARNESS_SCAN_FAMILY

}  // namespace harness
