#include "harness/reduce/reduce_large.hpp"

#include "harness/large/large_input.hpp"
#include "harness/memory/device_buffer.hpp"
#include "harness/memory/guard_bands.hpp"

#include <kernels/reduce.hpp>

namespace harness {
namespace {

std::size_t workspace_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return kernels::is_widening(c.type)
             ? kernels::reduce_workspace_bytes<int, long long>(variant.name, c.op, c.n, {c.block_size})
             : kernels::reduce_workspace_bytes<int, int>(variant.name, c.op, c.n, {c.block_size});
}

// The call's result, downloaded, as the widest type.
template <class Out>
long long reduce_into(const kernels::VariantInfo& variant, const Case& c, const int* input,
                      kernels::Workspace workspace) {
  DeviceBuffer<Out> result(1);
  kernels::reduce<int, Out>(variant.name, c.op, input, c.n, result.data(), workspace, {c.block_size}, test_stream());
  return result.download()[0];
}

std::size_t large_reduce_device_bytes(const kernels::VariantInfo& variant, const Case& c) {
  return (c.n + 2 * kArrayGuard) * sizeof(int) + workspace_bytes(variant, c);
}

BatchReport run_large_reduce(const kernels::VariantInfo& variant, const Case& c) {
  return large_case_report(c, [&]() -> std::vector<LargeProblem> {
    const LargeInputSpec spec = large_input_spec(c.n, c.seed);
    const LargeInputFacts facts = large_input_facts(spec);
    const cudaStream_t stream = test_stream();
    DeviceBuffer<int> buffer(c.n + 2 * kArrayGuard);
    int* const input = buffer.data() + kArrayGuard;
    fill_large_input(input, spec, stream);
    const int poison = input_poison<int>(c.op);
    fill_ints(buffer.data(), kArrayGuard, poison, stream);
    fill_ints(input + c.n, kArrayGuard, poison, stream);
    const std::size_t bytes = workspace_bytes(variant, c);
    DeviceBuffer<unsigned char> workspace(bytes);

    const bool widening = kernels::is_widening(c.type);
    const long long got = widening ? reduce_into<long long>(variant, c, input, {workspace.data(), bytes})
                                   : reduce_into<int>(variant, c, input, {workspace.data(), bytes});
    const long long expected = widening                            ? facts.widened_sum
                               : c.op == kernels::Op::max          ? facts.max
                               : c.op == kernels::Op::min          ? facts.min
                               : c.op == kernels::Op::last_nonzero ? large_input_last_nonzero(spec)
                                                                   : facts.wrapped_sum;
    if (got == expected) return {};
    return {{FailureKind::wrong_value, "got " + std::to_string(got) + ", expected " + std::to_string(expected)}};
  });
}

}  // namespace

const LargeRunner kLargeReduce{large_reduce_device_bytes, run_large_reduce};

}  // namespace harness
