// Batch<Family>::run, its steps and its helpers: included by the file of each family that
// instantiates the runner for its types (harness/<family>/<family>_family.cpp), nowhere else.
// One run of a batch is a BatchExecution: upload the inputs, query the workspaces, launch every
// run (watched for hangs), synchronise once, judge each run, check the guard bands.
#pragma once

#include "harness/diagnosis/fault_attribution.hpp"
#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/input/random_bits.hpp"
#include "harness/memory/device_compare.hpp"
#include "harness/memory/device_image.hpp"
#include "harness/memory/guard_bands.hpp"
#include "harness/memory/workspace_arena.hpp"
#include "harness/runner/batch.hpp"
#include "harness/runner/graph_capture.hpp"
#include "harness/runner/scheduling_noise.hpp"
#include "harness/session/gpu_session.hpp"
#include "harness/session/phase_clock.hpp"
#include "harness/session/run_streams.hpp"

#include <kernels/types.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace harness {

template <BatchFamily Family>
void Batch<Family>::add_run(std::size_t input, int block_size, bool in_place) {
  runs_.push_back({input, block_size, in_place});
  if (const auto breach = outside_contract(variant_, case_of(runs_.size() - 1))) {
    const std::string what = describe(case_of(runs_.size() - 1));
    runs_.pop_back();
    throw std::logic_error("test bug: " + what + " is outside the contract (" + breach->parameter + ": " +
                           breach->rule + ")");
  }
}

template <BatchFamily Family>
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
  c.n = input.size();
  c.distribution = input.distribution;
  c.seed = input.seed;
  c.offset = input.offset;
  return c;
}

// For each run, why its output is not bit for bit the output of the first earlier run of the same
// case, or nothing (also when no earlier run repeats it). The outputs are compared where they
// are, on the device, all in one launch: a deterministic variant's repeats of long cases would
// otherwise each come back to the host to be compared there.
template <BatchFamily Family>
std::vector<std::optional<std::string>> Batch<Family>::differences_from_earlier_repeats(
    const typename Family::Device& device) const {
  std::vector<std::size_t> repeats, firsts;
  std::vector<std::vector<DeviceBytes>> first_outputs, repeat_outputs;
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const auto first = std::find(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(r), runs_[r]);
    if (first == runs_.begin() + static_cast<std::ptrdiff_t>(r)) continue;
    repeats.push_back(r);
    firsts.push_back(static_cast<std::size_t>(first - runs_.begin()));
    first_outputs.push_back(device.output_on_device(firsts.back()));
    repeat_outputs.push_back(device.output_on_device(r));
  }
  std::vector<std::optional<std::string>> differences(runs_.size());
  if (repeats.empty()) return differences;
  const std::vector<std::optional<std::size_t>> at = first_differences_on_device(first_outputs, repeat_outputs);
  for (std::size_t k = 0; k < repeats.size(); ++k) {
    if (!at[k]) continue;
    differences[repeats[k]] = "repeat " + std::to_string(repeats[k]) + " of the same case differs from run " +
                              std::to_string(firsts[k]) + " at output byte " + std::to_string(*at[k]) +
                              " (the variant declares itself deterministic)";
  }
  return differences;
}

// The state of one Batch::run, made in the order its steps need it.
template <BatchFamily Family>
class BatchExecution {
  // Checked here, where the family's Device is complete (its .cpp, the one file that runs it).
  static_assert(BatchDevice<typename Family::Device, Family>, "the family's Device lacks a part the runner calls");

 public:
  using In = typename Family::In;

  BatchExecution(const Batch<Family>& batch, const RunOptions& options, SharedInputImage<In>* shared)
      : batch_(batch),
        options_(options),
        shared_(shared),
        problems_(batch.runs_.size()),
        inputs_(input_image()),
        device_(batch.variant_, batch.mode_, batch.inputs_, batch.runs_),
        workspace_bytes_(query_workspaces()),
        workspaces_(arena_slices()) {
    report_.cases = batch.runs_.size();
  }

