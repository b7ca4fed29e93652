// The scan family's part of the batch runner (runner/batch.hpp): each run's output is an array
// between guard bands of its own; an in-place run gets a copy of its input in that slot and
// scans it there. Every output is judged against the oracle's prefix within its bound.
#pragma once

#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_image.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/runner/api_call.hpp"
#include "harness/runner/batch.hpp"

#include <kernels/registry.hpp>
#include <kernels/scan.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class T>
struct ScanFamily : FamilyBasics<kernels::Family::scan, T, T, ScanMode> {
  using Mode = ScanMode;
  static constexpr FamilyNames kNames{.input = "input", .api_input = "in", .api_output = "out"};
  static constexpr bool kOutputPerElement = true;

  class Device;  // harness/scan/scan_family.cpp

  // One call of the public API, outside any batch (runner/api_call.hpp).
  class ApiCall : ApiCallBase<Mode> {
   public:
    using ApiCallBase::ApiCallBase;

    // The valid call: in is the first half of the arrays, out the second.
    ApiArgs<ScanFamily> args(kernels::Workspace workspace) const {
      return {variant_.name, mode_, arrays_.data(), n_, arrays_.data() + n_, workspace};
    }
    std::size_t workspace_bytes() const {
      return kernels::scan_workspace_bytes<T>(variant_.name, mode_.kind, mode_.op, n_);
    }
    void operator()(const ApiArgs<ScanFamily>& a, cudaStream_t stream) const {
      kernels::scan<T>(a.variant, a.mode.kind, a.mode.op, a.in, a.n, a.out, a.workspace, {a.block_size}, stream);
    }
    bool wrote_anything() const {
      return bits_of(std::span<const T>(arrays_.download())) != bits_of(std::span<const T>(poisoned(2 * n_)));
    }

   private:
    static std::vector<T> poisoned(std::uint64_t count) { return std::vector<T>(count, output_poison<T>()); }

    DeviceBuffer<T> arrays_{std::span<const T>(poisoned(2 * n_))};  // in, then out
  };
};

template <class T>
using ScanBatch = Batch<ScanFamily<T>>;

}  // namespace harness
