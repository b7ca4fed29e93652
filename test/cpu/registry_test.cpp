// Consistency of the variant registry: what every generic test, ctest label and kcheck line
// relies on.
#include <kernels/errors.hpp>
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
    for (const kernels::TypeOps& entry : info->type_ops) {
      EXPECT_EQ(entry.ops.empty(), info->family == kernels::Family::sort) << "reductions and scans have ops, sorts none";
    }
    EXPECT_FALSE(info->types().empty());
    ASSERT_NE(info->max_length, nullptr);
    ASSERT_NE(info->accumulation_depth, nullptr);
    EXPECT_EQ(kernels::find_variant(info->id()), info);
  }
}

// Block size 0 is the preferred size for every variant, and the record's functions see it
// resolved: a depth or limit computed from an unresolved 0 divided by zero (a SIGFPE in kcheck)
// or never ended (a hang) before they were called through max_length_with and depth_with.
// Block 0 resolves to the preferred size in every query. Variants whose grid fills the device
// answer depth and length from its multiprocessor count: on a machine without a GPU those
// queries throw CudaError (a CUDA error, not a wrong answer), and only the rest is compared.
TEST(Registry, BlockSizeZeroIsThePreferredOneEverywhere) {
  int compared = 0;
  for (const VariantInfo* info : kernels::all_variants()) {
    SCOPED_TRACE(info->id());
    const kernels::BlockSizes& sizes = info->block_sizes;
    EXPECT_TRUE(sizes.accepts(0));
    try {
      EXPECT_EQ(info->max_length_with(0), info->max_length(sizes.resolve(0)));
      EXPECT_GT(info->max_length_with(0), 0u);
      for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(12), std::uint64_t(100003)}) {
        if (n <= info->max_length_with(0) && info->family != kernels::Family::sort) {
          EXPECT_EQ(info->depth_with(n, 0), info->accumulation_depth(n, sizes.resolve(0)));
        }
      }
      ++compared;
    } catch (const kernels::CudaError&) {
      // needs the device (see above)
    }
  }
  EXPECT_GT(compared, 0) << "no variant could be queried without a device";
}

TEST(Registry, BlockSizesAreDeclaredShapes) {
  for (const VariantInfo* info : kernels::all_variants()) {
    SCOPED_TRACE(info->id());
    const kernels::BlockSizes& sizes = info->block_sizes;
    if (sizes.chosen_by_variant_itself()) {
      EXPECT_EQ(sizes.preferred(), 0);
      EXPECT_EQ(sizes.all(), std::vector<int>{0});
      EXPECT_FALSE(sizes.accepts(256));
      continue;
    }
    EXPECT_GE(sizes.smallest(), 1);
    EXPECT_LE(sizes.largest(), 1024);
    EXPECT_TRUE(sizes.accepts(sizes.preferred()));
    EXPECT_FALSE(sizes.accepts(2048));
    EXPECT_FALSE(sizes.accepts(-32));
    for (int size : sizes.all()) EXPECT_TRUE(sizes.accepts(size)) << size;
    EXPECT_GT(info->max_length(sizes.smallest()), 0u);
  }
}

TEST(Registry, BlockSizeShapesDescribeThemselves) {
  EXPECT_EQ(kernels::BlockSizes(32, 1024, 256).describe(), "0 or a power of two in [32, 1024]");
  EXPECT_EQ(kernels::BlockSizes::one_of({256, 64}, 256).describe(), "0 or one of 64, 256");
  EXPECT_EQ(kernels::BlockSizes::only(128).describe(), "0 or 128");
  EXPECT_EQ(kernels::BlockSizes::only(128).all(), std::vector<int>{128});
  EXPECT_FALSE(kernels::BlockSizes::one_of({64, 256}, 64).accepts(128));
  EXPECT_THROW(kernels::BlockSizes(48, 1024, 256), std::logic_error);
  EXPECT_THROW(kernels::BlockSizes::one_of({64}, 128), std::logic_error);
}

TEST(Registry, EveryDeclaredTypeAndOpOfAReductionHasAnEntryPoint) {
  for (const auto* variant : kernels::detail::registered_variants<kernels::detail::ReduceVariant>()) {
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

TEST(Registry, EveryDeclaredTypeAndKindOfAScanHasAnEntryPoint) {
  for (const auto* variant : kernels::detail::registered_variants<kernels::detail::ScanVariant>()) {
    SCOPED_TRACE(variant->id);
    EXPECT_EQ(variant->info.all_ops(), std::vector<kernels::Op>{kernels::Op::sum});
    for (kernels::TypeKey type : kernels::kAllTypeKeys) {
      for (kernels::ScanKind kind : kernels::kAllScanKinds) {
        const bool declared = variant->info.supports(type) && variant->info.supports(kind);
        EXPECT_EQ(variant->entry(type, index_of(kind)).run != nullptr, declared) << name(type) << " " << name(kind);
      }
    }
  }
}

TEST(Registry, EverySortHasKeysAndPairsExactlyWhenDeclared) {
  for (const auto* variant : kernels::detail::registered_variants<kernels::detail::SortVariant>()) {
    SCOPED_TRACE(variant->id);
    EXPECT_EQ(variant->info.depth_with(1000, 0), 0u);
    for (kernels::TypeKey type : kernels::kAllTypeKeys) {
      for (kernels::SortForm form : kernels::kAllSortForms) {
        const bool declared = variant->info.supports(type) && variant->info.supports(form);
        EXPECT_EQ(variant->entry(type, index_of(form)).run != nullptr, declared) << name(type) << " " << name(form);
      }
    }
    if (variant->info.supports(kernels::SortForm::pairs)) {
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
