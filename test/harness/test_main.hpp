// Shared by every GPU test executable's main (gpu_test_main.cpp) and the tests themselves.
#pragma once

#include <kernels/registry.hpp>

#include <string>

namespace harness {

// The gtest parameter name of a variant: its name with '/' (not allowed there) as "__".
std::string test_param_name(const kernels::VariantInfo& variant);

// Marks a GTEST_SKIP() as caused by too little device memory: the only skip that a run with
// KERNELS_REQUIRE_GPU=1 accepts.
inline constexpr const char* kMemorySkip = "[device memory] ";

}  // namespace harness
