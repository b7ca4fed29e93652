#include "harness/gtest/variant_listing.hpp"

#include "harness/settings/variant_libraries.hpp"

#include <kernels/types.hpp>
#include <kernels/variant_libraries.hpp>

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

// The parameters of the variants `library` registered, of `family` unless empty.
std::set<std::string> params_of_library(const std::string& library, std::string_view family) {
  std::set<std::string> params;
  load_variant_libraries({library});  // (main loaded it already; a library that cannot join exits 2 here)
  for (const std::string& id : kernels::load_variant_library(library)) {
    const kernels::VariantInfo* variant = kernels::find_variant(id);
    if (variant == nullptr || (!family.empty() && kernels::name(variant->family) != family)) continue;
    params.insert({test_param_name(*variant), test_param_id(*variant)});
  }
  return params;
}

}  // namespace

std::vector<std::string> library_to_list(int argc, char** argv) {
  if (argc < 3 || std::string_view(argv[1]) != "--list-variants") return {};
  return {argv[2]};
}

std::optional<int> list_variants_if_asked(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) != "--list-variants") return std::nullopt;
  if (argc > 4) {
    std::fprintf(stderr, "--list-variants takes at most a library's path and a family\n");
    return 2;
  }
  return list_variants(argc > 2 ? argv[2] : nullptr, argc > 3 ? argv[3] : nullptr);
}

int list_variants(const char* library, const char* family) {
  if (family != nullptr && !kernels::parse_family(family)) {
    std::fprintf(stderr, "--list-variants: no family '%s' (reduce, scan or sort)\n", family);
    return 2;
  }
  const bool all = library == nullptr;
  const std::set<std::string> only = all ? std::set<std::string>{} : params_of_library(library, family ? family : "");
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
    if (!all && !only.contains(name)) continue;
    std::string line = name;
    for (const std::string& type : types) line += (type == *types.begin() ? " " : ",") + type;
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

}  // namespace harness
