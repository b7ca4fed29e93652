#include "harness/diagnosis/fault_attribution.hpp"

#include "harness/diagnosis/child_process.hpp"
#include "harness/diagnosis/rerun_confirmation.hpp"
#include "harness/session/mps_client.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/exact_number.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <utility>

namespace harness {
namespace {

// Marks the children of an attribution: they report their batch as it failed, no deeper search.
constexpr const char* kChildMarker = "KERNELS_ATTRIBUTING";
// One rerun of a half of a batch: its inputs regenerated, a context created, its runs.
constexpr std::chrono::seconds kChildTimeout{120};

// Reruns cases [first, last) in a child kcheck: one case by its own rerun line, several as one
// batch from a file of rerun lines. Gives the child's output when its stream failed.
std::optional<std::string> rerun_apart(const std::vector<Case>& cases, std::size_t first, std::size_t last) {
  std::vector<std::string> argv{kcheck_program()};
  std::string batch_file;
  if (last - first == 1) {
    const std::vector<std::string> args = to_args(cases[first]);
    argv.insert(argv.end(), args.begin(), args.end());
  } else {
    char name[] = "/tmp/kcheck-batch-XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0) return std::nullopt;
    close(fd);
    batch_file = name;
    std::ofstream file(batch_file);
    file << batch_lines(std::span(cases).subspan(first, last - first));
    argv.insert(argv.end(), {"--batch", batch_file});
  }
  const ChildResult child = run_child(argv, {std::string(kChildMarker) + "=1"}, kChildTimeout);
  if (!batch_file.empty()) std::remove(batch_file.c_str());
  if (child.exit_code == 1 && child.output.find(kStreamFailed) != std::string::npos) return child.output;
  return std::nullopt;
}

}  // namespace

bool parse_attribute_faults(const char* text) { return exact_switch("KERNELS_ATTRIBUTE_FAULTS", text, true); }

bool faults_attributed() {
  static const bool attributed = parse_attribute_faults(harness::suite_variable("KERNELS_ATTRIBUTE_FAULTS"));
  return attributed;
}

CulpritSearch find_culprit(std::size_t count, std::size_t first_guess,
                           const std::function<bool(std::size_t, std::size_t)>& fails) {
  CulpritSearch search;
  if (count > 1 && first_guess < count) {
    ++search.reruns;
    if (fails(first_guess, first_guess + 1)) {
      search.culprit = first_guess;
      return search;
    }
  }
  std::size_t first = 0, last = count;
  while (last - first > 1) {
    const std::size_t middle = first + (last - first) / 2;
    ++search.reruns;
    if (fails(first, middle)) {
      last = middle;
      continue;
    }
    ++search.reruns;
    if (!fails(middle, last)) return search;
    first = middle;
  }
  if (count > 0) search.culprit = first;
  return search;
}

BatchReport attribute_stream_failure(const std::vector<Case>& cases, cudaError_t status) {
  const FailureKind kind = status == cudaErrorLaunchTimeout ? FailureKind::timeout : FailureKind::launch_error;
  const std::string error = std::string(kStreamFailed) + cudaGetErrorName(status);
  // Through MPS the fault may be another process's, and no child could start beside it.
  rerun_without_mps_if_joined(error);
  BatchReport report;
  report.cases = cases.size();
  const auto every_case = [&](std::string how_found) {
    for (const Case& c : cases) report.failures.push_back({c, kind, error});
    report.how_found = std::move(how_found);
    return report;
  };
  if (cases.size() == 1 || std::getenv(kChildMarker) != nullptr) return every_case("");
  if (!faults_attributed()) {
    return every_case("not attributed to one case: KERNELS_ATTRIBUTE_FAULTS=0; every case of the batch is listed");
  }
  const std::string kcheck = kcheck_program();
  if (access(kcheck.c_str(), X_OK) != 0) {
    return every_case("not attributed to one case: no kcheck at " + kcheck + " to rerun the cases apart");
  }

  // The smallest case: the smallest length, then block size.
  const auto smallest = std::min_element(cases.begin(), cases.end(), [](const Case& a, const Case& b) {
    return std::pair(a.n, a.block_size) < std::pair(b.n, b.block_size);
  });
  std::string culprit_output;
  const std::size_t guess = static_cast<std::size_t>(smallest - cases.begin());
  const CulpritSearch search = find_culprit(cases.size(), guess, [&](std::size_t first, std::size_t last) {
    const std::optional<std::string> output = rerun_apart(cases, first, last);
    if (output && last - first == 1) culprit_output = *output;
    return output.has_value();
  });
  const std::string reruns = std::to_string(search.reruns) + " child kcheck process" + (search.reruns == 1 ? "" : "es");
  if (!search.culprit) {
    return every_case("not attributed to one case: rerun apart in " + reruns +
                      ", no part of the batch failed alone (the fault needs these cases together, or does not "
                      "recur); every case of the batch is listed");
  }
  const Case& culprit = cases[*search.culprit];
  report.failures.push_back({culprit, kind, printed_failure(culprit_output, culprit).value_or(error)});
  report.how_found = "the stream failure (" + std::string(cudaGetErrorName(status)) + ") of a batch of " +
                     std::to_string(cases.size()) + " cases, attributed in " + reruns +
                     " (its smallest case alone first, then by halving)" +
                     ": this case alone, rerun by the line below, makes the stream fail (the batch's other cases "
                     "were not judged)";
  return report;
}

}  // namespace harness
