#include "harness/reduce/reduce_family.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/numeric/element_traits.hpp"
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

// One output value per run between canaries, judged on the device (reduce/reduce_device_judge.hpp):
// each run's value against its input's exact fold there (integers, float max and min), or by the
// oracle's rules against the facts of its input's float sum made there. The oracle folds only
// the inputs of the runs the CPU judges too (runner/device_judgement.hpp), and every input of an
// op the device has no fold of.
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

  void download() {
    results_ = outputs_.download_segments();
    if (!judged_on_device()) return;  // the oracle judges every run
    if (folds_on_device<In, Out>(this->mode_)) {
      judge_folds_on_device();
    } else if constexpr (is_float_v<Out>) {
      if (this->mode_ == kernels::Op::sum) judge_sums_on_device();
    }
  }

  std::optional<std::string> judge(std::size_t run) {
    if (judgement_ && !judgement_->judged_on_host(run)) return judgement_->verdict(run);
    std::optional<std::string> verdict = judge_on_host(run, oracle_expectation(this->runs_[run].input));
    return judgement_ ? judgement_->agree(run, std::move(verdict)) : verdict;
  }

  std::string pass(std::size_t run) const { return "got " + show_value(got(run)); }

  // Where the run wrote, for the bit-for-bit check of repeats.
  std::vector<DeviceBytes> output_on_device(std::size_t run) const { return {{outputs_.segment(run), sizeof(Out)}}; }

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

  std::optional<std::string> judge_on_host(std::size_t run, const ReduceExpectation<Out>& expected) const {
    const BatchRun& r = this->runs_[run];
    const std::uint64_t depth = expected.exact ? 0 : this->variant_.depth_with(this->length(run), r.block_size);
    return judge_reduce(expected, got(run), depth, this->variant_.zero_sum == kernels::ZeroSum::positive);
  }

  // The oracle's result of an input, made when a run of it is first judged on the host.
  const ReduceExpectation<Out>& oracle_expectation(std::size_t input) {
    auto& expected = expectations_[input];
    if (!expected) expected = expect_reduce<In, Out>(this->mode_, this->inputs_[input]->values());
    return *expected;
  }

  // Each input's device pointer (from the first run that read it) and length.
  std::vector<ReduceJudgeInput<In>> judged_inputs() const {
    std::vector<ReduceJudgeInput<In>> inputs(this->inputs_.size(), ReduceJudgeInput<In>{nullptr, 0});
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      ReduceJudgeInput<In>& input = inputs[this->runs_[r].input];
      if (input.in == nullptr && this->launched_input(r) != nullptr) input = {this->launched_input(r), this->length(r)};
    }
    return inputs;
  }

  void judge_folds_on_device() {
    const std::vector<Out> folds = exact_folds_on_device<In, Out>(this->mode_, judged_inputs());
    std::vector<DeviceVerdict> verdicts;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      const bool right = this->launched_input(r) == nullptr || same_value(got(r), folds[this->runs_[r].input]);
      verdicts.push_back(right ? DeviceVerdict{} : DeviceVerdict{1, kNoBadIndex});
    }
    settle(std::move(verdicts), "the value equals its input's exact fold on the device");
  }

  // The oracle's rules against each input's facts from the device; an input whose sums leave the
  // doubles is the oracle's to fold.
  void judge_sums_on_device() {
    const std::vector<PrefixSumFacts> facts = sum_facts_on_device<In>(judged_inputs());
    std::vector<DeviceVerdict> verdicts;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      const PrefixSumFacts& input = facts[this->runs_[r].input];
      if (this->launched_input(r) == nullptr) {
        verdicts.emplace_back();
      } else if (input.judged_by_oracle()) {
        verdicts.push_back({0, kNoBadIndex, true});
      } else {
        const bool right = !judge_on_host(r, expectation_from(input)).has_value();
        verdicts.push_back(right ? DeviceVerdict{} : DeviceVerdict{1, kNoBadIndex});
      }
    }
    settle(std::move(verdicts), "the value within the oracle's bound of its input's sum, its facts made on the device");
  }

  // The sum's expectation from the device's facts: what FloatSumFacts holds after the same terms
  // (a sum that stayed within the doubles).
  static ReduceExpectation<Out> expectation_from(const PrefixSumFacts& device) {
    using F = PrefixSumFacts;
    ReduceExpectation<Out> expected;
    expected.exact = false;
    FloatSumFacts& facts = expected.facts;
    facts.count = device.count;
    facts.high = device.high;
    facts.low = device.low;
    facts.abs_sum = device.abs_sum;
    facts.has_nan = device.flags & F::kNaN;
    facts.has_pos_inf = device.flags & F::kPositiveInfinity;
    facts.has_neg_inf = device.flags & F::kNegativeInfinity;
    facts.has_positive = device.flags & F::kPositive;
    facts.has_negative = device.flags & F::kNegative;
    facts.all_zero = device.flags & F::kAllZero;
    facts.all_negative_zero = device.flags & F::kAllNegativeZero;
    return expected;
  }

  void settle(std::vector<DeviceVerdict> verdicts, std::string check) {
    std::vector<JudgedRun> sizes;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) sizes.push_back({this->length(r), this->block_size(r)});
    judgement_.emplace(std::move(verdicts), sizes,
                       derive_seed(this->input_of(0).seed, static_cast<std::uint64_t>(this->mode_)), std::move(check));
  }

  DeviceImage<Out> outputs_{value_slots<Out>(this->runs_.size())};
  std::vector<Out> results_;
  std::optional<DeviceJudgement> judgement_;
  std::vector<std::optional<ReduceExpectation<Out>>> expectations_ =
      std::vector<std::optional<ReduceExpectation<Out>>>(this->inputs_.size());
};

#define HARNESS_REDUCE_FAMILY(key, in, out, label) template class Batch<ReduceFamily<in, out>>;
KERNELS_FOR_EACH_TYPE(HARNESS_REDUCE_FAMILY)
#undef HARNESS_REDUCE_FAMILY

}  // namespace harness
