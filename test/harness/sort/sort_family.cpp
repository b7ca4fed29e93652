#include "harness/sort/sort_family.hpp"

#include "harness/diagnosis/mismatches.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/runner/batch_run.hpp"
#include "harness/runner/device_judgement.hpp"
#include "harness/sort/sort_device_judge.hpp"
#include "harness/sort/sort_oracle.hpp"

#include <kernels/sort.hpp>
#include <kernels/types.hpp>

#include <algorithm>
#include <list>
#include <numeric>
#include <tuple>

namespace harness {
namespace {

// The oracle's sort of an input, kept for the next batches of the same test: the inputs are a
// function of (distribution, seed, length), and a test runs each with several block sizes in
// each form, one form after the other. The most recent are kept, up to kKeptKeys keys together
// (the newest always): enough for a test's every length, 2^24 + 1 included, so the second form
// finds them all.
template <class K>
const SortExpectation<K>& expectation_of(const TestInput<K>& input) {
  constexpr std::size_t kKeptKeys = std::size_t(1) << 25;
  using Key = std::tuple<Distribution, std::uint64_t, std::uint64_t>;
  static std::list<std::pair<Key, SortExpectation<K>>> recent;
  static std::size_t kept_keys = 0;
  const Key key{input.distribution, input.seed, input.size()};
  for (auto it = recent.begin(); it != recent.end(); ++it) {
    if (it->first == key) {
      recent.splice(recent.begin(), recent, it);
      return recent.front().second;
    }
  }
  recent.emplace_front(key, expect_sort<K>(input.values()));
  kept_keys += input.size();
  while (kept_keys > kKeptKeys && recent.size() > 1) {
    kept_keys -= recent.back().second.keys.size();
    recent.pop_back();
  }
  return recent.front().second;
}

struct Layout {
  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
};

// Segments for the inputs (values: their indices, for the key-value form) or for the runs.
template <class K>
Layout layout(const std::vector<const TestInput<K>*>& inputs, const std::vector<BatchRun>* runs, bool with_values) {
  Layout result;
  const std::size_t count = runs ? runs->size() : inputs.size();
  for (std::size_t i = 0; i < count; ++i) {
    const TestInput<K>& input = *inputs[runs ? (*runs)[i].input : i];
    result.lengths.push_back(with_values ? input.size() : 0);
    result.shifts.push_back(input.offset);
  }
  return result;
}

// 0, 1, 2, ... as long as the longest input: each input's original indices are a prefix.
template <class K>
std::vector<std::uint32_t> indices_for(const std::vector<const TestInput<K>*>& inputs) {
  std::size_t longest = 0;
  for (const TestInput<K>* input : inputs) longest = std::max<std::size_t>(longest, input->size());
  std::vector<std::uint32_t> indices(longest);
  std::iota(indices.begin(), indices.end(), 0u);
  return indices;
}

template <class K>
GuardedImage<std::uint32_t> original_indices(const std::vector<const TestInput<K>*>& inputs, bool pairs,
                                             std::span<const std::uint32_t> indices) {
  const Layout segments = layout(inputs, nullptr, pairs);
  GuardedImage<std::uint32_t> image(segments.lengths, segments.shifts, kArrayGuard,
                                    input_poison<std::uint32_t>(kernels::Op::sum));
  for (std::size_t k = 0; k < inputs.size(); ++k) image.set_contents(k, indices.first(image.length(k)));
  return image;
}

template <class T, class K>
GuardedImage<T> outputs(const std::vector<const TestInput<K>*>& inputs, const std::vector<BatchRun>& runs,
                        bool present) {
  const Layout segments = layout(inputs, &runs, present);
  return GuardedImage<T>(segments.lengths, segments.shifts, kArrayGuard, output_poison<T>());
}

}  // namespace

// Sorted keys (and, for the pairs form, their values: each input key's original index) between
// guard bands, judged on the device (sort/sort_device_judge.hpp); the runs the CPU oracle judges
// too (runner/device_judgement.hpp) against its stable sort, kept across batches
// (expectation_of).
template <class K>
class SortFamily<K>::Device : public BatchDeviceBase<K, Mode> {
 public:
  using BatchDeviceBase<K, Mode>::BatchDeviceBase;

  std::size_t workspace_bytes(std::size_t run) const {
    return kernels::sort_workspace_bytes<K>(this->variant_.name, this->mode_, this->length(run),
                                            {this->block_size(run)});
  }

