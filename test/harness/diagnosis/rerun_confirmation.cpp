#include "harness/diagnosis/rerun_confirmation.hpp"

#include "harness/diagnosis/child_process.hpp"
#include "harness/diagnosis/failure_list.hpp"
#include "harness/diagnosis/hang_watchdog.hpp"
#include "harness/runner/batch.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/exact_number.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <stdexcept>

#ifndef KCHECK_PATH
#error "KCHECK_PATH (the build's kcheck) must be defined"
#endif

namespace harness {

std::string kcheck_program() {
  const char* chosen = suite_variable("KERNELS_KCHECK");
  return chosen != nullptr && *chosen != '\0' ? chosen : KCHECK_PATH;
}

namespace {

// A rerun that does not end: kcheck's own hang watchdog ends it first (exit 1).
constexpr std::chrono::seconds kChildTimeout{300};
// Failing runs an escalated line should give on average: a rerun then fails unless it is
// unlucky, with probability about e^-10, or the rate moved (it does, with the load of the GPU).
constexpr unsigned kExpectedFailingRuns = 10;
// The first repeated run: enough to tell a case that fails every run from one that fails sometimes.
constexpr unsigned kProbeRepeats = 20;

// Repeats of an n-element case whose input and outputs (n per run, at most) fit one batch.
unsigned repeats_for(const Case& c) {
  const std::uint64_t n = std::max<std::uint64_t>(1, c.n);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(kBatchValues / n - 1, std::max(2u, c.repeat), kMaxRepeat));
}

std::string runs_text(unsigned failed, unsigned runs) {
  return std::to_string(failed) + " of " + std::to_string(runs) + " runs";
}

// The line of a case that depends on timing, whose `repeated` runs failed `failed` times: enough
// repeats for about kExpectedFailingRuns failing runs at that rate, as many as a batch holds at
// most; checked once, and the most if that line passes.
void repeat_line(CaseFailure& failure, const Case& repeated, unsigned failed, const std::string& tried,
                 const std::function<RerunOutcome(const Case&)>& rerun) {
  const unsigned most = repeats_for(failure.c);
  const unsigned seen = std::max(1u, failed);
  Case line = repeated;
  line.repeat =
      std::clamp((kExpectedFailingRuns * repeated.repeat + seen - 1) / seen, std::max(2u, failure.c.repeat), most);
  const bool checked = line.repeat == repeated.repeat || rerun(line).result == RerunOutcome::failed;
  if (!checked) line.repeat = most;
  failure.c = line;
  failure.what += " [" + tried + ": it depends on timing, so its rerun line repeats it " + std::to_string(line.repeat) +
                  " times" +
                  (line.noise != 0 ? " beside scheduling noise of " + std::to_string(line.noise) + " us" : "") +
                  (checked ? "" : " (fewer runs passed once: it fails only sometimes)") + "]";
}

// The build's kcheck with `args` in a child process. Exit 1 is a failure when `failed` agrees
// (the case looked for is among those that failed); exit 0 or 2.. as in kcheck's help.
RerunOutcome run_kcheck(const std::vector<std::string>& args, const std::function<bool(const std::string&)>& failed) {
  const std::string kcheck = kcheck_program();
  if (access(kcheck.c_str(), X_OK) != 0) return {RerunOutcome::refused, 0, "no kcheck at " + kcheck};
  std::vector<std::string> argv{kcheck};
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildResult child = run_child(argv, {}, kChildTimeout);
  if (child.timed_out || child.output.find(kHangMarker) != std::string::npos) return {RerunOutcome::hung, 0, ""};
  if (child.exit_code == 1 && failed(child.output)) {
    RerunOutcome outcome{RerunOutcome::failed, 0, ""};
    static const std::regex runs_failed(R"((\d+) of \d+ runs failed)");
    std::smatch match;
    if (std::regex_search(child.output, match, runs_failed))
      outcome.failed_runs = static_cast<unsigned>(std::stoul(match[1]));
    return outcome;
  }
  if (child.exit_code == 0 || child.exit_code == 1) return {};
  const std::string status =
      child.signal != 0 ? "signal " + std::to_string(child.signal) : "exit " + std::to_string(child.exit_code);
  return {RerunOutcome::refused, 0, status + ": " + child.output.substr(0, 300)};
}

}  // namespace

