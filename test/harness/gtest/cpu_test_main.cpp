// main() of the CPU test executables whose tests are instantiated per variant (ctest runs each
// variant as its own entry, labelled with the variant):
//
//   <exe> --list-variants [<library> [<family>]]
//                                    the gtest parameter names of its variants (of that library's), one a line
//   <exe> [gtest flags]              runs the tests
#include "harness/gtest/variant_listing.hpp"
#include "harness/settings/environment.hpp"
#include "harness/settings/variant_libraries.hpp"

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char** argv) {
  harness::refuse_retired_variables();
  harness::load_variant_libraries(harness::library_to_list(argc, argv));
  testing::InitGoogleTest(&argc, argv);
  if (const auto listed = harness::list_variants_if_asked(argc, argv)) return *listed;
  return RUN_ALL_TESTS();
}