  BatchReport run() && {
    timed(Phase::launch, [this] { launch_runs(); });
    if (const auto attributed = timed(Phase::wait, [this] { return synchronise(); })) return *attributed;
    timed(Phase::download, [this] { device_.download(); });
    timed(Phase::judge, [this] { judge_runs(); });
    timed(Phase::guards, [this] { check_input_guards(); });
    return std::move(report_);
  }

 private:
  struct Problem {
    FailureKind kind;
    std::string what;
  };

  // The inputs on the device: the shared copy if it fits this batch, else an upload, which then
  // becomes the shared copy.
  std::shared_ptr<const DeviceImage<In>> input_image() const {
    const In poison = Family::input_poison(batch_.mode_);
    if (shared_ != nullptr) {
      if (auto kept = shared_->find(batch_.inputs_, poison)) return kept;
    }
    auto uploaded =
        timed(Phase::upload, [&] { return std::make_shared<const DeviceImage<In>>(upload_inputs(poison)); });
    if (shared_ != nullptr) shared_->keep(batch_.inputs_, uploaded);
    return uploaded;
  }

  // Every distinct input once, packed between poison, in one upload (read-only on the device).
  DeviceImage<In> upload_inputs(In poison) const {
    std::vector<std::uint64_t> lengths;
    std::vector<unsigned> shifts;
    for (const TestInput<In>* input : batch_.inputs_) {
      lengths.push_back(input->size());
      shifts.push_back(input->offset);
    }
    GuardedImage<In> image(lengths, shifts, kArrayGuard, poison);
    for (std::size_t k = 0; k < batch_.inputs_.size(); ++k) place_input(image, k, *batch_.inputs_[k]);
    return DeviceImage<In>(std::move(image), DeviceImage<In>::Access::read_only);
  }

  // Each run's workspace as its query asks (a query that throws fails its run, not the batch).
  std::vector<std::size_t> query_workspaces() {
    std::vector<std::size_t> bytes(batch_.runs_.size(), 0);
    for (std::size_t r = 0; r < bytes.size(); ++r) {
      try {
        bytes[r] = device_.workspace_bytes(r);
      } catch (const std::exception& error) {
        problems_[r] = Problem{FailureKind::launch_error, std::string("workspace query threw: ") + error.what()};
      }
    }
    return bytes;
  }

  // The workspace arena's slices: one a run, or for chained runs one that all of them share, as large as the
  // largest query.
  std::vector<std::size_t> arena_slices() const {
    if (!options_.chained || workspace_bytes_.empty()) return workspace_bytes_;
    return {*std::max_element(workspace_bytes_.begin(), workspace_bytes_.end())};
  }
  std::size_t slice_of(std::size_t r) const { return options_.chained ? 0 : r; }

  // A run's case as the batch ran it: as a graph, beside its noise, after the runs before it.
  Case case_as_run(std::size_t r) const {
    Case c = batch_.case_of(r);
    c.graph = options_.as_graph;
    c.noise = options_.noise_us;
    c.noise_seed = options_.noise_us != 0 ? noise_seed_of(r) : 0;
    c.chained = options_.chained;
    return c;
  }
  // The seed of the noise before run r: the batch's for the first run (and for a graph's one noise), so that a rerun
  // line's --noise-seed gives its case's run the noise it failed beside.
  std::uint64_t noise_seed_of(std::size_t r) const {
    return r == 0 || options_.as_graph ? noise_seed_ : derive_seed(noise_seed_, r);
  }

