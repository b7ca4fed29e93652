#include "harness/sort/sort_family.hpp"

#include "harness/core/batch_run.hpp"
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
  const Key key{input.distribution, input.seed, input.values.size()};
  for (auto it = recent.begin(); it != recent.end(); ++it) {
    if (it->first == key) {
      recent.splice(recent.begin(), recent, it);
      return recent.front().second;
    }
  }
  recent.emplace_front(key, expect_sort<K>(input.values));
  kept_keys += input.values.size();
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
    result.lengths.push_back(with_values ? input.values.size() : 0);
    result.shifts.push_back(input.offset);
  }
  return result;
}

// 0, 1, 2, ... as long as the longest input: each input's original indices are a prefix.
template <class K>
std::vector<std::uint32_t> indices_for(const std::vector<const TestInput<K>*>& inputs) {
  std::size_t longest = 0;
  for (const TestInput<K>* input : inputs) longest = std::max(longest, input->values.size());
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

template <class K>
K SortFamily<K>::input_poison(Mode) {
  return harness::input_poison<K>(kernels::Op::sum);
}

template <class K>
SortFamily<K>::Device::Device(const kernels::VariantInfo& variant, Mode form,
                              const std::vector<const TestInput<K>*>& inputs, const std::vector<BatchRun>& runs)
    : variant_(variant),
      form_(form),
      inputs_(inputs),
      runs_(runs),
      indices_(form == kernels::SortForm::pairs ? indices_for(inputs) : std::vector<std::uint32_t>()),
      values_(original_indices(inputs, form == kernels::SortForm::pairs, indices_),
              DeviceImage<std::uint32_t>::Access::read_only),
      sorted_keys_(outputs<K>(inputs, runs, true)),
      sorted_values_(outputs<std::uint32_t>(inputs, runs, form == kernels::SortForm::pairs)) {}

template <class K>
std::size_t SortFamily<K>::Device::workspace_bytes(std::size_t run) const {
  return kernels::sort_workspace_bytes<K>(variant_.name, form_, length(run), {runs_[run].block_size});
}

template <class K>
void SortFamily<K>::Device::launch(std::size_t run, const K* keys, kernels::Workspace workspace,
                                   cudaStream_t stream) const {
  const kernels::SortConfig config{runs_[run].block_size};
  if (pairs()) {
    kernels::sort_pairs<K>(variant_.name, keys, sorted_keys_.segment(run), values_.segment(runs_[run].input),
                           sorted_values_.segment(run), length(run), workspace, config, stream);
  } else {
    kernels::sort_keys<K>(variant_.name, keys, sorted_keys_.segment(run), length(run), workspace, config, stream);
  }
}

template <class K>
void SortFamily<K>::Device::download() {
  got_keys_ = sorted_keys_.download_segments();
  got_values_ = sorted_values_.download_segments();
}

template <class K>
std::optional<std::string> SortFamily<K>::Device::judge(std::size_t run) {
  const std::span<const K> keys(got_keys_.data() + sorted_keys_.packed_offset(run), length(run));
  const std::span<const std::uint32_t> values(got_values_.data() + sorted_values_.packed_offset(run),
                                              pairs() ? length(run) : 0);
  const Mismatches mismatches = judge_sort<K>(expectation_of(*inputs_[runs_[run].input]), keys, values);
  if (mismatches.count > 0) return mismatches.describe();
  return std::nullopt;
}

template <class K>
std::string SortFamily<K>::Device::pass(std::size_t run) const {
  return "all " + std::to_string(length(run)) + " keys" + (pairs() ? " and values" : "") +
         " as the oracle's stable sort";
}

template <class K>
std::vector<std::byte> SortFamily<K>::Device::output_bits(std::size_t run) const {
  std::vector<std::byte> bits = bits_of(std::span<const K>(got_keys_.data() + sorted_keys_.packed_offset(run), length(run)));
  const std::vector<std::byte> values = bits_of(
      std::span<const std::uint32_t>(got_values_.data() + sorted_values_.packed_offset(run), pairs() ? length(run) : 0));
  bits.insert(bits.end(), values.begin(), values.end());
  return bits;
}

template <class K>
std::vector<std::pair<std::size_t, std::string>> SortFamily<K>::Device::violations() const {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (const auto& violation : sorted_keys_.band_violations()) {
    found.emplace_back(violation.segment, "keys_out: " + violation.what);
  }
  for (const auto& violation : sorted_values_.band_violations()) {
    found.emplace_back(violation.segment, "values_out: " + violation.what);
  }
  return found;
}

template <class K>
SortFamily<K>::ApiCall::ApiCall(const kernels::VariantInfo& variant, Mode form, std::uint64_t n)
    : variant_(variant),
      form_(form),
      n_(n),
      keys_(std::span<const K>(std::vector<K>(2 * n, output_poison<K>()))),
      values_(std::span<const std::uint32_t>(std::vector<std::uint32_t>(2 * n, output_poison<std::uint32_t>()))) {}

template <class K>
ApiArgs<SortFamily<K>> SortFamily<K>::ApiCall::args(kernels::Workspace workspace) const {
  return {variant_.name, form_, keys_.data(), n_, keys_.data() + n_, workspace};
}

template <class K>
std::size_t SortFamily<K>::ApiCall::workspace_bytes() const {
  return kernels::sort_workspace_bytes<K>(variant_.name, form_, n_);
}

template <class K>
void SortFamily<K>::ApiCall::operator()(const ApiArgs<SortFamily>& a, cudaStream_t stream) const {
  const kernels::SortConfig config{a.block_size};
  if (a.mode == kernels::SortForm::pairs) {
    kernels::sort_pairs<K>(a.variant, a.in, a.out, values_.data(), values_.data() + n_, a.n, a.workspace, config, stream);
  } else {
    kernels::sort_keys<K>(a.variant, a.in, a.out, a.n, a.workspace, config, stream);
  }
}

template <class K>
bool SortFamily<K>::ApiCall::wrote_anything() const {
  return bits_of(std::span<const K>(keys_.download())) !=
             bits_of(std::span<const K>(std::vector<K>(2 * n_, output_poison<K>()))) ||
         bits_of(std::span<const std::uint32_t>(values_.download())) !=
             bits_of(std::span<const std::uint32_t>(std::vector<std::uint32_t>(2 * n_, output_poison<std::uint32_t>())));
}

#define HARNESS_SORT_FAMILY(key, in, out, label) \
  template class Batch<SortFamily<in>>;          \
  template class SortFamily<in>::ApiCall;
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_SORT_FAMILY)
#undef HARNESS_SORT_FAMILY

}  // namespace harness
