// The family and element type a GPU test file is compiled for: CMake's
// kernels_add_family_gpu_tests compiles a family's test files once per type, defining
// KERNELS_TEST_FAMILY (reduce, scan, sort), KERNELS_TEST_TYPE (a type key) and
// KERNELS_TEST_TYPE_NAME (its name in tests and labels: int, half_to_float), and links every
// type's objects into one executable. This names the batch runner's family part for them.
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

// Not inline: each type's objects have their own (one executable holds every type's).
constexpr kernels::TypeKey kTestedType = kernels::TypeKey::KERNELS_TEST_TYPE;
using TestedFamily = FamilyOf<kernels::Family::KERNELS_TEST_FAMILY, kTestedType>::type;

}  // namespace harness

// gtest names a test suite after its fixture class and wants one class per name, and one
// executable holds every type's suites: so each fixture class carries its type in its name. A
// test file defines its fixture's plain name as this before declaring it
// (`#define Reduce HARNESS_TYPED(Reduce)`), and its TEST_P and INSTANTIATE lines read as usual;
// the int build's suite is then Reduce_int, and its tests int/Reduce_int.<test>/<variant>.
#define HARNESS_TYPED(suite) HARNESS_TYPED_PASTE(suite, KERNELS_TEST_TYPE_NAME)
#define HARNESS_TYPED_PASTE(suite, type) HARNESS_TYPED_PASTE_EXPANDED(suite, type)
#define HARNESS_TYPED_PASTE_EXPANDED(suite, type) suite##_##type
// GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST takes the suite's name as written; this passes
// it the typed name.
#define HARNESS_ALLOW_UNINSTANTIATED(suite) GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(suite)