  // Queues the runs on the run streams (runner/run_streams.hpp), or on the tests' stream beside
  // scheduling noise, or captures them into one graph, under the hang watchdog
  // (diagnosis/hang_watchdog.hpp) until the synchronisation has returned: each run's call, then
  // each run's kernels in turn, gets the allowance of its length.
  void launch_runs() {
    watch_.emplace(
        [this] {
          const auto culprit = marks_.culprit();
          if (!culprit)
            return "no run was found unfinished (the batch's " + std::to_string(batch_.runs_.size()) + " cases)";
          const std::string what = culprit->call_returned ? "its kernels did not finish (the runs before it did)"
                                                          : "its call did not return";
          return CaseFailure{case_as_run(culprit->run), FailureKind::timeout, what}.lines();
        },
        [this] {
          return marks_.step_under_way([this](std::size_t r) { return batch_.inputs_[batch_.runs_[r].input]->size(); });
        });
    // Other noise for every batch of the process: a stress test's repeats are not alike.
    static std::uint64_t noisy_batches = 0;
    if (options_.noise_us != 0)
      noise_seed_ =
          options_.noise_seed != 0 ? options_.noise_seed : derive_seed(batch_.inputs_.front()->seed, ++noisy_batches);
    if (!options_.as_graph && (options_.noise_us != 0 || options_.chained)) {
      // One stream, as the noise was made for (each run's noise lands just before it) and as chained calls follow.
      marks_.may_query();
      launch_each([](std::size_t) { return test_stream(); });
      return;
    }
    if (!options_.as_graph) {
      marks_.may_query();
      RunStreams& streams = run_streams();
      streams.fork();
      launch_each([&streams](std::size_t r) { return streams.of_run(r); });
      streams.join();
      return;
    }
    if (options_.noise_us != 0) launch_scheduling_noise(noise_seed_, options_.noise_us);
    if (const auto not_captured =
            launch_as_graph([this](cudaStream_t stream) { launch_each([stream](std::size_t) { return stream; }); })) {
      for (auto& problem : problems_) {
        if (!problem)
          problem = Problem{FailureKind::launch_error, "cannot be captured into a CUDA graph: " + *not_captured};
      }
    }
    marks_.may_query();
  }

  // Run r goes on stream_of(r).
  template <class StreamOf>
  void launch_each(StreamOf stream_of) {
    for (std::size_t r = 0; r < batch_.runs_.size(); ++r) {
      if (problems_[r]) continue;
      const cudaStream_t stream = stream_of(r);
      if (options_.noise_us != 0 && !options_.as_graph) launch_scheduling_noise(noise_seed_of(r), options_.noise_us);
      marks_.launching(r);
      try {
        const In* input = inputs_->segment(batch_.runs_[r].input);
        device_.record_launch_input(r, input);
        device_.launch(r, input, workspaces_.slice(slice_of(r)), stream);
      } catch (const std::exception& error) {
        problems_[r] = Problem{FailureKind::launch_error, std::string("the call threw: ") + error.what()};
      }
      marks_.launched(r, stream);
    }
  }

  // The one synchronisation. A stream failure (a fault that killed the context) is attributed to
  // its case by rerunning the cases apart, unwatched: that report is the batch's.
  std::optional<BatchReport> synchronise() {
    const cudaError_t status = cudaStreamSynchronize(test_stream());
    watch_.reset();
    if (status != cudaSuccess) return attribute_stream_failure(*runs_as_cases(), status);
    if (options_.noise_us != 0) wait_for_scheduling_noise();
    return std::nullopt;
  }

  // Each run against the oracle (its verdict from the device where the family judges there), then
  // its workspace's padding and canaries, then (for deterministic variants) its repeats bit for
  // bit; then the output guard bands.
  void judge_runs() {
    const std::vector<bool> overran = workspaces_.overruns();
    const std::vector<std::optional<std::string>> repeats_differ =
        options_.same_bits_when_repeated ? batch_.differences_from_earlier_repeats(device_)
                                         : std::vector<std::optional<std::string>>(batch_.runs_.size());
    for (std::size_t r = 0; r < batch_.runs_.size(); ++r) {
      if (!problems_[r]) {
        if (auto wrong = device_.judge(r)) problems_[r] = Problem{FailureKind::wrong_value, std::move(*wrong)};
      }
      if (!problems_[r] && overran[slice_of(r)]) {
        problems_[r] =
            Problem{FailureKind::out_of_bounds, "wrote past the " + std::to_string(arena_slices()[slice_of(r)]) +
                                                    " workspace bytes its query asked for"};
      }
      if (!problems_[r] && repeats_differ[r]) problems_[r] = Problem{FailureKind::wrong_value, *repeats_differ[r]};
      if (problems_[r]) {
        fail(r, problems_[r]->kind, problems_[r]->what);
      } else if (options_.describe_passes) {
        report_.passes.push_back("PASS " + describe(batch_.case_of(r)) + ": " + device_.pass(r));
      }
    }
    fail_once_per_run(device_.violations(), "");
  }

