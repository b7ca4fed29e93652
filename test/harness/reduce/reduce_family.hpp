// The reduction family's part of the batch runner (runner/batch.hpp): one output value per run
// between canaries, the oracle's fold judged within the variant's derived bound.
#pragma once

#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_image.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/reduce/reduce_oracle.hpp"
#include "harness/runner/api_call.hpp"
#include "harness/runner/batch.hpp"

#include <kernels/reduce.hpp>
#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class In, class Out>
struct ReduceFamily : FamilyBasics<kernels::Family::reduce, In, Out, kernels::Op> {
  using Mode = kernels::Op;
  static constexpr FamilyNames kNames{.input = "input", .api_input = "in", .api_output = "out"};
  static constexpr bool kOutputPerElement = false;  // one value, wherever it is

  class Device;  // harness/reduce/reduce_family.cpp

  // One call of the public API, outside any batch (runner/api_call.hpp).
  class ApiCall : ApiCallBase<Mode> {
   public:
    using ApiCallBase::ApiCallBase;

    // The valid call.
    ApiArgs<ReduceFamily> args(kernels::Workspace workspace) const {
      return {variant_.name, mode_, input_.data(), n_, output_.data(), workspace};
    }
    std::size_t workspace_bytes() const { return kernels::reduce_workspace_bytes<In, Out>(variant_.name, mode_, n_); }
    void operator()(const ApiArgs<ReduceFamily>& a, cudaStream_t stream) const {
      kernels::reduce<In, Out>(a.variant, a.mode, a.in, a.n, a.out, a.workspace, {a.block_size}, stream);
    }
    // Whether the output's one value is no longer the poison it started as.
    bool wrote_anything() const {
      const Out poison = output_poison<Out>();
      return bits_of(std::span<const Out>(output_.download())) != bits_of(std::span<const Out>(&poison, 1));
    }

   private:
    DeviceBuffer<In> input_{std::span<const In>(std::vector<In>(n_, In{}))};
    DeviceBuffer<Out> output_{std::span<const Out>(std::vector<Out>{output_poison<Out>()})};
  };
};

template <class In, class Out>
using ReduceBatch = Batch<ReduceFamily<In, Out>>;

}  // namespace harness
