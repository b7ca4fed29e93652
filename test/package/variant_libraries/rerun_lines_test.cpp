// Every line a failure prints for a variant of an outside-built library (the rerun line, the hang or timeout
// line, a batch's line; the sanitizer's `sanitize case:` line is the rerun line) runs verbatim from another folder:
// it names the library, so kcheck finds the variant instead of answering "no variant" (exit 2).
#include "harness/runner/batch_report.hpp"
#include "harness/runner/case.hpp"
#include "harness/settings/variant_libraries.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace {

struct Run {
  int status = 0;
  std::string output;
};

// `line` as a shell runs it, from an empty folder, with kcheck on PATH and no library in the environment.
Run run_verbatim(const std::string& line) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "rerun_lines_test";
  std::filesystem::create_directories(folder);
  const std::string command = "cd '" + folder.string() + "' && env -u KERNELS_VARIANT_LIBRARIES PATH='" +
                              std::filesystem::path(KCHECK).parent_path().string() + ":/usr/bin:/bin' " + line +
                              " 2>&1";
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  for (std::array<char, 4096> buffer{}; pipe != nullptr && std::fgets(buffer.data(), buffer.size(), pipe);)
    run.output += buffer.data();
  run.status = pipe != nullptr ? WEXITSTATUS(pclose(pipe)) : -1;
  return run;
}

harness::Case outside_case() {
  harness::Case c;
  c.family = kernels::Family::reduce;
  c.variant = "fixture_float_max";
  c.type = kernels::TypeKey::float32;
  c.op = kernels::Op::max;
  c.block_size = 32;
  c.n = 1000;
  c.seed = 7;
  return c;
}

// The line reaches the case: it passes where there is a GPU, and stops at the GPU where there is none.
void expect_it_runs(const std::string& line) {
  const Run run = run_verbatim(line);
  EXPECT_EQ(run.output.find("no variant"), std::string::npos) << line << "\n" << run.output;
  EXPECT_TRUE(run.status == 0 || run.output.find("no usable CUDA device") != std::string::npos)
      << line << "\nexit " << run.status << "\n"
      << run.output;
}

class RerunLines : public testing::Test {
 protected:
  static void SetUpTestSuite() { harness::load_variant_libraries({OUTSIDE_LIBRARY}); }
  const std::string command = std::string("kcheck --variants-library ") + OUTSIDE_LIBRARY;
};

TEST_F(RerunLines, AWrongValueLineNamesTheLibrary) {
  const std::string line = harness::printed_rerun_line(outside_case());
  EXPECT_TRUE(line.starts_with(command + " reduce/fixture_float_max ")) << line;
  expect_it_runs(line);
}

TEST_F(RerunLines, AHangOrTimeoutLineNamesTheLibrary) {
  const std::string lines = harness::CaseFailure{outside_case(), harness::FailureKind::timeout, "it hung"}.lines();
  const std::string line = lines.substr(lines.find("rerun: ") + 7);
  EXPECT_TRUE(line.starts_with(command + " reduce/fixture_float_max ")) << lines;
  expect_it_runs(line);
}

TEST_F(RerunLines, ABatchLineNamesTheLibrary) {
  const harness::Case c = outside_case();
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "rerun_lines_test.batch";
  std::ofstream(file) << harness::batch_lines(std::span(&c, 1));
  harness::CaseFailure failure{c, harness::FailureKind::wrong_value, "wrong"};
  failure.rerun_file = file.string();
  EXPECT_EQ(failure.rerun_line(), command + " --batch " + file.string());
  expect_it_runs(failure.rerun_line());
}

TEST_F(RerunLines, AVariantOfTheKitsOwnLibraryNeedsNone) {
  harness::Case c = outside_case();
  c.variant = "cub";
  c.op = kernels::Op::sum;
  EXPECT_TRUE(harness::printed_rerun_line(c).starts_with("kcheck reduce/cub ")) << harness::printed_rerun_line(c);
}

}  // namespace
