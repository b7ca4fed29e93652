// Consistency of the variant registry: what every generic test, ctest label and kcheck line
// relies on.
#include <kernels/reduce/detail/reduce_variant.hpp>
#include <kernels/registry.hpp>
#include <kernels/scan/detail/scan_variant.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using kernels::VariantInfo;

TEST(Registry, IdsAreUniqueAndNoneContainsAnother) {
  // `ctest -L <id>` matches labels as a regular expression: with no id inside another, the
  // unanchored form selects exactly one variant.
  std::set<std::string> ids;
  for (const VariantInfo* info : kernels::all_variants()) EXPECT_TRUE(ids.insert(info->id()).second) << info->id();
  for (const std::string& a : ids) {
    for (const std::string& b : ids) {
      if (a != b) {
        EXPECT_EQ(b.find(a), std::string::npos) << a << " is part of " << b;
      }
    }
  }
}

TEST(Registry, RecordsAreComplete) {
  for (const VariantInfo* info : kernels::all_variants()) {
    SCOPED_TRACE(info->id());
    EXPECT_FALSE(info->description.empty());
    EXPECT_EQ(info->description.find('\n'), std::string_view::npos);
    for (char c : info->name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/');
    EXPECT_EQ(info->ops.empty(), info->family == kernels::Family::sort) << "reductions and scans have ops, sorts none";
    EXPECT_FALSE(info->types.empty());
    ASSERT_NE(info->max_length, nullptr);
    ASSERT_NE(info->accumulation_depth, nullptr);
    EXPECT_EQ(kernels::find_variant(info->id()), info);
  }
}

TEST(Registry, BlockSizesArePowersOfTwoUpTo1024) {
  for (const VariantInfo* info : kernels::all_variants()) {
    SCOPED_TRACE(info->id());
    const kernels::BlockSizes& sizes = info->block_sizes;
    if (sizes.chosen_by_variant()) {
      EXPECT_EQ(sizes.min, 0);
      EXPECT_EQ(sizes.preferred, 0);
      EXPECT_EQ(sizes.all(), std::vector<int>{0});
      continue;
    }
    EXPECT_GE(sizes.min, 1);
    EXPECT_LE(sizes.max, 1024);
    EXPECT_TRUE(sizes.accepts(sizes.min));
    EXPECT_TRUE(sizes.accepts(sizes.max));
    EXPECT_TRUE(sizes.accepts(sizes.preferred));
    EXPECT_FALSE(sizes.accepts(sizes.max * 2));
    for (int size : sizes.all()) EXPECT_EQ(size & (size - 1), 0) << size;
    EXPECT_GT(info->max_length(sizes.min), 0u);
  }
}

TEST(Registry, EveryDeclaredTypeAndOpOfAReductionHasAnEntryPoint) {
  for (const kernels::detail::ReduceVariant* variant : kernels::detail::reduce_variants()) {
    SCOPED_TRACE(variant->id);
    for (kernels::TypeKey type : kernels::kAllTypeKeys) {
      for (kernels::Op op : kernels::kAllOps) {
        const bool declared = variant->info.supports(type, op);
        EXPECT_EQ(variant->entry(type, index_of(op)).run != nullptr, declared) << name(type) << " " << name(op);
        EXPECT_EQ(variant->entry(type, index_of(op)).workspace_bytes != nullptr, declared) << name(type) << " " << name(op);
      }
    }
  }
}

TEST(Registry, EveryScanHasBothKindsForEveryType) {
  for (const kernels::detail::ScanVariant* variant : kernels::detail::scan_variants()) {
    SCOPED_TRACE(variant->id);
    EXPECT_EQ(variant->info.ops, std::vector<kernels::Op>{kernels::Op::sum});
    for (kernels::TypeKey type : kernels::kAllTypeKeys) {
      for (kernels::ScanKind kind : kernels::kAllScanKinds) {
        EXPECT_EQ(variant->entry(type, index_of(kind)).run != nullptr, variant->info.supports(type)) << name(type);
      }
    }
  }
}

TEST(Registry, EverySortHasKeysAndPairsExactlyWhenDeclared) {
  for (const kernels::detail::SortVariant* variant : kernels::detail::sort_variants()) {
    SCOPED_TRACE(variant->id);
    EXPECT_EQ(variant->info.accumulation_depth(1000, variant->info.resolve_block_size(0)), 0u);
    for (kernels::TypeKey type : kernels::kAllTypeKeys) {
      const bool declared = variant->info.supports(type);
      EXPECT_EQ(variant->entry(type, index_of(kernels::SortForm::keys)).run != nullptr, declared) << name(type);
      EXPECT_EQ(variant->entry(type, index_of(kernels::SortForm::pairs)).run != nullptr,
                declared && variant->info.sorts_pairs)
          << name(type);
    }
    if (variant->info.sorts_pairs) {
      EXPECT_TRUE(variant->info.stable) << "pairs exist to show stability";
    }
  }
}

TEST(Registry, TheScanFamilyHasEveryVariantOfTheLadder) {
  for (const char* name : {"naive", "hillis_steele_two_barriers", "hillis_steele_double_buffer", "blelloch_plain",
                           "blelloch_padded", "warp_shuffle", "scan_then_fan/hillis_steele_two_barriers",
                           "scan_then_fan/hillis_steele_double_buffer", "scan_then_fan/blelloch_plain",
                           "scan_then_fan/blelloch_padded", "scan_then_fan/warp_shuffle", "decoupled_lookback", "cub"}) {
    EXPECT_NE(kernels::find_variant(kernels::Family::scan, name), nullptr) << name;
  }
}

TEST(Registry, TheReductionFamilyHasEveryVariantOfTheLadder) {
  for (const char* name : {"harris1_interleaved_divergent", "harris2_interleaved_strided", "harris3_sequential",
                           "harris4_first_add_during_load", "harris5_unroll_last_warp", "harris6_complete_unroll",
                           "harris7_multi_element", "warp_shuffle", "vectorized_single_pass", "cub"}) {
    EXPECT_NE(kernels::find_variant(kernels::Family::reduce, name), nullptr) << name;
  }
}

TEST(Registry, NamesParseBack) {
  for (kernels::TypeKey type : kernels::kAllTypeKeys) EXPECT_EQ(kernels::parse_type(kernels::name(type)), type);
  for (kernels::Op op : kernels::kAllOps) EXPECT_EQ(kernels::parse_op(kernels::name(op)), op);
  for (kernels::Family family : kernels::kAllFamilies) EXPECT_EQ(kernels::parse_family(kernels::name(family)), family);
  EXPECT_EQ(kernels::find_variant("reduce/no_such_variant"), nullptr);
  EXPECT_EQ(kernels::find_variant("cub"), nullptr);
}

}  // namespace
