// The family and element type a GPU test executable is built for: CMake's
// kernels_add_family_gpu_tests defines KERNELS_TEST_FAMILY (reduce, scan, sort) and
// KERNELS_TEST_TYPE (a type key) for each executable, and this names the batch runner's family
// part for them.
#pragma once

#include "harness/reduce/reduce_family.hpp"
#include "harness/scan/scan_family.hpp"
#include "harness/sort/sort_family.hpp"

#include <kernels/types.hpp>

namespace harness {

template <kernels::Family F, kernels::TypeKey Type>
struct FamilyOf;

template <kernels::TypeKey Type>
struct FamilyOf<kernels::Family::reduce, Type> {
  using type = ReduceFamily<typename kernels::types_of<Type>::in, typename kernels::types_of<Type>::out>;
};
template <kernels::TypeKey Type>
struct FamilyOf<kernels::Family::scan, Type> {
  using type = ScanFamily<typename kernels::types_of<Type>::in>;
};
template <kernels::TypeKey Type>
struct FamilyOf<kernels::Family::sort, Type> {
  using type = SortFamily<typename kernels::types_of<Type>::in>;
};

inline constexpr kernels::TypeKey kTestedType = kernels::TypeKey::KERNELS_TEST_TYPE;
using TestedFamily = FamilyOf<kernels::Family::KERNELS_TEST_FAMILY, kTestedType>::type;

}  // namespace harness
