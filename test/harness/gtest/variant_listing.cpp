#include "harness/gtest/variant_listing.hpp"

#include <cstdio>
#include <set>

namespace harness {
namespace {

std::string without_slashes(std::string name) {
  for (std::size_t at = name.find('/'); at != std::string::npos; at = name.find('/', at)) name.replace(at, 1, "__");
  return name;
}

}  // namespace

std::string test_param_name(const kernels::VariantInfo& variant) { return without_slashes(std::string(variant.name)); }

std::string test_param_id(const kernels::VariantInfo& variant) { return without_slashes(variant.id()); }

int list_variants() {
  std::set<std::string> names;
  const testing::UnitTest& tests = *testing::UnitTest::GetInstance();
  for (int suite = 0; suite < tests.total_test_suite_count(); ++suite) {
    const testing::TestSuite& test_suite = *tests.GetTestSuite(suite);
    for (int test = 0; test < test_suite.total_test_count(); ++test) {
      const std::string name = test_suite.GetTestInfo(test)->name();
      const auto slash = name.rfind('/');
      if (slash != std::string::npos) names.insert(name.substr(slash + 1));
    }
  }
  for (const std::string& name : names) std::printf("%s\n", name.c_str());
  return 0;
}

}  // namespace harness
