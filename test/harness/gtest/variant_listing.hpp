// gtest parameter names of variants, and the listing from which ctest makes one entry per
// variant (cmake/KernelsTesting.cmake): `<exe> --list-variants` in every test executable whose
// tests are instantiated per variant.
#pragma once

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace harness {

// The gtest parameter name of a variant within its family: its name with '/' (not allowed
// there) as "__" ("scan_then_fan__naive").
std::string test_param_name(const kernels::VariantInfo& variant);

// The same for tests over every family: its id ("scan__scan_then_fan__naive").
std::string test_param_id(const kernels::VariantInfo& variant);

// For INSTANTIATE_TEST_SUITE_P over the variants of one family, and over every family.
inline std::string variant_param_name(const testing::TestParamInfo<const kernels::VariantInfo*>& param) {
  return test_param_name(*param.param);
}
inline std::string variant_param_id(const testing::TestParamInfo<const kernels::VariantInfo*>& param) {
  return test_param_id(*param.param);
}

// Prints the parameter names the executable's tests are instantiated for, one a line (the last
// '/'-separated part of each test's name), each followed, where it has per-type tests (suites
// named <type>/...), by a space and those types' names joined by commas: "cub int,unsigned".
// Touches no GPU. Returns main's exit status. With a `library`, the variants that library registers only
// (loaded as KERNELS_VARIANT_LIBRARIES' are: libkernels.so names the kit's own), and with a `family` too, of that
// family: gpu_primitives_add_tests makes each library's entries from this (cmake/variant_tests.cmake.in).
int list_variants(const char* library = nullptr, const char* family = nullptr);

// The library `--list-variants <library>` names, to load before gtest registers its tests; else none.
std::vector<std::string> library_to_list(int argc, char** argv);
// main()'s `--list-variants [<library> [<family>]]`, when argv asks for it: its exit status.
std::optional<int> list_variants_if_asked(int argc, char** argv);

}  // namespace harness
