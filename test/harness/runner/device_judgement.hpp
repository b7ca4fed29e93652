// How a batch whose check is exact is judged on the device (integer reductions:
// reduce/reduce_device_judge; integer scans: scan/scan_device_judge; sorts:
// sort/sort_device_judge), and what the CPU oracle, which stays the reference, still judges: one
// sampled run of every batch that has a run of at most kLongestSampled values, whose two verdicts
// must agree, so that neither judge drifts from the other unseen; the smallest failing runs
// (at most kDescribedOnHost a batch), whose failures the oracle describes value by value; and
// the runs the device could not decide (DeviceVerdict::undecided). The
// other failing runs are reported from the device's verdict alone: a broken kernel costs the host
// no more than a good one.
#pragma once

#include "harness/runner/device_verdict.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harness {

inline constexpr std::size_t kDescribedOnHost = 4;
// The sampled run is drawn among the runs this long or shorter: its oracle runs on the host, and
// 16 of the device judges' chunks (kJudgeChunk) are enough to compare them across chunks. A batch
// of longer runs only (the longest lengths of a test, each alone in its batch) has no sample: its
// oracle, a host sort or scan of up to 2^24 values in each mode, was most of a sort test's time.
inline constexpr std::uint64_t kLongestSampled = std::uint64_t(1) << 16;

struct JudgedRun {
  std::uint64_t n;
  int block_size;
};

// Whether batches are judged on the device: not under compute-sanitizer (exact-size buffers,
// memory/buffer_layout.hpp), whose tools would check the harness's own judge kernels too and
// slow every process sharing the GPU; there the oracle judges every run of the few short cases.
bool judged_on_device();

class DeviceJudgement {
 public:
  // One verdict and one size per run; `seed` draws the sampled run; `check` names what the device
  // checked, for reports.
  DeviceJudgement(std::vector<DeviceVerdict> verdicts, const std::vector<JudgedRun>& runs, std::uint64_t seed,
                  std::string check);
  // A judgement of none of the runs on the device (judged_on_device() is false): the oracle's.
  static DeviceJudgement by_the_oracle(const std::vector<JudgedRun>& runs);

  // The sampled run, if the batch has one short enough.
  std::optional<std::size_t> sampled() const { return sampled_; }
  // Whether the CPU oracle judges the run (the sample, a failure it describes, or a run the device
  // left undecided).
  bool judged_on_host(std::size_t run) const { return on_host_[run]; }
  // The device's verdict of a run the host does not judge: nothing when it passed.
  std::optional<std::string> verdict(std::size_t run) const;
  // The verdict of a run the host judged too: the oracle's, or why the two judges disagree (an
  // undecided run's is the oracle's).
  std::optional<std::string> agree(std::size_t run, std::optional<std::string> oracle) const;

 private:
  std::string describe(std::size_t run) const;

  std::vector<DeviceVerdict> verdicts_;
  std::string check_;
  std::optional<std::size_t> sampled_;
  std::vector<bool> on_host_;
};

}  // namespace harness
