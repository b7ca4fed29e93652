#include "reduce_runner.hpp"

#include "device_buffer.hpp"
#include "gpu_session.hpp"
#include "guard_bands.hpp"
#include "reduce_oracle.hpp"

#include <kernels/reduce.hpp>

#include <algorithm>
#include <optional>

namespace harness {
namespace {

// Workspaces are laid out one after another, each followed by this many canary bytes.
constexpr std::size_t kWorkspaceCanaryBytes = 256;
constexpr unsigned char kWorkspacePoison = 0xA5;

constexpr std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::string failure(const ReduceCase& c, const std::string& what) {
  return "FAIL " + describe(c) + ": " + what + "\n     rerun: " + kcheck_line(c);
}

}  // namespace

template <class In>
ReduceInput<In> make_reduce_input(Distribution distribution, std::uint64_t n, std::uint64_t seed, unsigned offset) {
  return {distribution, seed, offset, generate<In>(distribution, n, seed)};
}

template <class In, class Out>
std::size_t ReduceBatch<In, Out>::add_input(const ReduceInput<In>& input) {
  inputs_.push_back(&input);
  return inputs_.size() - 1;
}

template <class In, class Out>
void ReduceBatch<In, Out>::add_runs_for_all_inputs(int block_size) {
  for (std::size_t k = 0; k < inputs_.size(); ++k) add_run(k, block_size);
}

template <class In, class Out>
ReduceCase ReduceBatch<In, Out>::case_of(const Run& run) const {
  const ReduceInput<In>& input = *inputs_[run.input];
  return {std::string(variant_.name), kernels::type_key_v<In, Out>, op_, run.block_size, input.values.size(),
          input.distribution, input.seed, input.offset};
}

template <class In, class Out>
BatchReport ReduceBatch<In, Out>::run(bool describe_passes) const {
  BatchReport report;
  report.cases = runs_.size();
  if (runs_.empty()) return report;
  std::vector<std::optional<std::string>> problems(runs_.size());

  // Inputs, packed between poison bands.
  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
  std::vector<std::span<const In>> spans;
  for (const ReduceInput<In>* input : inputs_) {
    lengths.push_back(input->values.size());
    shifts.push_back(input->offset);
    spans.emplace_back(input->values);
  }
  const PackedLayout layout = pack_layout<In>(lengths, shifts);
  const std::vector<In> input_image = pack_image<In>(layout, spans, input_poison<In>(op_));
  const DeviceBuffer<In> device_inputs{std::span<const In>(input_image)};

  // Outputs, one slot per run between canaries.
  const std::vector<Out> output_image(output_image_size(runs_.size()), output_poison<Out>());
  const DeviceBuffer<Out> device_outputs{std::span<const Out>(output_image)};

  // Workspaces, each as large as its query says, followed by canary bytes.
  std::vector<std::size_t> workspace_bytes(runs_.size(), 0), workspace_at(runs_.size(), 0);
  std::size_t workspace_total = 0;
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    try {
      workspace_bytes[r] = kernels::reduce_workspace_bytes<In, Out>(variant_.name, op_, lengths[runs_[r].input],
                                                                    {runs_[r].block_size});
    } catch (const std::exception& error) {
      problems[r] = std::string("workspace query threw: ") + error.what();
    }
    workspace_at[r] = workspace_total;
    workspace_total += round_up_256(workspace_bytes[r]) + kWorkspaceCanaryBytes;
  }
  DeviceBuffer<unsigned char> workspace(workspace_total);
  workspace.fill_bytes(kWorkspacePoison);

