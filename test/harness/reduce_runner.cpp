#include "reduce_runner.hpp"

#include "device_image.hpp"
#include "gpu_session.hpp"
#include "reduce_oracle.hpp"
#include "workspace_arena.hpp"

#include <kernels/reduce.hpp>

#include <optional>

namespace harness {
namespace {

std::string failure(const ReduceCase& c, const std::string& what) {
  return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c);
}

}  // namespace

template <class In, class Out>
std::size_t ReduceBatch<In, Out>::add_input(const TestInput<In>& input) {
  inputs_.push_back(&input);
  return inputs_.size() - 1;
}

template <class In, class Out>
ReduceCase ReduceBatch<In, Out>::case_of(const Run& run) const {
  const TestInput<In>& input = *inputs_[run.input];
  return {std::string(variant_.name), kernels::type_key_v<In, Out>, op_, run.block_size, input.values.size(),
          input.distribution, input.seed, input.offset};
}

template <class In, class Out>
BatchReport ReduceBatch<In, Out>::run(bool describe_passes) const {
  BatchReport report;
  report.cases = runs_.size();
  if (runs_.empty()) return report;
  std::vector<std::optional<std::string>> problems(runs_.size());

  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
  for (const TestInput<In>* input : inputs_) {
    lengths.push_back(input->values.size());
    shifts.push_back(input->offset);
  }
  GuardedImage<In> input_image(lengths, shifts, kArrayGuard, input_poison<In>(op_));
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    std::copy(inputs_[k]->values.begin(), inputs_[k]->values.end(), input_image.segment(k).begin());
  }
  const DeviceImage<In> inputs(std::move(input_image));
  const std::vector<std::uint64_t> ones(runs_.size(), 1);
  const std::vector<unsigned> no_shifts(runs_.size(), 0);
  const DeviceImage<Out> outputs(GuardedImage<Out>(ones, no_shifts, kValueGuard, output_poison<Out>()));

  std::vector<std::size_t> workspace_bytes(runs_.size(), 0);
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    try {
      workspace_bytes[r] = kernels::reduce_workspace_bytes<In, Out>(variant_.name, op_, lengths[runs_[r].input],
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
      kernels::reduce<In, Out>(variant_.name, op_, inputs.segment(run.input), lengths[run.input], outputs.segment(r),
                               workspaces.slice(r), {run.block_size}, stream);
    } catch (const std::exception& error) {
      problems[r] = std::string("reduce threw: ") + error.what();
    }
  }
  const cudaError_t status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) {
    const std::string error = std::string("the batch's stream failed: ") + cudaGetErrorName(status);
    for (const Run& run : runs_) report.failures.push_back(failure(case_of(run), error));
    return report;
  }

  const std::vector<Out> results = outputs.download();
  const std::vector<bool> overran = workspaces.overruns();
  std::vector<std::optional<ReduceExpectation<Out>>> expectations(inputs_.size());
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    const Out got = results[outputs.host().offset(r)];
    if (!problems[r]) {
      auto& expected = expectations[run.input];
      if (!expected) expected = expect_reduce<In, Out>(op_, inputs_[run.input]->values);
      const std::uint64_t depth = expected->exact ? 0 : variant_.accumulation_depth(lengths[run.input], run.block_size);
      problems[r] = judge_reduce(*expected, got, depth);
    }
    if (!problems[r] && overran[r]) {
      problems[r] = "wrote past the " + std::to_string(workspace_bytes[r]) + " workspace bytes its query asked for";
    }
    if (problems[r]) {
      report.failures.push_back(failure(case_of(run), *problems[r]));
    } else if (describe_passes) {
      report.passes.push_back("PASS " + describe(case_of(run)) + ": got " + show_value(got));
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

#define HARNESS_INSTANTIATE_REDUCE_RUNNER(In, Out) template class ReduceBatch<In, Out>;
HARNESS_INSTANTIATE_REDUCE_RUNNER(int, int)
HARNESS_INSTANTIATE_REDUCE_RUNNER(unsigned, unsigned)
HARNESS_INSTANTIATE_REDUCE_RUNNER(long long, long long)
HARNESS_INSTANTIATE_REDUCE_RUNNER(float, float)
HARNESS_INSTANTIATE_REDUCE_RUNNER(double, double)
HARNESS_INSTANTIATE_REDUCE_RUNNER(int, long long)
#undef HARNESS_INSTANTIATE_REDUCE_RUNNER


}  // namespace harness
