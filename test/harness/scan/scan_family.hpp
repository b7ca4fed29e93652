// The scan family's part of the batch runner (core/batch.hpp): each run's output is an array
// between guard bands of its own; an in-place run gets a copy of its input in that slot and
// scans it there. Every output is judged against the oracle's prefix within its bound.
#pragma once

#include "harness/core/api_call.hpp"
#include "harness/core/batch.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/device_image.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class T>
struct ScanFamily {
  using In = T;
  using Out = T;
  using Mode = kernels::ScanKind;
  static constexpr kernels::Family kFamily = kernels::Family::scan;
  static constexpr kernels::TypeKey kType = kernels::type_key_v<T>;
  static constexpr const char* kInputName = "input";
  // The public API's names: the mode's parameter and the arrays'.
  static constexpr const char* kModeName = "kind";
  static constexpr const char* kApiInputName = "in";
  static constexpr const char* kApiOutputName = "out";
  static constexpr bool kOutputPerElement = true;
  static constexpr auto kAllModes = kernels::kAllScanKinds;

  static std::vector<Mode> modes(const kernels::VariantInfo& variant) { return variant.kinds; }
  static void set_mode(Case& c, Mode kind) { c.kind = kind; }
  static T input_poison(Mode);

  class Device {
   public:
    Device(const kernels::VariantInfo& variant, Mode kind, const std::vector<const TestInput<T>*>& inputs,
           const std::vector<BatchRun>& runs);
    std::size_t workspace_bytes(std::size_t run) const;
    void launch(std::size_t run, const T* input, kernels::Workspace workspace, cudaStream_t stream) const;
    void download();
    std::optional<std::string> judge(std::size_t run);
    std::string pass(std::size_t run) const;
    std::vector<std::byte> output_bits(std::size_t run) const;  // what the run wrote, for repeats
    std::vector<std::pair<std::size_t, std::string>> violations() const;
    template <class F>
    void for_each_extra_input(F&&) const {}

   private:
    std::uint64_t length(std::size_t run) const { return inputs_[runs_[run].input]->values.size(); }

    const kernels::VariantInfo& variant_;
    Mode kind_;
    const std::vector<const TestInput<T>*>& inputs_;
    const std::vector<BatchRun>& runs_;
    DeviceImage<T> outputs_;
    std::vector<T> results_;
  };

  // One call of the public API with poisoned arrays of n elements, outside any batch: the
  // shared rejected-call test changes its arguments one at a time (core/api_call.hpp).
  class ApiCall {
   public:
    ApiCall(const kernels::VariantInfo& variant, Mode kind, std::uint64_t n);
    ApiArgs<ScanFamily> args(kernels::Workspace workspace) const;  // the valid call
    std::size_t workspace_bytes() const;
    void operator()(const ApiArgs<ScanFamily>& args, cudaStream_t stream) const;
    bool wrote_anything() const;

   private:
    const kernels::VariantInfo& variant_;
    Mode kind_;
    std::uint64_t n_;
    DeviceBuffer<T> arrays_;  // in, then out
  };
};

template <class T>
using ScanBatch = Batch<ScanFamily<T>>;

}  // namespace harness
