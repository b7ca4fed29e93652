// Shared by every GPU test executable's main (gpu_test_main.cpp) and the tests themselves.
#pragma once

#include "harness/gtest/variant_listing.hpp"

#include <kernels/registry.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace harness {

// The variants of a family that take the type and satisfy `keep`: those a test instantiates.
std::vector<const kernels::VariantInfo*> variants_where(kernels::Family family, kernels::TypeKey type,
                                                        const std::function<bool(const kernels::VariantInfo&)>& keep);

// The variants of a family that take the type and, with their preferred block size, at least n
// values: those a large test instantiates.
std::vector<const kernels::VariantInfo*> variants_taking(kernels::Family family, kernels::TypeKey type,
                                                         std::uint64_t n);

// The variants of a family that take at least n values of some type they declare, with their
// preferred block size: every variant a large test has an entry for (it reports Skipped for one
// that declares none of the types the large cases cover, rather than having no entry).
std::vector<const kernels::VariantInfo*> variants_taking_any_type(kernels::Family family, std::uint64_t n);

// Mark a GTEST_SKIP() as caused by too little device memory, or by a contract that declares
// nothing the test can run (a property of int scans for a variant of float scans only): the
// only skips that a run with KERNELS_REQUIRE_GPU=1 accepts.
inline constexpr const char* kMemorySkip = "[device memory] ";
inline constexpr const char* kContractSkip = "[not in the contract] ";

}  // namespace harness
