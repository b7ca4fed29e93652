// The operators of kernels/operators.hpp against their own descriptors: on random words, every
// operator with a host reference has a two-sided identity, is associative, computes on the
// host what its reference computes, and is commutative exactly when it says so (a declared
// non-commutative operator must show a pair whose order matters). A user's new operator is
// checked the moment its line joins the list.
#include "harness/input/random_bits.hpp"
#include "harness/numeric/ordered_fold.hpp"

#include <kernels/types.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using harness::random_bits;
using kernels::Op;

constexpr int kSamples = 20000;

template <class T, class Descriptor>
void expect_lawful(Op op) {
  if constexpr (harness::ReferenceFolded<Descriptor, T>) {
    const std::string what =
        std::string(kernels::name(op)) + " on " + std::string(kernels::name(kernels::type_key_v<T>));
    const T identity = Descriptor::template identity<T>();
    int order_matters = 0;
    for (std::uint64_t k = 0; k < kSamples; ++k) {
      const T a = static_cast<T>(random_bits(7, 3 * k)), b = static_cast<T>(random_bits(7, 3 * k + 1)),
              c = static_cast<T>(random_bits(7, 3 * k + 2));
      const auto step = [](T x, T y) { return Descriptor::template reference<T>(x, y); };
      ASSERT_EQ(step(identity, a), a) << what << ": identity on the left";
      ASSERT_EQ(step(a, identity), a) << what << ": identity on the right";
      ASSERT_EQ(step(step(a, b), c), step(a, step(b, c))) << what << ": not associative";
      ASSERT_EQ((Descriptor::template combine<T>(a, b)), step(a, b)) << what << ": combine differs from the reference";
      order_matters += step(a, b) != step(b, a);
    }
    if (Descriptor::kCommutative) {
      EXPECT_EQ(order_matters, 0) << what << " says it is commutative";
    } else {
      EXPECT_GT(order_matters, kSamples / 2) << what << " says it is not commutative, yet order rarely matters";
    }
  }
}

TEST(Operators, EveryReferenceFoldedOperatorIsLawfulOnEveryTypeItTakes) {
  int checked = 0;
#define CHECK_OPERATOR(key, descriptor)          \
  expect_lawful<int, descriptor>(Op::key);       \
  expect_lawful<unsigned, descriptor>(Op::key);  \
  expect_lawful<long long, descriptor>(Op::key); \
  checked += harness::folds_by_reference(Op::key);
  KERNELS_FOR_EACH_OP(CHECK_OPERATOR)
#undef CHECK_OPERATOR
  EXPECT_GE(checked, 2) << "the suite's order operators are in the list";
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
  EXPECT_EQ(harness::reference_step<long long>(Op::matrix2x2_mod16, pack(1, 2, 3, 4), pack(5, 6, 7, 8)),
            pack(19, 22, 43, 50));
}

}  // namespace
