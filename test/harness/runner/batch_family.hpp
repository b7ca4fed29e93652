// What a family must provide for the one batch runner (runner/batch.hpp) to run its cases: its
// element types and mode, its names in failure reports, and a Device that owns a batch's outputs
// on the device, launches each run and judges it against the oracle. Each family states it once
// (harness/<family>/<family>_family.hpp and .cpp); a family that misses a part fails here, by
// name.
#pragma once

#include "harness/input/test_input.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/runner/case.hpp"

#include <kernels/registry.hpp>
#include <kernels/workspace.hpp>

#include <cuda_runtime_api.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness {

// One run of a batch: which input, with which block size, in place or not.
struct BatchRun {
  std::size_t input;
  int block_size;
  bool in_place;

  // Equal runs are repeats of one case.
  bool operator==(const BatchRun&) const = default;
};

// The names a family's reports and rejected calls use: its input as guard-band reports name it,
// and the public API's array parameters.
struct FamilyNames {
  const char* input;
  const char* api_input;
  const char* api_output;
};

// A scan's mode: its kind and its op.
struct ScanMode {
  kernels::ScanKind kind = kernels::ScanKind::inclusive;
  kernels::Op op = kernels::Op::sum;
  bool operator==(const ScanMode&) const = default;
};

// A family's mode by its type: every value of it, those a variant declares for a type, its
// fields of a Case, the op whose identity pads inputs (the family's own; the sum's for sorts),
// and the API parameter a call in an undeclared mode is rejected for.
template <class Mode>
struct ModeOf;
template <>
struct ModeOf<kernels::Op> {
  static std::vector<kernels::Op> all() { return kernels::all_ops(); }
  static std::vector<kernels::Op> declared(const kernels::VariantInfo& v, kernels::TypeKey t) { return v.ops(t); }
  static void set(Case& c, kernels::Op op) { c.op = op; }
  static kernels::Op padding_op(kernels::Op op) { return op; }
  static const char* parameter(const kernels::VariantInfo&, kernels::Op) { return "op"; }
};
template <>
struct ModeOf<ScanMode> {
  static std::vector<ScanMode> all() {
    std::vector<ScanMode> modes;
    for (kernels::ScanKind kind : kernels::kAllScanKinds) {
      for (kernels::Op op : kernels::all_ops()) modes.push_back({kind, op});
    }
    return modes;
  }
  static std::vector<ScanMode> declared(const kernels::VariantInfo& v, kernels::TypeKey t) {
    std::vector<ScanMode> modes;
    for (kernels::ScanKind kind : v.kinds) {
      for (kernels::Op op : v.ops(t)) modes.push_back({kind, op});
    }
    return modes;
  }
  static void set(Case& c, ScanMode mode) {
    c.kind = mode.kind;
    c.op = mode.op;
  }
  static kernels::Op padding_op(ScanMode mode) { return mode.op; }
  // The API checks the kind before the op.
  static const char* parameter(const kernels::VariantInfo& v, ScanMode mode) {
    return v.supports(mode.kind) ? "op" : "kind";
  }
};
template <>
struct ModeOf<kernels::SortForm> {
  static std::vector<kernels::SortForm> all() { return {kernels::kAllSortForms.begin(), kernels::kAllSortForms.end()}; }
  static std::vector<kernels::SortForm> declared(const kernels::VariantInfo& v, kernels::TypeKey) { return v.forms; }
  static void set(Case& c, kernels::SortForm form) { c.form = form; }
  static kernels::Op padding_op(kernels::SortForm) { return kernels::Op::sum; }
  static const char* parameter(const kernels::VariantInfo&, kernels::SortForm) { return "form"; }
};

// What every family states alike: its element types, its mode, its family and type keys, and
// what follows from them.
template <kernels::Family F, class InT, class OutT, class ModeT>
struct FamilyBasics {
  using In = InT;
  using Out = OutT;
  using Mode = ModeT;
  static constexpr kernels::Family kFamily = F;
  static constexpr kernels::TypeKey kType = kernels::type_key_v<InT, OutT>;
  static std::vector<Mode> all_modes() { return ModeOf<Mode>::all(); }  // registered ops included

