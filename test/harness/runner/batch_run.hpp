// Batch<Family>::run and its helpers: included by the file of each family that instantiates
// the runner for its types (harness/<family>/<family>_family.cpp), nowhere else.
#pragma once

#include "harness/core/batch.hpp"
#include "harness/core/device_image.hpp"
#include "harness/core/fault_attribution.hpp"
#include "harness/core/graph_capture.hpp"
#include "harness/core/gpu_session.hpp"
#include "harness/core/guard_bands.hpp"
#include "harness/core/hang_watchdog.hpp"
#include "harness/core/random_bits.hpp"
#include "harness/core/scheduling_noise.hpp"
#include "harness/core/workspace_arena.hpp"

#include <kernels/types.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace harness {

template <class Family>
void Batch<Family>::add_run(std::size_t input, int block_size, bool in_place) {
  runs_.push_back({input, block_size, in_place});
  if (const auto breach = outside_contract(variant_, case_of(runs_.size() - 1))) {
    const std::string what = describe(case_of(runs_.size() - 1));
    runs_.pop_back();
    throw std::logic_error("test bug: " + what + " is outside the contract (" + breach->parameter + ": " +
                           breach->rule + ")");
  }
}

template <class Family>
Case Batch<Family>::case_of(std::size_t run) const {
  const BatchRun& r = runs_[run];
  const TestInput<In>& input = *inputs_[r.input];
  Case c;
  c.family = Family::kFamily;
  c.variant = std::string(variant_.name);
  c.type = Family::kType;
  Family::set_mode(c, mode_);
  c.in_place = r.in_place;
  c.block_size = r.block_size;
  c.n = input.values.size();
  c.distribution = input.distribution;
  c.seed = input.seed;
  c.offset = input.offset;
  return c;
}

// Why run r's output is not bit for bit the output of the first earlier run of the same case, or
// nothing (also when no earlier run repeats it).
template <class Family>
std::optional<std::string> Batch<Family>::differs_from_earlier_repeat(std::size_t r,
                                                                    const typename Family::Device& device) const {
  for (std::size_t first = 0; first < r; ++first) {
    if (!(runs_[first] == runs_[r])) continue;
    const std::vector<std::byte> then = device.output_bits(first), now = device.output_bits(r);
    const auto at = std::mismatch(then.begin(), then.end(), now.begin(), now.end());
    if (at.first == then.end() && at.second == now.end()) return std::nullopt;
    return "repeat " + std::to_string(r) + " of the same case differs from run " + std::to_string(first) +
           " at output byte " + std::to_string(at.first - then.begin()) + " (the variant declares itself deterministic)";
  }
  return std::nullopt;
}

