#include "harness/core/rerun_confirmation.hpp"

#include "harness/core/batch.hpp"
#include "harness/core/child_process.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <regex>

#ifndef KCHECK_PATH
#error "KCHECK_PATH (the build's kcheck) must be defined"
#endif

namespace harness {
namespace {

// A rerun that does not end: kcheck's own hang watchdog ends it first (exit 1).
constexpr std::chrono::seconds kChildTimeout{300};
// Failing runs an escalated line should give on average: a rerun then fails unless it is
// unlucky, with probability about e^-5 (0.7 %).
constexpr unsigned kExpectedFailingRuns = 5;

// Repeats of an n-element case whose input and outputs (n per run, at most) fit one batch.
unsigned repeats_for(const Case& c) {
  const std::uint64_t n = std::max<std::uint64_t>(1, c.n);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(kBatchValues / n - 1, std::max(2u, c.repeat), kMaxRepeat));
}

std::string runs_text(unsigned failed, unsigned runs) {
  return std::to_string(failed) + " of " + std::to_string(runs) + " runs";
}

}  // namespace

unsigned confirm_rerun_line(CaseFailure& failure, const std::function<RerunOutcome(const Case&)>& rerun) {
  unsigned calls = 1;
  const auto refused = [&](const RerunOutcome& outcome) {
    failure.what += " [its rerun line was refused by kcheck: " + outcome.refusal + "]";
    return calls;
  };
  // Twice: a race that fails one run in two would otherwise print a line that passes as often.
  const RerunOutcome plain = rerun(failure.c);
  if (plain.result == RerunOutcome::refused) return refused(plain);
  std::string tried = "its rerun line passed alone in a child kcheck";
  if (plain.result == RerunOutcome::failed) {
    ++calls;
    if (rerun(failure.c).result == RerunOutcome::failed) return calls;
    tried = "its rerun line failed once alone in a child kcheck, then passed";
  }

  // A case found beside noise (a stress test) is repeated beside the same noise only.
  std::vector<unsigned> noises{failure.c.noise};
  if (failure.c.noise == 0) noises.push_back(kConfirmationNoise);
  for (const unsigned noise : noises) {
    Case repeated = failure.c;
    repeated.noise = noise;
    repeated.repeat = repeats_for(failure.c);
    const std::string beside = noise != 0 ? " beside scheduling noise of " + std::to_string(noise) + " us" : "";
    ++calls;
    const RerunOutcome many = rerun(repeated);
    if (many.result == RerunOutcome::refused) return refused(many);
    if (many.result == RerunOutcome::passed) {
      tried += ", then " + runs_text(0, repeated.repeat) + beside + " failed";
      continue;
    }
    // Enough repeats for about kExpectedFailingRuns failing runs at the rate just seen.
    const unsigned seen = std::max(1u, many.failed_runs);
    Case line = repeated;
    line.repeat = std::clamp((kExpectedFailingRuns * repeated.repeat + seen - 1) / seen, std::max(2u, failure.c.repeat),
                             kMaxRepeat);
    bool again = true;
    if (line.repeat != repeated.repeat) {
      ++calls;
      again = rerun(line).result == RerunOutcome::failed;
    }
    failure.c = again ? line : repeated;
    failure.what += " [" + tried + ", then " + runs_text(many.failed_runs, repeated.repeat) + beside +
                    " failed: it depends on timing, so its rerun line repeats it " + std::to_string(failure.c.repeat) +
                    " times" + (again ? "" : " (a line with " + std::to_string(line.repeat) + " runs passed once: it fails only sometimes)") + "]";
    return calls;
  }
  failure.what += " [" + tried + ": the failure needs the cases or processes that ran beside it]";
  return calls;
}

RerunOutcome rerun_in_child_kcheck(const Case& c) {
  const std::string kcheck = KCHECK_PATH;
  if (access(kcheck.c_str(), X_OK) != 0) return {RerunOutcome::refused, 0, "no kcheck at " + kcheck};
  std::vector<std::string> argv{kcheck};
  const std::vector<std::string> args = to_args(c);
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildResult child = run_child(argv, {}, kChildTimeout);
  if (child.timed_out || child.exit_code == 1) {
    RerunOutcome outcome{RerunOutcome::failed, 0, ""};
    static const std::regex runs_failed(R"((\d+) of \d+ runs failed)");
    std::smatch match;
    if (std::regex_search(child.output, match, runs_failed)) outcome.failed_runs = static_cast<unsigned>(std::stoul(match[1]));
    return outcome;
  }
  if (child.exit_code == 0) return {};
  const std::string status = child.signal != 0 ? "signal " + std::to_string(child.signal)
                                                : "exit " + std::to_string(child.exit_code);
  return {RerunOutcome::refused, 0, status + ": " + child.output.substr(0, 300)};
}

}  // namespace harness