  const cudaStream_t stream = test_stream();
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    if (problems[r]) continue;
    const Run& run = runs_[r];
    try {
      kernels::reduce<In, Out>(variant_.name, op_, device_inputs.data() + layout.offsets[run.input], lengths[run.input],
                               device_outputs.data() + output_slot(r),
                               {workspace.data() + workspace_at[r], workspace_bytes[r]}, {run.block_size}, stream);
    } catch (const std::exception& error) {
      problems[r] = std::string("reduce threw: ") + error.what();
    }
  }
  const cudaError_t status = cudaStreamSynchronize(stream);
  if (status != cudaSuccess) {
    for (std::size_t r = 0; r < runs_.size(); ++r) {
      report.failures.push_back(failure(case_of(runs_[r]), std::string("the batch's stream failed: ") +
                                                               cudaGetErrorName(status) + " (" +
                                                               cudaGetErrorString(status) + ")"));
    }
    return report;
  }

  const std::vector<Out> outputs = device_outputs.download();
  const std::vector<In> inputs_after = device_inputs.download();
  const std::vector<unsigned char> workspace_after = workspace.download();

  std::vector<std::optional<ReduceExpectation<Out>>> expectations(inputs_.size());
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const Run& run = runs_[r];
    if (!problems[r]) {
      auto& expected = expectations[run.input];
      if (!expected) expected = expect_reduce<In, Out>(op_, spans[run.input]);
      const std::uint64_t depth = expected->exact ? 0 : variant_.accumulation_depth(lengths[run.input], run.block_size);
      problems[r] = judge_reduce(*expected, outputs[output_slot(r)], depth);
    }
    const auto canaries_begin = workspace_after.begin() + static_cast<std::ptrdiff_t>(workspace_at[r] + round_up_256(workspace_bytes[r]));
    const bool workspace_intact = std::all_of(canaries_begin, canaries_begin + kWorkspaceCanaryBytes,
                                              [](unsigned char byte) { return byte == kWorkspacePoison; });
    if (!workspace_intact && !problems[r]) {
      problems[r] = "wrote past the " + std::to_string(workspace_bytes[r]) + " workspace bytes its query asked for";
    }
    if (problems[r]) {
      report.failures.push_back(failure(case_of(run), *problems[r]));
    } else if (describe_passes) {
      report.passes.push_back("PASS " + describe(case_of(run)) + ": got " + show_value(outputs[output_slot(r)]));
    }
  }

  // Writes into the output canaries or anywhere in the (read-only) input image: attributed to
  // the first run whose slot or input they touch.
  for (const std::string& damage : damaged_canaries<Out>(outputs, runs_.size())) {
    report.failures.push_back(failure(case_of(runs_.front()), "output " + damage));
  }
  for (const std::string& change : describe_changes<In>(input_image, inputs_after)) {
    report.failures.push_back(failure(case_of(runs_.front()), "wrote into its input or the guard bands: " + change));
  }
  return report;
}

#define HARNESS_INSTANTIATE_REDUCE_RUNNER(In, Out)                                                           \
  template class ReduceBatch<In, Out>;
HARNESS_INSTANTIATE_REDUCE_RUNNER(int, int)
HARNESS_INSTANTIATE_REDUCE_RUNNER(unsigned, unsigned)
HARNESS_INSTANTIATE_REDUCE_RUNNER(long long, long long)
HARNESS_INSTANTIATE_REDUCE_RUNNER(float, float)
HARNESS_INSTANTIATE_REDUCE_RUNNER(double, double)
HARNESS_INSTANTIATE_REDUCE_RUNNER(int, long long)
#undef HARNESS_INSTANTIATE_REDUCE_RUNNER

template ReduceInput<int> make_reduce_input<int>(Distribution, std::uint64_t, std::uint64_t, unsigned);
template ReduceInput<unsigned> make_reduce_input<unsigned>(Distribution, std::uint64_t, std::uint64_t, unsigned);
template ReduceInput<long long> make_reduce_input<long long>(Distribution, std::uint64_t, std::uint64_t, unsigned);
template ReduceInput<float> make_reduce_input<float>(Distribution, std::uint64_t, std::uint64_t, unsigned);
template ReduceInput<double> make_reduce_input<double>(Distribution, std::uint64_t, std::uint64_t, unsigned);

}  // namespace harness