  void launch(std::size_t run, const K* keys, kernels::Workspace workspace, cudaStream_t stream) const {
    const kernels::SortConfig config{this->block_size(run)};
    if (pairs()) {
      kernels::sort_pairs<K>(this->variant_.name, keys, sorted_keys_.segment(run),
                             values_.segment(this->runs_[run].input), sorted_values_.segment(run), this->length(run),
                             workspace, config, stream);
    } else {
      kernels::sort_keys<K>(this->variant_.name, keys, sorted_keys_.segment(run), this->length(run), workspace, config,
                            stream);
    }
  }

  void download() {
    std::vector<SortJudgeRun<K>> runs;
    std::vector<JudgedRun> sizes;
    for (std::size_t r = 0; r < this->runs_.size(); ++r) {
      const K* in = this->launched_input(r);
      runs.push_back({in, sorted_keys_.segment(r), pairs() ? sorted_values_.segment(r) : nullptr,
                      in == nullptr ? 0 : this->length(r)});
      sizes.push_back({this->length(r), this->block_size(r)});
    }
    if (!judged_on_device()) {
      judgement_.emplace(DeviceJudgement::by_the_oracle(sizes));
      return;
    }
    judgement_.emplace(judge_sorts_on_device<K>(runs), sizes,
                       derive_seed(this->input_of(0).seed, static_cast<std::uint64_t>(this->mode_)),
                       pairs() ? "keys in order, each value an input index whose key it carries, once, stable"
                               : "keys in order, the input's multiset by fingerprint");
  }

  std::optional<std::string> judge(std::size_t run) {
    if (!judgement_->judged_on_host(run)) return judgement_->verdict(run);
    const Mismatches mismatches = judge_sort<K>(expectation_of(this->input_of(run)), keys(run), values(run));
    std::optional<std::string> verdict;
    if (mismatches.count > 0) verdict = mismatches.describe();
    return judgement_->agree(run, std::move(verdict));
  }

  std::string pass(std::size_t run) const {
    return "all " + std::to_string(this->length(run)) + " keys" + (pairs() ? " and values" : "") +
           " as the oracle's stable sort";
  }

  // Where the run wrote, keys then values, for the bit-for-bit check of repeats.
  std::vector<DeviceBytes> output_on_device(std::size_t run) const {
    const std::size_t n = this->length(run);
    return {{sorted_keys_.segment(run), n * sizeof(K)},
            {sorted_values_.segment(run), pairs() ? n * sizeof(std::uint32_t) : 0}};
  }

  std::vector<std::pair<std::size_t, std::string>> violations() const {
    std::vector<std::pair<std::size_t, std::string>> found;
    for (const auto& band : sorted_keys_.band_violations()) found.emplace_back(band.segment, "keys_out: " + band.what);
    for (const auto& band : sorted_values_.band_violations()) {
      found.emplace_back(band.segment, "values_out: " + band.what);
    }
    return found;
  }

  // The values' input (the pairs form) has guard bands of its own.
  template <class F>
  void for_each_extra_input(F&& check) const {
    check(values_, "values_in");
  }

 private:
  bool pairs() const { return this->mode_ == kernels::SortForm::pairs; }
  // A run's output on the host, brought back as it is asked for.
  std::span<const K> keys(std::size_t run) const { return sorted_keys_.segment_on_host(run); }
  std::span<const std::uint32_t> values(std::size_t run) const {
    return pairs() ? sorted_values_.segment_on_host(run) : std::span<const std::uint32_t>();
  }

  // 0, 1, 2, ... (the pairs form): values_ borrows its prefixes.
  std::vector<std::uint32_t> indices_ = pairs() ? indices_for(this->inputs_) : std::vector<std::uint32_t>();
  // Empty segments for the keys form.
  DeviceImage<std::uint32_t> values_{original_indices(this->inputs_, pairs(), indices_),
                                     DeviceImage<std::uint32_t>::Access::read_only};
  DeviceImage<K> sorted_keys_{outputs<K>(this->inputs_, this->runs_, true)};
  DeviceImage<std::uint32_t> sorted_values_{outputs<std::uint32_t>(this->inputs_, this->runs_, pairs())};
  std::optional<DeviceJudgement> judgement_;
};

#define HARNESS_SORT_FAMILY(key, in, out, label) template class Batch<SortFamily<in>>;
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_SORT_FAMILY)
#undef HARNESS_SORT_FAMILY

}  // namespace harness