  // One out-of-bounds failure per run, however many elements of its bands it changed: the first
  // change, and how many more were found (a kernel that writes far past its end would otherwise
  // fill the report with one line per element).
  void fail_once_per_run(const std::vector<std::pair<std::size_t, std::string>>& changes, const std::string& suffix) {
    std::map<std::size_t, std::pair<std::string, std::size_t>> first_and_more;
    for (const auto& [r, what] : changes) {
      auto [entry, added] = first_and_more.try_emplace(r, what, 0);
      if (!added) ++entry->second.second;
    }
    for (const auto& [r, change] : first_and_more) {
      const auto& [what, more] = change;
      fail(r, FailureKind::out_of_bounds,
           what + suffix + (more > 0 ? "; and " + std::to_string(more) + " more changed elements" : ""));
    }
  }

  // An input changed: name the first run that read it (any run of it may be the culprit), and
  // keep the changed copy from the next batch.
  void check_input_guards() {
    const auto check = [this](const auto& image, const std::string& name) {
      if (image.known_unchanged()) return;
      if (shared_ != nullptr) shared_->forget();
      std::vector<std::pair<std::size_t, std::string>> changes;
      for (const auto& violation : image.host().violations(image.download(), true)) {
        for (std::size_t r = 0; r < batch_.runs_.size(); ++r) {
          if (batch_.runs_[r].input != violation.segment) continue;
          changes.emplace_back(r, name + ": " + violation.what);
          break;
        }
      }
      fail_once_per_run(changes, " (by this or another run of it)");
    };
    check(*inputs_, Family::kNames.input);
    device_.for_each_extra_input(check);
  }

  // The batch's runs as cases, listed once, when something failed: a stream failure's
  // attribution reruns them, and every failure keeps them (its rerun may need the runs before it).
  std::shared_ptr<const std::vector<Case>> runs_as_cases() {
    if (!batch_runs_) {
      std::vector<Case> cases;
      for (std::size_t r = 0; r < batch_.runs_.size(); ++r) cases.push_back(case_as_run(r));
      batch_runs_ = std::make_shared<const std::vector<Case>>(std::move(cases));
    }
    return batch_runs_;
  }

  // A failure's rerun line repeats its case as often as the batch did (the bit-for-bit check of
  // repeated runs needs them).
  void fail(std::size_t r, FailureKind kind, const std::string& what) {
    Case c = case_as_run(r);
    c.repeat = static_cast<unsigned>(std::count(batch_.runs_.begin(), batch_.runs_.end(), batch_.runs_[r]));
    report_.failures.push_back({std::move(c), kind, what, runs_as_cases(), r});
  }

  const Batch<Family>& batch_;
  const RunOptions& options_;
  SharedInputImage<In>* const shared_;
  BatchReport report_;
  std::vector<std::optional<Problem>> problems_;
  const std::shared_ptr<const DeviceImage<In>> inputs_;
  typename Family::Device device_;
  const std::vector<std::size_t> workspace_bytes_;
  const WorkspaceArena workspaces_;
  RunMarks marks_{batch_.runs_.size()};
  std::optional<HangWatch> watch_;
  std::uint64_t noise_seed_ = 0;
  std::shared_ptr<const std::vector<Case>> batch_runs_;
};

template <BatchFamily Family>
BatchReport Batch<Family>::run(const RunOptions& options, SharedInputImage<In>* shared) const {
  if (runs_.empty()) return BatchReport{};
  // The execution's making: its output and workspace allocations (the upload is timed apart).
  std::optional<BatchExecution<Family>> execution;
  timed(Phase::allocate, [&] { execution.emplace(*this, options, shared); });
  return std::move(*execution).run();
}

}  // namespace harness
