// The mutation catalogue (ci/mutation/catalogue/*.patch) stays usable as the library changes: every patch
// applies to today's sources exactly (patch --dry-run, no fuzz), names a registered variant, and
// the sanitizer case it names is a case kcheck accepts (a case outside the variant's contract
// makes kcheck exit 2, which the mutation run would take for a kill).
#include "harness/core/case.hpp"
#include "harness/core/child_process.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#ifndef KERNELS_SOURCE_DIR
#error "KERNELS_SOURCE_DIR (the repository's root) must be defined"
#endif

namespace {

const std::filesystem::path kRoot = KERNELS_SOURCE_DIR;

std::vector<std::string> mutants() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kRoot / "ci" / "mutation" / "catalogue")) {
    if (entry.path().extension() == ".patch") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The "Name: value" lines before the diff.
std::map<std::string, std::string> headers(const std::string& mutant) {
  std::ifstream patch(kRoot / "ci" / "mutation" / "catalogue" / (mutant + ".patch"));
  std::map<std::string, std::string> found;
  for (std::string line; std::getline(patch, line) && !line.empty();) {
    const auto colon = line.find(": ");
    if (colon != std::string::npos) found[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return found;
}

class Mutant : public testing::TestWithParam<std::string> {};

// A machine without patch cannot run the mutation catalogue at all (ci/install-deps.sh installs it).
TEST_P(Mutant, AppliesToTodaysSourcesExactly) {
  if (harness::run_child({"/bin/sh", "-c", "command -v patch"}, {}, std::chrono::seconds(10)).exit_code != 0) {
    GTEST_SKIP() << "patch is not installed here (ci/install-deps.sh installs it)";
  }
  const auto patch = harness::run_child({"/usr/bin/env", "patch", "--dry-run", "--fuzz=0", "-p1", "-d", kRoot.string(), "-i",
                                (kRoot / "ci" / "mutation" / "catalogue" / (GetParam() + ".patch")).string()},
                               {}, std::chrono::seconds(60));
  EXPECT_EQ(patch.exit_code, 0) << patch.output;
}

TEST_P(Mutant, NamesARegisteredVariantAndACaseKcheckAccepts) {
  auto header = headers(GetParam());
  EXPECT_EQ(header["Mutant"], GetParam());
  EXPECT_FALSE(header["Bug"].empty());
  ASSERT_NE(kernels::find_variant(header["Variant"]), nullptr) << header["Variant"];
  EXPECT_EQ(header.count("Sanitizer"), header.count("Sanitize-with")) << "a sanitizer needs its case, and a case its tool";
  if (header.count("Sanitizer") == 0) return;
  const std::string tool = header["Sanitizer"];
  EXPECT_TRUE(tool == "memcheck" || tool == "racecheck" || tool == "synccheck" || tool == "initcheck") << tool;
  std::istringstream words(header["Sanitize-with"]);
  std::vector<std::string> args{header["Variant"]};
  for (std::string word; words >> word;) args.push_back(word);
  try {
    harness::parse_case_args(args);
  } catch (const harness::CaseArgsError& error) {
    ADD_FAILURE() << "Sanitize-with: " << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, Mutant, testing::ValuesIn(mutants()),
                         [](const testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
