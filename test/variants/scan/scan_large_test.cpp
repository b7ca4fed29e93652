// 64-bit indexing of the any-length scans: every scan variant that accepts 2^28 ints scans 2^28,
// 2^31 + 2^20 + 3 and 2^32 + 2^20 + 3 ints (or its limit, if lower), inclusive and exclusive:
// past a signed and past an unsigned 32-bit index (a tile offset computed in 32 bits wraps only
// there), each kind as a sum and, where declared, by last_nonzero (not commutative; on ints the one other built-in op
// a scan offers: docs/operators.md): a count or index kept in 32 bits on another path than the sum's shows there.
// The `large` cases of harness/scan/scan_large.hpp. Label `large`; skipped (with the reason) if the device
// lacks the memory.
#include "harness/scan/scan_large.hpp"
#include "harness/gtest/large_test.hpp"

#include <algorithm>

namespace {

using kernels::TypeKey;

class LargeScan : public harness::LargeTest {
 protected:
  void check_length(std::uint64_t wanted) {
    std::vector<harness::Case> cases;
    if (variant().supports(TypeKey::int32)) {
      const std::uint64_t n = variant().accepted_length_at_most(wanted, 0, TypeKey::int32);
      const std::vector<kernels::Op> declared = variant().ops(TypeKey::int32);
      const bool forward_fill =
          std::find(declared.begin(), declared.end(), kernels::Op::last_nonzero) != declared.end();
      for (kernels::ScanKind kind : variant().kinds) {
        cases.push_back(harness::large_case(variant(), TypeKey::int32, n));
        cases.back().kind = kind;
        if (!forward_fill) continue;
        cases.push_back(cases.back());
        cases.back().op = kernels::Op::last_nonzero;
      }
    }
    check(cases, harness::kLargeScan, "int scans: the sum and last_nonzero");
  }
};

TEST_P(LargeScan, TwoToThe28Ints) { check_length(harness::kLargeTwoToThe28); }

TEST_P(LargeScan, MoreThanTwoToThe31Ints) { check_length(harness::kLargePastInt32); }

TEST_P(LargeScan, MoreThanTwoToThe32Ints) { check_length(harness::kLargePastUint32); }

INSTANTIATE_TEST_SUITE_P(large, LargeScan,
                         testing::ValuesIn(harness::variants_taking_any_type(kernels::Family::scan,
                                                                             harness::kLargeTwoToThe28)),
                         harness::variant_param_name);

}  // namespace
