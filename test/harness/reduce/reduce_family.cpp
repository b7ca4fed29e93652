#include "harness/reduce/reduce_family.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/reduce/reduce_device_judge.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/runner/batch_run.hpp"
#include "harness/runner/device_judgement.hpp"

#include <kernels/reduce.hpp>
#include <kernels/types.hpp>

namespace harness {
namespace {

// One value per run, between canaries.
template <class Out>
GuardedImage<Out> value_slots(std::size_t runs) {
  return GuardedImage<Out>(std::vector<std::uint64_t>(runs, 1), std::vector<unsigned>(runs, 0), kValueGuard,
                           output_poison<Out>());
}

}  // namespace

// One output value per run between canaries; the oracle's fold, computed once per input, judged
// within the variant's derived bound. Integer reductions are judged on the device, exactly: each
// run's value against its input's exact fold there (reduce/reduce_device_judge.hpp), and the
// oracle folds only the inputs of the runs the CPU judges too (runner/device_judgement.hpp).
template <class In, class Out>
class ReduceFamily<In, Out>::Device : public BatchDeviceBase<In, Mode> {
 public:
  using BatchDeviceBase<In, Mode>::BatchDeviceBase;

  std::size_t workspace_bytes(std::size_t run) const {
    return kernels::reduce_workspace_bytes<In, Out>(this->variant_.name, this->mode_, this->length(run),
                                                    {this->block_size(run)});
  }

  void launch(std::size_t run, const In* input, kernels::Workspace workspace, cudaStream_t stream) const {
    kernels::reduce<In, Out>(this->variant_.name, this->mode_, input, this->length(run), outputs_.segment(run),
                             workspace, {this->block_size(run)}, stream);
  }

  // The host judges every run of the other modes: each input's expectation is made here, on the
  // host's cores, and judge() only reads it.
  void download() {
    results_ = outputs_.download_segments();
    if (folds_on_device<In, Out>(this->mode_)) {
      judge_on_device();
      return;
    }
    std::uint64_t values = 0;
    for (const TestInput<In>* input : this->inputs_) values += input->values.size();
    const std::size_t grain = values >= kValuesWorthSplitting ? 1 : this->inputs_.size();
    timed(Phase::judge, [&] {
      parallel_for(this->inputs_.size(), grain, [this](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k)
          expectations_[k] = expect_reduce<In, Out>(this->mode_, this->inputs_[k]->values);
      });
    });
  }

  bool judges_runs_at_once() const { return !judgement_; }

  std::optional<std::string> judge(std::size_t run) {
    if (judgement_ && !judgement_->judged_on_host(run)) return judgement_->verdict(run);
    const BatchRun& r = this->runs_[run];
    auto& expected = expectations_[r.input];
    if (!expected) expected = expect_reduce<In, Out>(this->mode_, this->inputs_[r.input]->values);
    const std::uint64_t depth = expected->exact ? 0 : this->variant_.depth_with(this->length(run), r.block_size);
    std::optional<std::string> verdict = judge_reduce(*expected, got(run), depth);
    return judgement_ ? judgement_->agree(run, std::move(verdict)) : verdict;
  }

  std::string pass(std::size_t run) const { return "got " + show_value(got(run)); }

  // What the run wrote, for the bit-for-bit check of repeats.
  std::vector<std::byte> output_bits(std::size_t run) const {
    return bits_of(std::span<const Out>(&results_[outputs_.packed_offset(run)], 1));
  }

  // The canaries around each value (written anywhere but its slot).
  std::vector<std::pair<std::size_t, std::string>> violations() const {
    std::vector<std::pair<std::size_t, std::string>> found;
    for (const auto& band : outputs_.band_violations()) found.emplace_back(band.segment, "output: " + band.what);
    return found;
  }

  template <class F>
  void for_each_extra_input(F&&) const {}  // a reduction reads one input

 private:
  const Out& got(std::size_t run) const { return results_[outputs_.packed_offset(run)]; }

  // Each input's exact fold on the device (from the first run that read it), against every run of it.
  void judge_on_device() {
    std::vector<ReduceJudgeInput<In>> inputs(this->inputs_.size(), ReduceJudgeInput<In>{nullptr, 0});
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      ReduceJudgeInput<In>& input = inputs[this->runs_[r].input];
      if (input.in == nullptr && this->launched_input(r) != nullptr) input = {this->launched_input(r), this->length(r)};
    }
    const std::vector<Out> folds = exact_folds_on_device<In, Out>(this->mode_, inputs);
    std::vector<DeviceVerdict> verdicts;
    std::vector<JudgedRun> sizes;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      const bool right = this->launched_input(r) == nullptr || got(r) == folds[this->runs_[r].input];
      verdicts.push_back(right ? DeviceVerdict{} : DeviceVerdict{1, kNoBadIndex});
      sizes.push_back({this->length(r), this->block_size(r)});
    }
    judgement_.emplace(std::move(verdicts), sizes,
                       derive_seed(this->input_of(0).seed, static_cast<std::uint64_t>(this->mode_)),
                       "the value equals its input's exact fold on the device");
  }

  DeviceImage<Out> outputs_{value_slots<Out>(this->runs_.size())};
  std::vector<Out> results_;
  std::optional<DeviceJudgement> judgement_;
  // The oracle's result of each input: made in download() where the host judges every run, else
  // when a run of it is first judged on the host.
  std::vector<std::optional<ReduceExpectation<Out>>> expectations_ =
      std::vector<std::optional<ReduceExpectation<Out>>>(this->inputs_.size());
};

#define HARNESS_REDUCE_FAMILY(key, in, out, label) template class Batch<ReduceFamily<in, out>>;
KERNELS_FOR_EACH_TYPE(HARNESS_REDUCE_FAMILY)
#undef HARNESS_REDUCE_FAMILY

}  // namespace harness
