// The reduction family's part of the batch runner (core/batch.hpp): one output value per run
// between canaries, the oracle's fold judged within the variant's derived bound.
#pragma once

#include "harness/core/api_call.hpp"
#include "harness/core/batch.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/device_image.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class InT, class OutT>
struct ReduceFamily {
  using In = InT;
  using Out = OutT;
  using Mode = kernels::Op;
  static constexpr kernels::Family kFamily = kernels::Family::reduce;
  static constexpr kernels::TypeKey kType = kernels::type_key_v<In, Out>;
  static constexpr const char* kInputName = "input";
  // The public API's names: the mode's parameter and the arrays'.
  static constexpr const char* kModeName = "op";
  static constexpr const char* kApiInputName = "in";
  static constexpr const char* kApiOutputName = "out";
  static constexpr bool kOutputPerElement = false;  // one value, wherever it is
  static constexpr auto kAllModes = kernels::kAllOps;

  static std::vector<Mode> modes(const kernels::VariantInfo& variant) { return variant.ops(kType); }
  static void set_mode(Case& c, Mode op) { c.op = op; }
  static In input_poison(Mode op);

  class Device {
   public:
    Device(const kernels::VariantInfo& variant, Mode op, const std::vector<const TestInput<In>*>& inputs,
           const std::vector<BatchRun>& runs);
    std::size_t workspace_bytes(std::size_t run) const;
    void launch(std::size_t run, const In* input, kernels::Workspace workspace, cudaStream_t stream) const;
    void download();
    std::optional<std::string> judge(std::size_t run);
    std::string pass(std::size_t run) const;
    std::vector<std::byte> output_bits(std::size_t run) const;  // what the run wrote, for repeats
    std::vector<std::pair<std::size_t, std::string>> violations() const;
    template <class F>
    void for_each_extra_input(F&&) const {}

   private:
    const kernels::VariantInfo& variant_;
    Mode op_;
    const std::vector<const TestInput<In>*>& inputs_;
    const std::vector<BatchRun>& runs_;
    DeviceImage<Out> outputs_;
    std::vector<Out> results_;
    std::vector<std::optional<ReduceExpectation<Out>>> expectations_;
  };

  // One call of the public API with poisoned arrays of n elements, outside any batch: the
  // shared rejected-call test changes its arguments one at a time (core/api_call.hpp).
  class ApiCall {
   public:
    ApiCall(const kernels::VariantInfo& variant, Mode op, std::uint64_t n);
    ApiArgs<ReduceFamily> args(kernels::Workspace workspace) const;  // the valid call
    std::size_t workspace_bytes() const;
    void operator()(const ApiArgs<ReduceFamily>& args, cudaStream_t stream) const;
    bool wrote_anything() const;

   private:
    const kernels::VariantInfo& variant_;
    Mode op_;
    std::uint64_t n_;
    DeviceBuffer<In> input_;
    DeviceBuffer<Out> output_;
  };
};

template <class In, class Out>
using ReduceBatch = Batch<ReduceFamily<In, Out>>;

}  // namespace harness
