// Every operator known to the program (the suite's, and the fixtures' registered matrix2x2_mod16)
// against its own record: on random words of every type it takes, an operator with a host
// reference has a two-sided identity, is associative, computes on the host what its reference
// computes, and is commutative exactly when it says so (harness/numeric/operator_laws.hpp). A
// library's operators get the same checks in its validation entries.
#include "harness/numeric/operator_laws.hpp"
#include "harness/numeric/ordered_fold.hpp"

#include <kernels/operator_registry.hpp>
#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using kernels::Op;

constexpr int kSamples = 20000;

TEST(Operators, EveryReferenceFoldedOperatorIsLawfulOnEveryTypeItTakes) {
  int checked = 0;
  for (Op op : kernels::all_ops()) {
    if (!harness::folds_by_reference(op)) continue;
    for (kernels::TypeKey type : kernels::operator_info(op).types) {
      const harness::OperatorLaws laws = harness::check_operator_laws(op, type, kSamples);
      EXPECT_FALSE(laws.violation) << *laws.violation;
      // The suite's order operators are probes: order must matter on most random words.
      if (kernels::is_builtin(op) && !kernels::is_commutative(op)) {
        EXPECT_GT(laws.order_matters, kSamples / 2) << kernels::name(op) << " rarely depends on order";
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 3) << "the suite's order operators and the fixtures' registered one";
}

// The order operators behave as their headers say on small, readable cases.
TEST(Operators, LastNonZeroCarriesTheLastValueAcrossZeros) {
  using harness::reference_step;
  EXPECT_EQ(reference_step<int>(Op::last_nonzero, 5, 0), 5);
  EXPECT_EQ(reference_step<int>(Op::last_nonzero, 5, 7), 7);
  EXPECT_EQ(reference_step<int>(Op::last_nonzero, 0, -3), -3);
}

TEST(Operators, UnitriangularRemembersWhichCameFirst) {
  // a in bits 0-21, b in bits 22-42, c in bits 43-63: x = (a 1, b 0), y = (a 0, b 1).
  const long long x = 1, y = 1ll << 22;
  EXPECT_EQ(harness::reference_step<long long>(Op::unitriangular, x, y), (1ll << 43) | (1ll << 22) | 1);  // c = 1 * 1
  EXPECT_EQ(harness::reference_step<long long>(Op::unitriangular, y, x), (1ll << 22) | 1);                // c = 0 * 0
}

TEST(Operators, Matrix2x2MultipliesRowsByColumns) {
  // [[1, 2], [3, 4]] * [[5, 6], [7, 8]] = [[19, 22], [43, 50]], entries a, b, c, d by 16 bits.
  const auto pack = [](long long a, long long b, long long c, long long d) { return a | b << 16 | c << 32 | d << 48; };
  const auto matrix = kernels::parse_op("matrix2x2_mod16");  // registered by a fixture
  ASSERT_TRUE(matrix.has_value());
  EXPECT_EQ(harness::reference_step<long long>(*matrix, pack(1, 2, 3, 4), pack(5, 6, 7, 8)), pack(19, 22, 43, 50));
}

}  // namespace
