#include "harness/gtest/variant_listing.hpp"

#include "harness/settings/variant_libraries.hpp"

#include <kernels/types.hpp>

#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <vector>

namespace harness {
namespace {

std::string without_slashes(std::string name) {
  for (std::size_t at = name.find('/'); at != std::string::npos; at = name.find('/', at)) name.replace(at, 1, "__");
  return name;
}

}  // namespace

std::string test_param_name(const kernels::VariantInfo& variant) { return without_slashes(std::string(variant.name)); }

std::string test_param_id(const kernels::VariantInfo& variant) { return without_slashes(variant.id()); }

namespace {

// The parameters of the variants the loaded variant libraries registered, of `family` unless empty.
std::set<std::string> loaded_params(const std::vector<std::string>& loaded, std::string_view family) {
  std::set<std::string> params;
  for (const std::string& id : loaded) {
    const kernels::VariantInfo* variant = kernels::find_variant(id);
    if (variant == nullptr || (!family.empty() && kernels::name(variant->family) != family)) continue;
    params.insert({test_param_name(*variant), test_param_id(*variant)});
  }
  return params;
}

}  // namespace

int list_variants(const char* selection) {
  const std::string_view wanted = selection == nullptr ? "" : selection;
  if (!wanted.empty() && !wanted.starts_with("loaded")) {
    std::fprintf(stderr, "--list-variants takes nothing, 'loaded' or 'loaded:<family>', not '%s'\n", selection);
    return 2;
  }
  const std::string_view family = wanted.size() > 7 ? wanted.substr(7) : "";
  const std::set<std::string> only =
      wanted.empty() ? std::set<std::string>{} : loaded_params(loaded_variant_ids(), family);
  std::map<std::string, std::set<std::string>> types_of;
  const testing::UnitTest& tests = *testing::UnitTest::GetInstance();
  for (int suite = 0; suite < tests.total_test_suite_count(); ++suite) {
    const testing::TestSuite& test_suite = *tests.GetTestSuite(suite);
    const std::string suite_name = test_suite.name();
    const std::string prefix = suite_name.substr(0, suite_name.find('/'));
    for (int test = 0; test < test_suite.total_test_count(); ++test) {
      const std::string name = test_suite.GetTestInfo(test)->name();
      const auto slash = name.rfind('/');
      if (slash == std::string::npos) continue;
      std::set<std::string>& types = types_of[name.substr(slash + 1)];
      if (kernels::parse_type(prefix)) types.insert(prefix);
    }
  }
  for (const auto& [name, types] : types_of) {
    if (!wanted.empty() && !only.contains(name)) continue;
    std::string line = name;
    for (const std::string& type : types) line += (type == *types.begin() ? " " : ",") + type;
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

}  // namespace harness
