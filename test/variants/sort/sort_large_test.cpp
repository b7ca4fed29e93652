// 64-bit indexing of the sorts: every sort variant that accepts 2^28 keys sorts 2^28 and
// 2^31 + 2^20 + 3 int keys (or its limit, if lower), keys alone and, where the variant is stable
// and offers it, with each key's index as its value; then 2^32 + 2^20 + 3 int keys and as many
// float keys, alone (the values, 32-bit indices, cannot number them), where a 32-bit index or
// loop counter wraps, and floats take the variants' own encode paths: the `large` cases of
// harness/sort/sort_large.hpp. Label `large`; each test skips (with the reason) if the device
// lacks the memory: CUB's float sort past 2^32 holds 82 GB, an H200's and not an H100's.
#include "harness/sort/sort_large.hpp"
#include "harness/gtest/large_test.hpp"

namespace {

using kernels::SortForm;
using kernels::TypeKey;

class LargeSort : public harness::LargeTest {
 protected:
  void check_length(std::uint64_t wanted, TypeKey type, bool with_pairs) {
    std::vector<harness::Case> cases;
    const std::uint64_t n = variant().supports(type) ? variant().accepted_length_at_most(wanted, 0, type) : 0;
    for (SortForm form : variant().supports(type) ? variant().forms : std::vector<SortForm>{}) {
      if (form == SortForm::pairs && !(with_pairs && variant().stable)) continue;  // the check demands input order
      cases.push_back(harness::large_case(variant(), type, n));
      cases.back().form = form;
    }
    check(cases, harness::kLargeSort, "int and float keys");
  }
};

TEST_P(LargeSort, TwoToThe28Keys) { check_length(harness::kLargeTwoToThe28, TypeKey::int32, true); }

TEST_P(LargeSort, MoreThanTwoToThe31Keys) { check_length(harness::kLargePastInt32, TypeKey::int32, true); }

TEST_P(LargeSort, MoreThanTwoToThe32IntKeys) { check_length(harness::kLargePastUint32, TypeKey::int32, false); }

INSTANTIATE_TEST_SUITE_P(large, LargeSort,
                         testing::ValuesIn(harness::variants_taking_any_type(kernels::Family::sort,
                                                                             harness::kLargeTwoToThe28)),
                         harness::variant_param_name);

// The variants that sort 2^28 floats.
class LargeFloatSort : public LargeSort {};

TEST_P(LargeFloatSort, MoreThanTwoToThe32Keys) { check_length(harness::kLargePastUint32, TypeKey::float32, false); }

INSTANTIATE_TEST_SUITE_P(large, LargeFloatSort,
                         testing::ValuesIn(harness::variants_taking(kernels::Family::sort, TypeKey::float32,
                                                                    harness::kLargeTwoToThe28)),
                         harness::variant_param_name);

}  // namespace
