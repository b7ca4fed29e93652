// 64-bit indexing of the sorts: every sort variant that accepts 2^28 keys sorts 2^28 and
// 2^31 + 2^20 + 3 int keys (or its limit, if lower), keys alone and, where the variant is stable
// and offers it, with each key's index as its value: the `large` cases of
// harness/sort/large_sort.hpp. Label `large`; skipped (with the reason) if the device lacks the
// memory.
#include "harness/gtest/large_test.hpp"
#include "harness/sort/large_sort.hpp"

namespace {

using kernels::SortForm;
using kernels::TypeKey;

constexpr std::uint64_t kTwoToThe28 = std::uint64_t(1) << 28;

class LargeSort : public harness::LargeTest {
 protected:
  void check_length(std::uint64_t wanted) {
    const std::uint64_t n = variant().accepted_length_at_most(wanted, 0, TypeKey::int32);
    std::vector<harness::Case> cases;
    for (SortForm form : variant().forms) {
      if (form == SortForm::pairs && !variant().stable) continue;  // the check demands input order
      cases.push_back(harness::large_case(variant(), TypeKey::int32, n));
      cases.back().form = form;
    }
    check(cases, harness::kLargeSort);
  }
};

TEST_P(LargeSort, TwoToThe28Keys) { check_length(kTwoToThe28); }

TEST_P(LargeSort, MoreThanTwoToThe31Keys) { check_length((1ull << 31) + (1ull << 20) + 3); }

INSTANTIATE_TEST_SUITE_P(large, LargeSort,
                         testing::ValuesIn(harness::variants_taking(kernels::Family::sort, TypeKey::int32, kTwoToThe28)),
                         harness::variant_param_name);

}  // namespace
