// gtest parameter names of variants, and the listing from which ctest makes one entry per
// variant (cmake/KernelsTesting.cmake): `<exe> --list-variants` in every test executable whose
// tests are instantiated per variant.
#pragma once

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <string>

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
// Touches no GPU. Returns main's exit status. `selection` "loaded" or "loaded:<family>" keeps the variants
// of the loaded variant libraries only (gpu_primitives_add_tests: a user's project makes entries for its own).
int list_variants(const char* selection = nullptr);

}  // namespace harness
