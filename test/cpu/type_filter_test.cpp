// KERNELS_TEST_TYPES: the per-type tests of the other types leave the gtest filter.
#include "harness/gtest/type_filter.hpp"

#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using harness::filter_for_types;

TEST(TypeFilter, UnsetOrEmptyKeepsTheFilter) {
  EXPECT_EQ(filter_for_types("*/cub", nullptr), "*/cub");
  EXPECT_EQ(filter_for_types("*/cub", ""), "*/cub");
}

// The patterns after the filter's '-'.
std::set<std::string> negative_patterns(const std::string& filter) {
  std::set<std::string> patterns;
  std::stringstream rest(filter.substr(filter.find('-') + 1));
  for (std::string pattern; std::getline(rest, pattern, ':');) patterns.insert(pattern);
  return patterns;
}

TEST(TypeFilter, EveryOtherTypeBecomesANegativePattern) {
  const std::string filter = filter_for_types("*/radix_lsd", "int,half_to_float");
  EXPECT_EQ(filter.rfind("*/radix_lsd-", 0), 0u) << filter;
  const std::set<std::string> left_out = negative_patterns(filter);
  EXPECT_EQ(left_out.size(), kernels::kAllTypeKeys.size() - 2) << filter;
  for (const char* pattern : {"float/*", "int8/*", "unsigned/*", "half/*", "int_to_longlong/*"}) {
    EXPECT_TRUE(left_out.count(pattern)) << pattern << " in " << filter;
  }
  EXPECT_FALSE(left_out.count("int/*")) << filter;
  EXPECT_FALSE(left_out.count("half_to_float/*")) << filter;
}

TEST(TypeFilter, JoinsTheNegativePatternsAFilterAlreadyHas) {
  const std::string filter = filter_for_types("*/cub-*Large*", "float");
  EXPECT_EQ(filter.rfind("*/cub-*Large*:", 0), 0u) << filter;
  EXPECT_EQ(filter.find('-', filter.find('-') + 1), std::string::npos) << "one '-' only: " << filter;
}

// An entry's group, then the developer's types: what runs is in both.
TEST(TypeFilter, TheTypesWithinAGroupAreThoseInBoth) {
  const std::string group = filter_for_types("*/cub", "int,half,int8", "KERNELS_TEST_TYPE_GROUP");
  const std::set<std::string> left_out = negative_patterns(filter_for_types(group, "int,float"));
  EXPECT_FALSE(left_out.count("int/*"));
  for (const char* pattern : {"half/*", "int8/*", "float/*", "unsigned/*"})
    EXPECT_TRUE(left_out.count(pattern)) << pattern;
  try {
    filter_for_types("*", "flot", "KERNELS_TEST_TYPE_GROUP");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("KERNELS_TEST_TYPE_GROUP='flot'"), std::string::npos) << error.what();
  }
}

TEST(TypeFilter, AnUnknownTypeIsAnErrorNamingTheVariableAndTheTypes) {
  try {
    filter_for_types("*", "int,flot");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("KERNELS_TEST_TYPES='int,flot'"), std::string::npos) << what;
    EXPECT_NE(what.find("'flot' is not a type"), std::string::npos) << what;
    EXPECT_NE(what.find("half_to_float"), std::string::npos) << what;
  }
  EXPECT_THROW(filter_for_types("*", "int,"), std::invalid_argument);
}

}  // namespace
