// The mutation catalogue (ci/mutation/catalogue/*.patch) stays usable as the library changes:
// every patch names a registered variant, and the sanitizer case it names is a case kcheck
// accepts (a case outside the variant's contract makes kcheck exit 2, which the mutation run would
// take for a kill). That each patch applies exactly and its headers are well formed is checked by
// cpu.mutation (ci/mutation/test_mutation.py); these two need the library's registry and kcheck's
// parser.
#include "harness/runner/case.hpp"
#include "kcheck/case_args.hpp"

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

TEST_P(Mutant, NamesARegisteredVariantAndACaseKcheckAccepts) {
  auto header = headers(GetParam());
  ASSERT_NE(kernels::find_variant(header["Variant"]), nullptr) << header["Variant"];
  if (header.count("Sanitize-with") == 0) return;
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