template <class Family>
BatchReport Batch<Family>::run(const RunOptions& options) const {
  BatchReport report;
  report.cases = runs_.size();
  if (runs_.empty()) return report;
  struct Problem {
    FailureKind kind;
    std::string what;
  };
  std::vector<std::optional<Problem>> problems(runs_.size());

  std::vector<std::uint64_t> lengths;
  std::vector<unsigned> shifts;
  for (const TestInput<In>* input : inputs_) {
    lengths.push_back(input->values.size());
    shifts.push_back(input->offset);
  }
  GuardedImage<In> input_image(lengths, shifts, kArrayGuard, Family::input_poison(mode_));
  for (std::size_t k = 0; k < inputs_.size(); ++k) input_image.set_contents(k, inputs_[k]->values);
  const DeviceImage<In> inputs(std::move(input_image), DeviceImage<In>::Access::read_only);
  typename Family::Device device(variant_, mode_, inputs_, runs_);

  std::vector<std::size_t> workspace_bytes(runs_.size(), 0);
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    try {
      workspace_bytes[r] = device.workspace_bytes(r);
    } catch (const std::exception& error) {
      problems[r] = Problem{FailureKind::launch_error, std::string("workspace query threw: ") + error.what()};
    }
  }
  const WorkspaceArena workspaces(workspace_bytes);

  // A run's case as the batch ran it: as a graph, beside its noise.
  const auto case_as_run = [&](std::size_t r) {
    Case c = case_of(r);
    c.graph = options.as_graph;
    c.noise = options.noise_us;
    return c;
  };
  // Launches and the synchronisation are watched (core/hang_watchdog.hpp); a stream failure's
  // attribution, which reruns cases in child processes, is not.
  RunMarks marks(runs_.size());
  std::optional<HangWatch> watch(std::in_place, [&] {
    const auto culprit = marks.culprit();
    if (!culprit) return "no run was found unfinished (the batch's " + std::to_string(runs_.size()) + " cases)";
    const std::string what = culprit->call_returned ? "its kernels did not finish (the runs before it did)"
                                                    : "its call did not return";
    return CaseFailure{case_as_run(culprit->run), FailureKind::timeout, what}.lines();
  });
  // Other noise for every batch of the process: a stress test's repeats are not alike.
  static std::uint64_t noisy_batches = 0;
  const std::uint64_t noise_seed = options.noise_us != 0 ? derive_seed(inputs_.front()->seed, ++noisy_batches) : 0;
  const auto launch_all = [&](cudaStream_t stream) {
    for (std::size_t r = 0; r < runs_.size(); ++r) {
      if (problems[r]) continue;
      if (options.noise_us != 0 && !options.as_graph) launch_scheduling_noise(derive_seed(noise_seed, r), options.noise_us);
      marks.launching(r);
      try {
        device.launch(r, inputs.segment(runs_[r].input), workspaces.slice(r), stream);
      } catch (const std::exception& error) {
        problems[r] = Problem{FailureKind::launch_error, std::string("the call threw: ") + error.what()};
      }
      marks.launched(r, stream);
    }
  };
  if (!options.as_graph) {
    launch_all(test_stream());
  } else {
    if (options.noise_us != 0) launch_scheduling_noise(noise_seed, options.noise_us);
    if (const auto not_captured = launch_as_graph(launch_all)) {
      for (auto& problem : problems) {
        if (!problem) problem = Problem{FailureKind::launch_error, "cannot be captured into a CUDA graph: " + *not_captured};
      }
    }
  }
  // The batch's runs as cases, listed once, when something failed: a stream failure's
  // attribution reruns them, and every failure keeps them (its rerun may need the runs before it).
  std::shared_ptr<const std::vector<Case>> batch_runs;
  const auto runs_as_cases = [&] {
    if (!batch_runs) {
      std::vector<Case> cases;
      for (std::size_t r = 0; r < runs_.size(); ++r) cases.push_back(case_as_run(r));
      batch_runs = std::make_shared<const std::vector<Case>>(std::move(cases));
    }
    return batch_runs;
  };
  // A failure's rerun line repeats its case as often as the batch did (the bit-for-bit check of
  // repeated runs needs them).
  const auto fail = [&](std::size_t r, FailureKind kind, const std::string& what) {
    Case c = case_as_run(r);
    c.repeat = static_cast<unsigned>(std::count(runs_.begin(), runs_.end(), runs_[r]));
    report.failures.push_back({std::move(c), kind, what, runs_as_cases(), r});
  };
  const cudaError_t status = cudaStreamSynchronize(test_stream());
  watch.reset();
  if (status != cudaSuccess) return attribute_stream_failure(*runs_as_cases(), status);
  if (options.noise_us != 0) wait_for_scheduling_noise();

  device.download();
  const std::vector<bool> overran = workspaces.overruns();
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    if (!problems[r]) {
      if (auto wrong = device.judge(r)) problems[r] = Problem{FailureKind::wrong_value, std::move(*wrong)};
    }
    if (!problems[r] && overran[r]) {
      problems[r] = Problem{FailureKind::out_of_bounds, "wrote past the " + std::to_string(workspace_bytes[r]) +
                                                            " workspace bytes its query asked for"};
    }
    if (!problems[r] && options.same_bits_when_repeated) {
      if (auto differs = differs_from_earlier_repeat(r, device)) problems[r] = Problem{FailureKind::wrong_value, std::move(*differs)};
    }
    if (problems[r]) {
      fail(r, problems[r]->kind, problems[r]->what);
    } else if (options.describe_passes) {
      report.passes.push_back("PASS " + describe(case_of(r)) + ": " + device.pass(r));
    }
  }
  for (const auto& [r, what] : device.violations()) fail(r, FailureKind::out_of_bounds, what);
  // An input changed: name the first run that read it (any run of it may be the culprit).
  const auto input_violations = [&](const auto& image, const std::string& name) {
    if (image.known_unchanged()) return;
    for (const auto& violation : image.host().violations(image.download(), true)) {
      for (std::size_t r = 0; r < runs_.size(); ++r) {
        if (runs_[r].input != violation.segment) continue;
        fail(r, FailureKind::out_of_bounds, name + ": " + violation.what + " (by this or another run of it)");
        break;
      }
    }
  };
  input_violations(inputs, Family::kInputName);
  device.for_each_extra_input(input_violations);
  return report;
}

}  // namespace harness
