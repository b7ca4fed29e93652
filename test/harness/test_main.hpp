// Shared by every GPU test executable's main (gpu_test_main.cpp) and the tests themselves.
#pragma once

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <string>

namespace harness {

// The gtest parameter name of a variant: its name with '/' (not allowed there) as "__".
std::string test_param_name(const kernels::VariantInfo& variant);

// For INSTANTIATE_TEST_SUITE_P over variants: names each instance after its variant.
inline std::string variant_param_name(const testing::TestParamInfo<const kernels::VariantInfo*>& param) {
  return test_param_name(*param.param);
}

// Marks a GTEST_SKIP() as caused by too little device memory: the only skip that a run with
// KERNELS_REQUIRE_GPU=1 accepts.
inline constexpr const char* kMemorySkip = "[device memory] ";

}  // namespace harness
