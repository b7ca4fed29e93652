#include "harness/reduce/reduce_family.hpp"

#include "harness/core/batch_run.hpp"
#include <kernels/types.hpp>

#include <kernels/reduce.hpp>

namespace harness {
namespace {

std::vector<std::uint64_t> ones(std::size_t count) { return std::vector<std::uint64_t>(count, 1); }

}  // namespace

template <class In, class Out>
In ReduceFamily<In, Out>::input_poison(Mode op) {
  return harness::input_poison<In>(op);
}

template <class In, class Out>
ReduceFamily<In, Out>::Device::Device(const kernels::VariantInfo& variant, Mode op,
                                      const std::vector<const TestInput<In>*>& inputs,
                                      const std::vector<BatchRun>& runs)
    : variant_(variant),
      op_(op),
      inputs_(inputs),
      runs_(runs),
      outputs_(GuardedImage<Out>(ones(runs.size()), std::vector<unsigned>(runs.size(), 0), kValueGuard,
                                 output_poison<Out>())),
      expectations_(inputs.size()) {}

template <class In, class Out>
std::size_t ReduceFamily<In, Out>::Device::workspace_bytes(std::size_t run) const {
  return kernels::reduce_workspace_bytes<In, Out>(variant_.name, op_, inputs_[runs_[run].input]->values.size(),
                                                  {runs_[run].block_size});
}

template <class In, class Out>
void ReduceFamily<In, Out>::Device::launch(std::size_t run, const In* input, kernels::Workspace workspace,
                                           cudaStream_t stream) const {
  kernels::reduce<In, Out>(variant_.name, op_, input, inputs_[runs_[run].input]->values.size(), outputs_.segment(run),
                           workspace, {runs_[run].block_size}, stream);
}

template <class In, class Out>
void ReduceFamily<In, Out>::Device::download() {
  results_ = outputs_.download_segments();
}

template <class In, class Out>
std::optional<std::string> ReduceFamily<In, Out>::Device::judge(std::size_t run) {
  const BatchRun& r = runs_[run];
  auto& expected = expectations_[r.input];
  if (!expected) expected = expect_reduce<In, Out>(op_, inputs_[r.input]->values);
  const std::uint64_t depth = expected->exact ? 0 : variant_.depth_with(inputs_[r.input]->values.size(), r.block_size);
  return judge_reduce(*expected, results_[outputs_.packed_offset(run)], depth);
}

template <class In, class Out>
std::string ReduceFamily<In, Out>::Device::pass(std::size_t run) const {
  return "got " + show_value(results_[outputs_.packed_offset(run)]);
}

template <class In, class Out>
std::vector<std::byte> ReduceFamily<In, Out>::Device::output_bits(std::size_t run) const {
  return bits_of(std::span<const Out>(&results_[outputs_.packed_offset(run)], 1));
}

template <class In, class Out>
std::vector<std::pair<std::size_t, std::string>> ReduceFamily<In, Out>::Device::violations() const {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (const auto& violation : outputs_.band_violations()) {
    found.emplace_back(violation.segment, "output: " + violation.what);
  }
  return found;
}

template <class In, class Out>
ReduceFamily<In, Out>::ApiCall::ApiCall(const kernels::VariantInfo& variant, Mode op, std::uint64_t n)
    : variant_(variant),
      op_(op),
      n_(n),
      input_(std::span<const In>(std::vector<In>(n, In{}))),
      output_(std::span<const Out>(std::vector<Out>{output_poison<Out>()})) {}

template <class In, class Out>
ApiArgs<ReduceFamily<In, Out>> ReduceFamily<In, Out>::ApiCall::args(kernels::Workspace workspace) const {
  return {variant_.name, op_, input_.data(), n_, output_.data(), workspace};
}

template <class In, class Out>
std::size_t ReduceFamily<In, Out>::ApiCall::workspace_bytes() const {
  return kernels::reduce_workspace_bytes<In, Out>(variant_.name, op_, n_);
}

template <class In, class Out>
void ReduceFamily<In, Out>::ApiCall::operator()(const ApiArgs<ReduceFamily>& a, cudaStream_t stream) const {
  kernels::reduce<In, Out>(a.variant, a.mode, a.in, a.n, a.out, a.workspace, {a.block_size}, stream);
}

template <class In, class Out>
bool ReduceFamily<In, Out>::ApiCall::wrote_anything() const {
  const Out poison = output_poison<Out>();
  return bits_of(std::span<const Out>(output_.download())) != bits_of(std::span<const Out>(&poison, 1));
}

#define HARNESS_REDUCE_FAMILY(key, in, out, label) \
  template class Batch<ReduceFamily<in, out>>;     \
  template class ReduceFamily<in, out>::ApiCall;
KERNELS_FOR_EACH_TYPE(HARNESS_REDUCE_FAMILY)
#undef HARNESS_REDUCE_FAMILY

}  // namespace harness
