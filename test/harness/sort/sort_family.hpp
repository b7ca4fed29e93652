// The sort family's part of the batch runner (core/batch.hpp): sorted keys (and, for the
// key-value form, values holding each key's original index) between guard bands of their own,
// judged bit for bit against the oracle's stable sort. The values' input image is read-only like
// the keys'.
#pragma once

#include "harness/core/api_call.hpp"
#include "harness/core/batch.hpp"
#include "harness/core/device_buffer.hpp"
#include "harness/core/device_image.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness {

template <class K>
struct SortFamily {
  using In = K;
  using Out = K;
  using Mode = kernels::SortForm;
  static constexpr kernels::Family kFamily = kernels::Family::sort;
  static constexpr kernels::TypeKey kType = kernels::type_key_v<K>;
  static constexpr const char* kInputName = "keys_in";
  // The public API's names: the mode's parameter and the arrays'.
  static constexpr const char* kModeName = "form";
  static constexpr const char* kApiInputName = "keys_in";
  static constexpr const char* kApiOutputName = "keys_out";
  static constexpr bool kOutputPerElement = true;
  static constexpr auto kAllModes = kernels::kAllSortForms;

  static std::vector<Mode> modes(const kernels::VariantInfo& variant) { return variant.forms; }
  static void set_mode(Case& c, Mode form) { c.form = form; }
  static K input_poison(Mode);

  class Device {
   public:
    Device(const kernels::VariantInfo& variant, Mode form, const std::vector<const TestInput<K>*>& inputs,
           const std::vector<BatchRun>& runs);
    std::size_t workspace_bytes(std::size_t run) const;
    void launch(std::size_t run, const K* keys, kernels::Workspace workspace, cudaStream_t stream) const;
    void download();
    std::optional<std::string> judge(std::size_t run);
    std::string pass(std::size_t run) const;
    std::vector<std::byte> output_bits(std::size_t run) const;  // what the run wrote, for repeats
    std::vector<std::pair<std::size_t, std::string>> violations() const;
    template <class F>
    void for_each_extra_input(F&& check) const {
      check(values_, "values_in");
    }

   private:
    bool pairs() const { return form_ == kernels::SortForm::pairs; }
    std::uint64_t length(std::size_t run) const { return inputs_[runs_[run].input]->values.size(); }

    const kernels::VariantInfo& variant_;
    Mode form_;
    const std::vector<const TestInput<K>*>& inputs_;
    const std::vector<BatchRun>& runs_;
    std::vector<std::uint32_t> indices_;  // 0, 1, 2, ... (the pairs form): values_ borrows its prefixes
    DeviceImage<std::uint32_t> values_;  // empty segments for the keys form
    DeviceImage<K> sorted_keys_;
    DeviceImage<std::uint32_t> sorted_values_;
    std::vector<K> got_keys_;
    std::vector<std::uint32_t> got_values_;
  };

  // One call of the public API with poisoned arrays of n elements, outside any batch: the
  // shared rejected-call test changes its arguments one at a time (core/api_call.hpp).
  class ApiCall {
   public:
    ApiCall(const kernels::VariantInfo& variant, Mode form, std::uint64_t n);
    ApiArgs<SortFamily> args(kernels::Workspace workspace) const;  // the valid call
    std::size_t workspace_bytes() const;
    void operator()(const ApiArgs<SortFamily>& args, cudaStream_t stream) const;
    bool wrote_anything() const;

   private:
    const kernels::VariantInfo& variant_;
    Mode form_;
    std::uint64_t n_;
    DeviceBuffer<K> keys_;  // keys_in, then keys_out
    DeviceBuffer<std::uint32_t> values_;  // values_in, then values_out (the pairs form)
  };
};

template <class K>
using SortBatch = Batch<SortFamily<K>>;

}  // namespace harness
