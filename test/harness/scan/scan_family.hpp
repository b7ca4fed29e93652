// The scan family's part of the batch runner (core/batch.hpp): each run's output is an array
// between guard bands of its own; an in-place run gets a copy of its input in that slot and
// scans it there. Every output is judged against the oracle's prefix within its bound.
#pragma once

#include "harness/core/batch.hpp"
#include "harness/core/device_image.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class T>
struct ScanFamily {
  using In = T;
  using Mode = kernels::ScanKind;
  static constexpr kernels::Family kFamily = kernels::Family::scan;
  static constexpr kernels::TypeKey kType = kernels::type_key_v<T>;
  static constexpr const char* kInputName = "input";

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
};

template <class T>
using ScanBatch = Batch<ScanFamily<T>>;

}  // namespace harness
