// RapidCheck properties of every scan variant, run on the GPU with int inputs (wrapping, so
// every relation is exact). Block sizes come from the variant's supported set and lengths are
// generated explicitly up to several recursion levels (RapidCheck's size stops at 100), within
// the variant's length limit. A failure prints the shrunk counterexample and, at exit, the
// RC_PARAMS="reproduce=..." line that replays it.
#include "harness/gtest/test_main.hpp"
#include "harness/runner/device_calls.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>

namespace {

using harness::scan_on_device;
using kernels::ScanKind;
using kernels::VariantInfo;

int wrapping_add(int a, int b) { return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b)); }
int wrapping_sub(int a, int b) { return static_cast<int>(static_cast<unsigned>(a) - static_cast<unsigned>(b)); }

class ScanProperties : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& variant() const { return *GetParam(); }
  std::string property(const std::string& what) const { return variant().id() + ": " + what; }

  struct Case {
    int block_size;
    std::vector<int> values;
  };
  // A block size, then values of a length the variant takes with it: mostly up to a few
  // thousand, a third of the time up to 300000.
  Case generate_case(std::uint64_t longest = 300000) const {
    std::vector<int> sizes = variant().block_sizes.all();
    sizes.push_back(0);  // the preferred size
    const int block = *rc::gen::elementOf(sizes);
    const std::uint64_t limit = std::min<std::uint64_t>(longest, variant().max_length_with(block));
    const std::size_t drawn = *rc::gen::weightedOneOf<std::size_t>(
        {{2, rc::gen::inRange<std::size_t>(0, std::min<std::uint64_t>(limit, 5000) + 1)},
         {1, rc::gen::inRange<std::size_t>(0, limit + 1)}});
    const auto n = static_cast<std::size_t>(variant().accepted_length_at_most(drawn, block, kernels::TypeKey::int32));
    return {block, *rc::gen::container<std::vector<int>>(n, rc::gen::arbitrary<int>())};
  }
};

TEST_P(ScanProperties, DifferencesOfTheInclusiveScanAreTheInput) {
  EXPECT_TRUE(rc::check(property("scan[i] - scan[i-1] == in[i]"), [this] {
    if (!variant().supports(ScanKind::inclusive)) return;  // nothing this variant declares
    const Case c = generate_case();
    const std::vector<int> scanned = scan_on_device<int>(variant(), ScanKind::inclusive, c.values, c.block_size);
    for (std::size_t i = 0; i < c.values.size(); ++i) {
      const int difference = i == 0 ? scanned[0] : wrapping_sub(scanned[i], scanned[i - 1]);
      RC_ASSERT(difference == c.values[i]);
    }
  }));
}

TEST_P(ScanProperties, ExclusiveIsTheInclusiveShiftedByOne) {
  EXPECT_TRUE(rc::check(property("exclusive[0] == 0 and exclusive[i] == inclusive[i-1]"), [this] {
    if (!variant().supports(ScanKind::inclusive) || !variant().supports(ScanKind::exclusive)) return;
    const Case c = generate_case();
    const auto inclusive = scan_on_device<int>(variant(), ScanKind::inclusive, c.values, c.block_size);
    const auto exclusive = scan_on_device<int>(variant(), ScanKind::exclusive, c.values, c.block_size);
    for (std::size_t i = 0; i < c.values.size(); ++i) RC_ASSERT(exclusive[i] == (i == 0 ? 0 : inclusive[i - 1]));
  }));
}

TEST_P(ScanProperties, TheLastInclusiveValueIsTheReduction) {
  const VariantInfo& reduction = *kernels::find_variant(kernels::Family::reduce, "cub");
  EXPECT_TRUE(rc::check(property("inclusive.back() == reduce(in) (reduce/cub)"), [&] {
    if (!variant().supports(ScanKind::inclusive)) return;
    const Case c = generate_case();
    RC_PRE(!c.values.empty());
    const auto inclusive = scan_on_device<int>(variant(), ScanKind::inclusive, c.values, c.block_size);
    const int total = harness::reduce_on_device<int, int>(reduction, kernels::Op::sum, c.values, 0);
    RC_ASSERT(inclusive.back() == total);
  }));
}

TEST_P(ScanProperties, ScanOfAConcatenationContinuesFromTheFirstPartsTotal) {
  EXPECT_TRUE(rc::check(property("scan(a ++ b) == scan(a) ++ (total(a) + scan(b))"), [this] {
    if (!variant().supports(ScanKind::inclusive)) return;
    const Case a = generate_case(150000);
    const auto b_length = static_cast<std::size_t>(variant().accepted_length_at_most(
        *rc::gen::inRange<std::size_t>(0, a.values.size() + 1), a.block_size, kernels::TypeKey::int32));
    const std::vector<int> b = *rc::gen::container<std::vector<int>>(b_length, rc::gen::arbitrary<int>());
    RC_PRE(variant().accepts_length(a.values.size() + b.size(), a.block_size, kernels::TypeKey::int32));
    std::vector<int> joined = a.values;
    joined.insert(joined.end(), b.begin(), b.end());
    const auto whole = scan_on_device<int>(variant(), ScanKind::inclusive, joined, a.block_size);
    const auto first = scan_on_device<int>(variant(), ScanKind::inclusive, a.values, a.block_size);
    const auto second = scan_on_device<int>(variant(), ScanKind::inclusive, b, a.block_size);
    const int total = first.empty() ? 0 : first.back();
    for (std::size_t i = 0; i < a.values.size(); ++i) RC_ASSERT(whole[i] == first[i]);
    for (std::size_t i = 0; i < b.size(); ++i) RC_ASSERT(whole[a.values.size() + i] == wrapping_add(total, second[i]));
  }));
}

INSTANTIATE_TEST_SUITE_P(property, ScanProperties, testing::ValuesIn(kernels::variants_of(kernels::Family::scan)),
                         harness::variant_param_name);

}  // namespace
