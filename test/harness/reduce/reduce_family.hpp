// The reduction family's part of the batch runner (core/batch.hpp): one output value per run
// between canaries, the oracle's fold judged within the variant's derived bound.
#pragma once

#include "harness/core/batch.hpp"
#include "harness/core/device_image.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

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
};

template <class In, class Out>
using ReduceBatch = Batch<ReduceFamily<In, Out>>;

}  // namespace harness
