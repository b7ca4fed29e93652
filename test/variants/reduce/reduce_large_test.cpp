// 64-bit indexing: every variant reduces 2^28 ints, 2^31 + 2^20 + 3 ints (past a signed 32-bit
// index, the extremes planted past index 2^31 so that such an index misses them) and
// 2^32 + 2^20 + 3 ints (past an unsigned one: an index or a block offset computed in 32 bits
// wraps there), with the ops sum, max, min and last_nonzero (not commutative) that the variant declares, and the
// widening sum: the `large` cases of harness/reduce/reduce_large.hpp.
// Label `large`; skipped (with the reason) if the device lacks the memory.
#include "harness/reduce/reduce_large.hpp"
#include "harness/gtest/large_test.hpp"

namespace {

using kernels::Op;
using kernels::TypeKey;

class LargeReduce : public harness::LargeTest {
 protected:
  void check_length(std::uint64_t n) {
    std::vector<harness::Case> cases;
    for (Op op : {Op::sum, Op::max, Op::min, Op::last_nonzero}) {  // what the large oracle knows
      if (!variant().supports(TypeKey::int32, op)) continue;
      cases.push_back(harness::large_case(variant(), TypeKey::int32, n));
      cases.back().op = op;
    }
    if (variant().supports(TypeKey::int32_to_int64, Op::sum)) {
      cases.push_back(harness::large_case(variant(), TypeKey::int32_to_int64, n));
    }
    check(cases, harness::kLargeReduce, "int sum, max, min and last_nonzero, and the int_to_longlong sum");
  }
};

TEST_P(LargeReduce, TwoToThe28Ints) { check_length(harness::kLargeTwoToThe28); }

TEST_P(LargeReduce, MoreThanTwoToThe31Ints) { check_length(harness::kLargePastInt32); }

TEST_P(LargeReduce, MoreThanTwoToThe32Ints) { check_length(harness::kLargePastUint32); }

// Variants that take more than 2^32 values of some type (up to any length).
INSTANTIATE_TEST_SUITE_P(large, LargeReduce,
                         testing::ValuesIn(harness::variants_taking_any_type(kernels::Family::reduce,
                                                                             harness::kLargePastUint32)),
                         harness::variant_param_name);

}  // namespace
