#include "sort_runner.hpp"

#include "device_image.hpp"
#include "gpu_session.hpp"
#include "sort_oracle.hpp"
#include "workspace_arena.hpp"

#include <kernels/sort.hpp>

#include <algorithm>
#include <list>
#include <tuple>
#include <numeric>
#include <optional>

namespace harness {
namespace {

std::string failure(const SortCase& c, const std::string& what) {
  return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c);
}

// The oracle's sort of an input, kept for the next batches of the same test: the inputs are a
// function of (distribution, seed, length), and tests run each with several block sizes and
// forms. The two most recent are kept.
template <class K>
const SortExpectation<K>& expectation_of(const TestInput<K>& input) {
  using Key = std::tuple<Distribution, std::uint64_t, std::uint64_t>;
  static std::list<std::pair<Key, SortExpectation<K>>> recent;
  const Key key{input.distribution, input.seed, input.values.size()};
  for (auto it = recent.begin(); it != recent.end(); ++it) {
    if (it->first == key) {
      recent.splice(recent.begin(), recent, it);
      return recent.front().second;
    }
  }
  recent.emplace_front(key, expect_sort<K>(input.values));
  if (recent.size() > 2) recent.pop_back();
  return recent.front().second;
}

}  // namespace

template <class K>
std::size_t SortBatch<K>::add_input(const TestInput<K>& input) {
  inputs_.push_back(&input);
  return inputs_.size() - 1;
}

template <class K>
SortCase SortBatch<K>::case_of(const Run& run) const {
  const TestInput<K>& input = *inputs_[run.input];
  return {std::string(variant_.name), kernels::type_key_v<K>, form_, run.block_size, input.values.size(),
          input.distribution, input.seed, input.offset};
}

template <class K>
BatchReport SortBatch<K>::run(bool describe_passes) const {
  BatchReport report;
  report.cases = runs_.size();
  if (runs_.empty()) return report;
  const bool pairs = form_ == kernels::SortForm::pairs;
  std::vector<std::optional<std::string>> problems(runs_.size());

  std::vector<std::uint64_t> input_lengths, output_lengths;
  std::vector<unsigned> input_shifts, output_shifts;
  for (const TestInput<K>* input : inputs_) {
    input_lengths.push_back(input->values.size());
    input_shifts.push_back(input->offset);
  }
  for (const Run& run : runs_) {
    output_lengths.push_back(input_lengths[run.input]);
    output_shifts.push_back(input_shifts[run.input]);
  }
  // Values: every key's original index (the key-value form only; empty segments otherwise).
  const std::vector<std::uint64_t> value_lengths = pairs ? input_lengths : std::vector<std::uint64_t>(inputs_.size());
  const std::vector<std::uint64_t> output_value_lengths =
      pairs ? output_lengths : std::vector<std::uint64_t>(runs_.size());
  GuardedImage<K> key_image(input_lengths, input_shifts, kArrayGuard, input_poison<K>(kernels::Op::sum));
  GuardedImage<std::uint32_t> value_image(value_lengths, input_shifts, kArrayGuard,
                                          input_poison<std::uint32_t>(kernels::Op::sum));
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    std::copy(inputs_[k]->values.begin(), inputs_[k]->values.end(), key_image.segment(k).begin());
    std::iota(value_image.segment(k).begin(), value_image.segment(k).end(), 0u);
  }
  const DeviceImage<K> keys(std::move(key_image));
  const DeviceImage<std::uint32_t> values(std::move(value_image));
  const DeviceImage<K> sorted_keys(GuardedImage<K>(output_lengths, output_shifts, kArrayGuard, output_poison<K>()));
  const DeviceImage<std::uint32_t> sorted_values(GuardedImage<std::uint32_t>(
      output_value_lengths, output_shifts, kArrayGuard, output_poison<std::uint32_t>()));

  std::vector<std::size_t> workspace_bytes(runs_.size(), 0);
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    try {
      workspace_bytes[r] = kernels::sort_workspace_bytes<K>(variant_.name, form_, output_lengths[r],
                                                            {runs_[r].block_size});
    } catch (const std::exception& error) {
      problems[r] = std::string("workspace query threw: ") + error.what();
    }
  }
  const WorkspaceArena workspaces(workspace_bytes);

  const cudaStream_t stream = test_stream();
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    if (problems[r]) continue;
    const Run& run = runs_[r];
    try {
      if (pairs) {
        kernels::sort_pairs<K>(variant_.name, keys.segment(run.input), sorted_keys.segment(r),
                               values.segment(run.input), sorted_values.segment(r), output_lengths[r],
                               workspaces.slice(r), {run.block_size}, stream);
      } else {
        kernels::sort_keys<K>(variant_.name, keys.segment(run.input), sorted_keys.segment(r), output_lengths[r],
                              workspaces.slice(r), {run.block_size}, stream);
      }
    } catch (const std::exception& error) {
      problems[r] = std::string("sort threw: ") + error.what();
    }
  }
  const cudaError_t status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) {
    const std::string error = std::string("the batch's stream failed: ") + cudaGetErrorName(status);
    for (const Run& run : runs_) report.failures.push_back(failure(case_of(run), error));
    return report;
  }

  const std::vector<K> got_keys = sorted_keys.download();
  const std::vector<std::uint32_t> got_values = sorted_values.download();
  const std::vector<bool> overran = workspaces.overruns();
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    if (!problems[r]) {
      const std::span<const K> keys_out(got_keys.data() + sorted_keys.host().offset(r), output_lengths[r]);
      const std::span<const std::uint32_t> values_out(got_values.data() + sorted_values.host().offset(r),
                                                      output_value_lengths[r]);
      const Mismatches mismatches = judge_sort<K>(expectation_of(*inputs_[run.input]), keys_out, values_out);
      if (mismatches.count > 0) problems[r] = mismatches.describe();
    }
    if (!problems[r] && overran[r]) {
      problems[r] = "wrote past the " + std::to_string(workspace_bytes[r]) + " workspace bytes its query asked for";
    }
    if (problems[r]) {
      report.failures.push_back(failure(case_of(run), *problems[r]));
    } else if (describe_passes) {
      report.passes.push_back("PASS " + describe(case_of(run)) + ": all " + std::to_string(output_lengths[r]) +
                              " keys" + (pairs ? " and values" : "") + " as the oracle's stable sort");
    }
  }
  for (const auto& violation : sorted_keys.host().violations(got_keys, false)) {
    report.failures.push_back(failure(case_of(runs_[violation.segment]), "keys_out: " + violation.what));
  }
  for (const auto& violation : sorted_values.host().violations(got_values, false)) {
    report.failures.push_back(failure(case_of(runs_[violation.segment]), "values_out: " + violation.what));
  }
  const auto input_violations = [&](const auto& image, const char* what) {
    for (const auto& violation : image.host().violations(image.download(), true)) {
      for (const Run& run : runs_) {
        if (run.input != violation.segment) continue;
        report.failures.push_back(failure(case_of(run), what + (": " + violation.what) + " (by this or another run of it)"));
        break;
      }
    }
  };
  input_violations(keys, "keys_in");
  input_violations(values, "values_in");
  return report;
}

template class SortBatch<int>;
template class SortBatch<unsigned>;
template class SortBatch<long long>;
template class SortBatch<float>;
template class SortBatch<double>;

}  // namespace harness
