// The sort family's part of the batch runner (runner/batch.hpp): sorted keys (and, for the
// key-value form, values holding each key's original index) between guard bands of their own,
// judged bit for bit against the oracle's stable sort. The values' input image is read-only like
// the keys'.
#pragma once

#include "harness/memory/device_buffer.hpp"
#include "harness/memory/device_image.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/runner/api_call.hpp"
#include "harness/runner/batch.hpp"

#include <kernels/registry.hpp>
#include <kernels/sort.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class K>
struct SortFamily : FamilyBasics<kernels::Family::sort, K, K, kernels::SortForm> {
  using Mode = kernels::SortForm;
  static constexpr FamilyNames kNames{.input = "keys_in", .api_input = "keys_in", .api_output = "keys_out"};
  static constexpr bool kOutputPerElement = true;

  class Device;  // harness/sort/sort_family.cpp

  // One call of the public API, outside any batch (runner/api_call.hpp).
  class ApiCall : ApiCallBase<Mode> {
   public:
    using ApiCallBase::ApiCallBase;

    // The valid call: keys_in is the first half of the keys, keys_out the second (values alike).
    ApiArgs<SortFamily> args(kernels::Workspace workspace) const {
      return {variant_.name, mode_, keys_.data(), n_, keys_.data() + n_, workspace};
    }
    std::size_t workspace_bytes() const { return kernels::sort_workspace_bytes<K>(variant_.name, mode_, n_); }
    void operator()(const ApiArgs<SortFamily>& a, cudaStream_t stream) const {
      const kernels::SortConfig config{a.block_size};
      if (a.mode == kernels::SortForm::pairs) {
        kernels::sort_pairs<K>(a.variant, a.in, a.out, values_.data(), values_.data() + n_, a.n, a.workspace, config,
                               stream);
      } else {
        kernels::sort_keys<K>(a.variant, a.in, a.out, a.n, a.workspace, config, stream);
      }
    }
    bool wrote_anything() const {
      return bits_of(std::span<const K>(keys_.download())) != bits_of(std::span<const K>(poisoned<K>(2 * n_))) ||
             bits_of(std::span<const std::uint32_t>(values_.download())) !=
                 bits_of(std::span<const std::uint32_t>(poisoned<std::uint32_t>(2 * n_)));
    }

   private:
    template <class T>
    static std::vector<T> poisoned(std::uint64_t count) {
      return std::vector<T>(count, output_poison<T>());
    }

    DeviceBuffer<K> keys_{std::span<const K>(poisoned<K>(2 * n_))};  // keys_in, then keys_out
    // values_in, then values_out (the pairs form)
    DeviceBuffer<std::uint32_t> values_{std::span<const std::uint32_t>(poisoned<std::uint32_t>(2 * n_))};
  };
};

template <class K>
using SortBatch = Batch<SortFamily<K>>;

}  // namespace harness
