#include "harness/runner/device_judgement.hpp"

#include "harness/input/random_bits.hpp"
#include "harness/memory/buffer_layout.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace harness {

DeviceJudgement::DeviceJudgement(std::vector<DeviceVerdict> verdicts, const std::vector<JudgedRun>& runs,
                                 std::uint64_t seed, std::string check)
    : verdicts_(std::move(verdicts)), check_(std::move(check)), on_host_(runs.size(), false) {
  std::vector<std::size_t> short_runs;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (verdicts_[r].undecided) on_host_[r] = true;
    if (runs[r].n <= kLongestSampled && !verdicts_[r].undecided) short_runs.push_back(r);
  }
  if (!short_runs.empty()) {
    sampled_ = short_runs[random_bits(seed, short_runs.size()) % short_runs.size()];
    on_host_[*sampled_] = true;
  }
  // The smallest failing runs (fewest elements, then the smallest block), as reports list them.
  std::vector<std::size_t> failing;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (verdicts_[r].mismatches > 0) failing.push_back(r);
  }
  const auto smaller = [&runs](std::size_t a, std::size_t b) {
    return std::tie(runs[a].n, runs[a].block_size, a) < std::tie(runs[b].n, runs[b].block_size, b);
  };
  const std::size_t described = std::min(failing.size(), kDescribedOnHost);
  std::partial_sort(failing.begin(), failing.begin() + static_cast<std::ptrdiff_t>(described), failing.end(), smaller);
  for (std::size_t k = 0; k < described; ++k) on_host_[failing[k]] = true;
}

bool judged_on_device() { return !exact_size_buffers(); }

DeviceJudgement DeviceJudgement::by_the_oracle(const std::vector<JudgedRun>& runs) {
  return DeviceJudgement(std::vector<DeviceVerdict>(runs.size(), DeviceVerdict{0, kNoBadIndex, true}), runs, 0,
                         "none: the CPU oracle judges every run");
}

std::string DeviceJudgement::describe(std::size_t run) const {
  const DeviceVerdict& v = verdicts_[run];
  std::string text = std::to_string(v.mismatches) + (v.mismatches == 1 ? " output fails" : " outputs fail") +
                     " the device judge's check (" + check_ + ")";
  if (v.first_bad != kNoBadIndex) text += ", the first at " + std::to_string(v.first_bad);
  return text + "; the CPU oracle describes the smallest failing cases of the batch";
}

std::optional<std::string> DeviceJudgement::verdict(std::size_t run) const {
  if (verdicts_[run].mismatches == 0) return std::nullopt;
  return describe(run);
}

std::optional<std::string> DeviceJudgement::agree(std::size_t run, std::optional<std::string> oracle) const {
  if (verdicts_[run].undecided) return oracle;
  const bool device_passed = verdicts_[run].mismatches == 0;
  if (device_passed == !oracle.has_value()) return oracle;
  if (device_passed)
    return "the device judge passed what the CPU oracle finds wrong (a bug of the harness): " + *oracle;
  return "the CPU oracle passed what the device judge finds wrong (a bug of the harness): " + describe(run);
}

}  // namespace harness