  static std::vector<Mode> modes(const kernels::VariantInfo& variant) { return ModeOf<Mode>::declared(variant, kType); }
  static void set_mode(Case& c, Mode mode) { ModeOf<Mode>::set(c, mode); }
  static const char* mode_parameter(const kernels::VariantInfo& variant, Mode mode) {
    return ModeOf<Mode>::parameter(variant, mode);
  }
  // What pads the batch's inputs between segments: a value that changes the result if read.
  static In input_poison(Mode mode) { return harness::input_poison<In>(ModeOf<Mode>::padding_op(mode)); }
};

// What every family's Device starts from: the batch's variant, mode, inputs and runs.
template <class In, class Mode>
class BatchDeviceBase {
 public:
  BatchDeviceBase(const kernels::VariantInfo& variant, Mode mode, const std::vector<const TestInput<In>*>& inputs,
                  const std::vector<BatchRun>& runs)
      : variant_(variant), mode_(mode), inputs_(inputs), runs_(runs) {}

  // The runner records, before each run's call, the input the call reads: the device judges
  // read it there (a run never launched keeps null).
  void record_launch_input(std::size_t run, const In* input) const { launched_inputs_[run] = input; }

 protected:
  const In* launched_input(std::size_t run) const { return launched_inputs_[run]; }
  const TestInput<In>& input_of(std::size_t run) const { return *inputs_[runs_[run].input]; }
  std::uint64_t length(std::size_t run) const { return input_of(run).size(); }
  int block_size(std::size_t run) const { return runs_[run].block_size; }

  const kernels::VariantInfo& variant_;
  const Mode mode_;
  const std::vector<const TestInput<In>*>& inputs_;
  const std::vector<BatchRun>& runs_;

 private:
  mutable std::vector<const In*> launched_inputs_ = std::vector<const In*>(runs_.size(), nullptr);
};

// A stand-in for the runner's check of each extra input a family's Device holds (the sort's
// values): called with the image and the name its failures give it.
struct ExtraInputVisitor {
  template <class Image>
  void operator()(const Image&, const std::string&) const {}
};

template <class Device, class Family>
concept BatchDevice = std::constructible_from < Device,
        const kernels::VariantInfo&, typename Family::Mode, const std::vector < const TestInput<typename Family::In>
* > &, const std::vector<BatchRun>& > &&requires(Device& device, const Device& seen, std::size_t run,
                                                 const typename Family::In* input, kernels::Workspace workspace,
                                                 cudaStream_t stream) {
  { seen.workspace_bytes(run) } -> std::same_as<std::size_t>;
  seen.launch(run, input, workspace, stream);
  device.download();
  { device.judge(run) } -> std::same_as<std::optional<std::string>>;
  { seen.pass(run) } -> std::same_as<std::string>;
  { seen.output_on_device(run) } -> std::same_as<std::vector<DeviceBytes>>;
  { seen.violations() } -> std::same_as<std::vector<std::pair<std::size_t, std::string>>>;
  seen.for_each_extra_input(ExtraInputVisitor{});
};

// What the runner and the shared tests need of a family everywhere. Its Device is defined in the
// family's .cpp, the one file that runs its batches, and is held to BatchDevice there.
template <class Family>
concept BatchFamily = requires(Case& c, typename Family::Mode mode, const kernels::VariantInfo& variant) {
  typename Family::In;
  typename Family::Out;
  typename Family::Mode;
  typename Family::Device;
  { Family::kFamily } -> std::convertible_to<kernels::Family>;
  { Family::kType } -> std::convertible_to<kernels::TypeKey>;
  { Family::kNames } -> std::convertible_to<FamilyNames>;
  { Family::kOutputPerElement } -> std::convertible_to<bool>;
  { Family::all_modes() } -> std::same_as<std::vector<typename Family::Mode>>;
  { Family::modes(variant) } -> std::same_as<std::vector<typename Family::Mode>>;
  Family::set_mode(c, mode);
  { Family::input_poison(mode) } -> std::same_as<typename Family::In>;
};

}  // namespace harness
