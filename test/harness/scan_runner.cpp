#include "scan_runner.hpp"

#include "device_image.hpp"
#include "gpu_session.hpp"
#include "scan_oracle.hpp"
#include "workspace_arena.hpp"

#include <kernels/scan.hpp>

#include <algorithm>
#include <optional>

namespace harness {
namespace {

std::string failure(const ScanCase& c, const std::string& what) {
  return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c);
}

}  // namespace

template <class T>
std::size_t ScanBatch<T>::add_input(const TestInput<T>& input) {
  inputs_.push_back(&input);
  return inputs_.size() - 1;
}

template <class T>
ScanCase ScanBatch<T>::case_of(const Run& run) const {
  const TestInput<T>& input = *inputs_[run.input];
  return {std::string(variant_.name), kernels::type_key_v<T>, kind_, run.block_size, input.values.size(),
          input.distribution, input.seed, input.offset, run.in_place};
}

template <class T>
BatchReport ScanBatch<T>::run(bool describe_passes) const {
  BatchReport report;
  report.cases = runs_.size();
  if (runs_.empty()) return report;
  std::vector<std::optional<std::string>> problems(runs_.size());

  std::vector<std::uint64_t> input_lengths, output_lengths;
  std::vector<unsigned> input_shifts, output_shifts;
  for (const TestInput<T>* input : inputs_) {
    input_lengths.push_back(input->values.size());
    input_shifts.push_back(input->offset);
  }
  for (const Run& run : runs_) {
    output_lengths.push_back(input_lengths[run.input]);
    output_shifts.push_back(input_shifts[run.input]);
  }
  GuardedImage<T> input_image(input_lengths, input_shifts, kArrayGuard, input_poison<T>(kernels::Op::sum));
  GuardedImage<T> output_image(output_lengths, output_shifts, kArrayGuard, output_poison<T>());
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    std::copy(inputs_[k]->values.begin(), inputs_[k]->values.end(), input_image.segment(k).begin());
  }
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    if (!runs_[r].in_place) continue;
    const auto& values = inputs_[runs_[r].input]->values;
    std::copy(values.begin(), values.end(), output_image.segment(r).begin());
  }
  const DeviceImage<T> inputs(std::move(input_image));
  const DeviceImage<T> outputs(std::move(output_image));

  std::vector<std::size_t> workspace_bytes(runs_.size(), 0);
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    try {
      workspace_bytes[r] = kernels::scan_workspace_bytes<T>(variant_.name, kind_, output_lengths[r],
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
    const T* in = run.in_place ? outputs.segment(r) : inputs.segment(run.input);
    try {
      kernels::scan<T>(variant_.name, kind_, in, output_lengths[r], outputs.segment(r), workspaces.slice(r),
                       {run.block_size}, stream);
    } catch (const std::exception& error) {
      problems[r] = std::string("scan threw: ") + error.what();
    }
  }
  const cudaError_t status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) {
    const std::string error = std::string("the batch's stream failed: ") + cudaGetErrorName(status);
    for (const Run& run : runs_) report.failures.push_back(failure(case_of(run), error));
    return report;
  }

  const std::vector<T> results = outputs.download();
  const std::vector<bool> overran = workspaces.overruns();
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    if (!problems[r]) {
      const std::span<const T> got(results.data() + outputs.host().offset(r), output_lengths[r]);
      const std::uint64_t depth = variant_.accumulation_depth(output_lengths[r], run.block_size);
      const Mismatches mismatches = judge_scan<T>(kind_, inputs_[run.input]->values, got, depth);
      if (mismatches.count > 0) problems[r] = mismatches.describe();
    }
    if (!problems[r] && overran[r]) {
      problems[r] = "wrote past the " + std::to_string(workspace_bytes[r]) + " workspace bytes its query asked for";
    }
    if (problems[r]) {
      report.failures.push_back(failure(case_of(run), *problems[r]));
    } else if (describe_passes) {
      report.passes.push_back("PASS " + describe(case_of(run)) + ": all " + std::to_string(output_lengths[r]) +
                              " outputs within the oracle's bounds");
    }
  }
  for (const auto& violation : outputs.host().violations(results, false)) {
    report.failures.push_back(failure(case_of(runs_[violation.segment]), "output: " + violation.what));
  }
  for (const auto& violation : inputs.host().violations(inputs.download(), true)) {
    for (const Run& run : runs_) {
      if (run.input != violation.segment) continue;
      report.failures.push_back(failure(case_of(run), "input: " + violation.what + " (by this or another run of it)"));
      break;
    }
  }
  return report;
}

template class ScanBatch<int>;
template class ScanBatch<unsigned>;
template class ScanBatch<long long>;
template class ScanBatch<float>;
template class ScanBatch<double>;

}  // namespace harness