void confirm_rerun_line(CaseFailure& failure, const std::function<RerunOutcome(const Case&)>& rerun,
                        const std::function<RerunOutcome(const std::filesystem::path&, const Case&)>& rerun_batch) {
  const auto refused = [&](const RerunOutcome& outcome) {
    failure.what += " [its rerun line was refused by kcheck: " + outcome.refusal + "]";
  };
  const RerunOutcome plain = rerun(failure.c);
  if (plain.result == RerunOutcome::refused) return refused(plain);
  if (plain.result == RerunOutcome::hung) return;  // repeats would only hang as long again
  const bool plain_failed = plain.result == RerunOutcome::failed;
  std::string tried =
      std::string("its rerun line ") + (plain_failed ? "failed" : "passed") + " alone in a child kcheck";
  // A large case runs once, alone: there is nothing to repeat it beside.
  if (failure.c.distribution == Distribution::large) {
    if (!plain_failed) failure.what += " [" + tried + ": a large case runs once, so the failure depends on timing]";
    return;
  }

  // The rate at which the case fails: a few runs in one batch; unless they all failed, as many
  // as a batch holds beside scheduling noise, and without it when the noise hid the failure.
  // Noise comes first because it carries into a rerun on a quiet GPU the contention that a
  // busy one (the other processes of a test run) gave for free: a race seen at 4 runs in 20
  // there may not fail at all alone.
  const unsigned most = repeats_for(failure.c);
  const unsigned noise = failure.c.noise != 0 ? failure.c.noise : kConfirmationNoise;
  Case repeated;
  RerunOutcome many;
  unsigned reruns = 1;  // the runs of the case tried so far: the plain one, then each measure's
  // Runs the case `repeat` times beside `level_noise` and adds what it gave to `tried`; false
  // when that ends the confirmation (a refusal or a hang, said in the failure).
  const auto measure = [&](unsigned level_noise, unsigned repeat) {
    repeated = failure.c;
    repeated.noise = level_noise;
    if (level_noise == 0) repeated.noise_seed = 0;
    repeated.repeat = repeat;
    many = rerun(repeated);
    reruns += repeat;
    const std::string beside =
        level_noise != 0 ? " beside scheduling noise of " + std::to_string(level_noise) + " us" : "";
    if (many.result == RerunOutcome::refused) {
      refused(many);
      return false;
    }
    if (many.result == RerunOutcome::hung) {
      failure.c = repeated;
      failure.what += " [" + tried + ", then " + std::to_string(repeat) + " runs" + beside + " hung]";
      return false;
    }
    tried += ", then " + runs_text(many.failed_runs, repeat) + beside + " failed";
    return true;
  };
  const auto failed = [&] { return many.result == RerunOutcome::failed; };

  if (!measure(failure.c.noise, std::min(kProbeRepeats, most))) return;
  // Every run failed (a bit-for-bit check fails every run but the first): the line as it is.
  if (plain_failed && failed() && many.failed_runs + 1 >= repeated.repeat) return;
  const Case probe = repeated;
  const RerunOutcome probed = many;
  if (!measure(noise, most)) return;
  if (failed()) return repeat_line(failure, repeated, many.failed_runs, tried, rerun);
  if (probed.result == RerunOutcome::failed) return repeat_line(failure, probe, probed.failed_runs, tried, rerun);
  if (noise != failure.c.noise && most > kProbeRepeats) {
    if (!measure(failure.c.noise, most)) return;
    if (failed()) return repeat_line(failure, repeated, many.failed_runs, tried, rerun);
  }
  if (failure.batch_runs && failure.run > 0) {
    const std::filesystem::path file = new_rerun_file_path();
    std::ofstream(file) << batch_lines(std::span(*failure.batch_runs).first(failure.run + 1));
    const RerunOutcome after = rerun_batch(file, (*failure.batch_runs)[failure.run]);
    ++reruns;
    const std::string before = "the " + std::to_string(failure.run) + " runs before it in its batch";
    if (after.result == RerunOutcome::failed) {
      failure.rerun_file = file.string();
      failure.what += " [" + tried + ", then it failed after " + before + ": its rerun line runs them, then it]";
      return;
    }
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    if (after.result == RerunOutcome::refused) return refused(after);
    tried +=
        after.result == RerunOutcome::hung ? ", then " + before + " and it hung" : ", then it passed after " + before;
  }
  failure.what +=
      " [timing-dependent, after " + std::to_string(reruns) + " reruns (" + tried +
      "): the failure needs the cases or processes that ran beside it; test/runtime/sanitize.sh racecheck, synccheck "
      "or memcheck may see on this line the race or the read it depends on]";
}

bool parse_confirm_rerun_lines(const char* text) { return exact_switch("KERNELS_CONFIRM_RERUN_LINES", text, true); }

bool rerun_lines_confirmed() {
  static const bool confirmed = parse_confirm_rerun_lines(harness::suite_variable("KERNELS_CONFIRM_RERUN_LINES"));
  return confirmed;
}

RerunOutcome rerun_batch_in_child_kcheck(const std::filesystem::path& file, const Case& last) {
  return run_kcheck({"--batch", file.string()},
                    [&](const std::string& output) { return printed_failure(output, last).has_value(); });
}

RerunOutcome rerun_in_child_kcheck(const Case& c) {
  return run_kcheck(to_args(c), [](const std::string&) { return true; });
}

}  // namespace harness
