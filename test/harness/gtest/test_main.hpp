// Shared by every GPU test executable's main (gpu_test_main.cpp) and the tests themselves.
#pragma once

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace harness {

// The gtest parameter name of a variant: its name with '/' (not allowed there) as "__".
std::string test_param_name(const kernels::VariantInfo& variant);

// For INSTANTIATE_TEST_SUITE_P over variants: names each instance after its variant.
inline std::string variant_param_name(const testing::TestParamInfo<const kernels::VariantInfo*>& param) {
  return test_param_name(*param.param);
}

// The variants of a family that take the type and satisfy `keep`: those a test instantiates.
std::vector<const kernels::VariantInfo*> variants_where(kernels::Family family, kernels::TypeKey type,
                                                        const std::function<bool(const kernels::VariantInfo&)>& keep);

// The variants of a family that take the type and, with their preferred block size, at least n
// values: those a large test instantiates.
std::vector<const kernels::VariantInfo*> variants_taking(kernels::Family family, kernels::TypeKey type,
                                                         std::uint64_t n);

// Marks a GTEST_SKIP() as caused by too little device memory: the only skip that a run with
// KERNELS_REQUIRE_GPU=1 accepts.
inline constexpr const char* kMemorySkip = "[device memory] ";

}  // namespace harness
