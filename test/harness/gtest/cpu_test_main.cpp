// main() of the CPU test executables whose tests are instantiated per variant (ctest runs each
// variant as its own entry, labelled with the variant):
//
//   <exe> --list-variants            the gtest parameter names of its variants, one per line
//   <exe> [gtest flags]              runs the tests
#include "harness/gtest/variant_listing.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/variant_libraries.hpp"

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char** argv) {
  harness::refuse_retired_variables();
  harness::load_variant_libraries();
  testing::InitGoogleTest(&argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "--list-variants") == 0)
    return harness::list_variants(argc > 2 ? argv[2] : nullptr);
  return RUN_ALL_TESTS();
}
