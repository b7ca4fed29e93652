// kcheck's command line read back into cases: the parser of rerun lines and batch files.
#pragma once

#include "harness/runner/case.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace harness {

// A kcheck command line that names no valid case: the option at fault ("--n", or "variant")
// and why, with the accepted range.
class CaseArgsError : public std::runtime_error {
 public:
  CaseArgsError(std::string option, const std::string& problem)
      : std::runtime_error(option + ": " + problem), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

// Parses kcheck's arguments (without the program name) into a case: exact numbers, options
// that belong to the variant's family only, a distribution that applies to the type, and a
// case inside the variant's declared contract, and a `large` one that can run (large_case_breach). Without --seed the
// seed is derived from the run seed as the tests derive it. Throws CaseArgsError; touches no GPU.
Case parse_case_args(const std::vector<std::string>& args);

// The cases of rerun lines ("kcheck <arguments>" as kcheck_line prints them; blank lines are
// skipped), all of the first one's variant, type and op, kind or form, none of them `large`: one
// batch (kcheck --batch). Throws CaseArgsError for "--batch", naming the line at fault.
std::vector<Case> parse_batch_lines(const std::vector<std::string>& lines);

// kcheck's help: the options, their defaults and accepted values.
std::string case_args_help();

}  // namespace harness
