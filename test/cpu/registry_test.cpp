// Consistency of the variant registry: what every generic test, ctest label and kcheck line
// relies on.
#include "harness/gtest/variant_listing.hpp"
#include "harness/runner/declared_contract.hpp"

#include <kernels/detail/describe_operator.hpp>
#include <kernels/detail/variant_table.hpp>
#include <kernels/errors.hpp>
#include <kernels/operators.hpp>
#include <kernels/reduce/detail/reduce_variant.hpp>
#include <kernels/registry.hpp>
#include <kernels/scan/detail/scan_variant.hpp>
#include <kernels/sort/detail/sort_variant.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <stdexcept>
#include <string>

#ifndef KERNELS_DECLARED_CONTRACTS
#error "KERNELS_DECLARED_CONTRACTS (the path of test/cpu/declared_contracts.txt) must be defined"
#endif

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

// The checks of one variant's record, instantiated under its id: ctest runs them as that
// variant's entry (cpu.registry.<id>, labelled with the variant).
class Record : public testing::TestWithParam<const VariantInfo*> {
 protected:
  const VariantInfo& info() const { return *GetParam(); }
};

TEST_P(Record, IsComplete) {
  EXPECT_FALSE(info().description.empty());
  EXPECT_EQ(info().description.find('\n'), std::string_view::npos);
  for (char c : info().name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/');
  for (const kernels::TypeOps& entry : info().type_ops) {
    EXPECT_EQ(entry.ops.empty(), info().family == kernels::Family::sort) << "reductions and scans have ops, sorts none";
  }
  EXPECT_FALSE(info().types().empty());
  ASSERT_NE(info().max_length, nullptr);
  ASSERT_NE(info().accumulation_depth, nullptr);
  EXPECT_EQ(kernels::find_variant(info().id()), &info());
}

// Block size 0 is the preferred size, and the record's functions see it resolved: a depth or
// limit computed from an unresolved 0 divided by zero (a SIGFPE in kcheck) or never ended (a
// hang) before they were called through max_length_with and depth_with. The depth of a variant
// whose grid follows the device (CUB's, the multi-element and single-pass reductions) needs one.
TEST_P(Record, TakesBlockSizeZeroAsThePreferredOne) {
  const kernels::BlockSizes& sizes = info().block_sizes;
  EXPECT_TRUE(sizes.accepts(0));
  EXPECT_EQ(info().max_length_with(0), info().max_length(sizes.resolve(0)));
  EXPECT_GT(info().max_length_with(0), 0u);
  for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(12), std::uint64_t(100003)}) {
    if (n <= info().max_length_with(0) && info().family != kernels::Family::sort) {
      try {
        EXPECT_EQ(info().depth_with(n, 0), info().accumulation_depth(n, sizes.resolve(0)));
      } catch (const kernels::CudaError& error) {
        GTEST_SKIP() << "its accumulation depth depends on the device, and there is none: " << error.what();
      }
    }
  }
}

TEST_P(Record, DeclaresBlockSizesOfADeclaredShape) {
  const kernels::BlockSizes& sizes = info().block_sizes;
  if (sizes.chosen_by_variant_itself()) {
    EXPECT_EQ(sizes.preferred(), 0);
    EXPECT_EQ(sizes.all(), std::vector<int>{0});
    EXPECT_FALSE(sizes.accepts(256));
    return;
  }
  EXPECT_GE(sizes.smallest(), 1);
  EXPECT_LE(sizes.largest(), 1024);
  EXPECT_TRUE(sizes.accepts(sizes.preferred()));
  EXPECT_FALSE(sizes.accepts(2048));
  EXPECT_FALSE(sizes.accepts(-32));
  for (int size : sizes.all()) EXPECT_TRUE(sizes.accepts(size)) << size;
  EXPECT_GT(info().max_length(sizes.smallest()), 0u);
}

// Every declared combination of type and mode has an entry point, and no other does.
TEST_P(Record, HasAnEntryPointForExactlyWhatItDeclares) {
  using kernels::detail::find_in_family;
  switch (info().family) {
    case kernels::Family::reduce: {
      const auto& variant = find_in_family<kernels::detail::ReduceVariant>(info().family, info().name);
      for (kernels::TypeKey type : kernels::kAllTypeKeys) {
        for (kernels::Op op : kernels::all_ops()) {
          const bool declared = info().supports(type, op);
          EXPECT_EQ(variant.entry(type, index_of(op)).run != nullptr, declared) << name(type) << " " << name(op);
          EXPECT_EQ(variant.entry(type, index_of(op)).workspace_bytes != nullptr, declared)
              << name(type) << " " << name(op);
        }
      }
      break;
    }
    case kernels::Family::scan: {
      const auto& variant = find_in_family<kernels::detail::ScanVariant>(info().family, info().name);
      for (kernels::TypeKey type : kernels::kAllTypeKeys) {
        for (kernels::ScanKind kind : kernels::kAllScanKinds) {
          for (kernels::Op op : kernels::all_ops()) {
            const bool declared = info().supports(type, op) && info().supports(kind);
            EXPECT_EQ(variant.entry(type, kernels::detail::scan_mode_index(kind, op)).run != nullptr, declared)
                << name(type) << " " << name(kind) << " " << name(op);
          }
        }
      }
      break;
    }
    case kernels::Family::sort: {
      const auto& variant = find_in_family<kernels::detail::SortVariant>(info().family, info().name);
      EXPECT_EQ(info().depth_with(1000, 0), 0u);
      for (kernels::TypeKey type : kernels::kAllTypeKeys) {
        for (kernels::SortForm form : kernels::kAllSortForms) {
          const bool declared = info().supports(type) && info().supports(form);
          EXPECT_EQ(variant.entry(type, index_of(form)).run != nullptr, declared) << name(type) << " " << name(form);
        }
      }
      if (info().supports(kernels::SortForm::pairs)) {
        EXPECT_TRUE(info().stable) << "pairs exist to show stability";
      }
      break;
    }
  }
}

// What a variant promises its callers: the types, ops, kinds and forms, its block sizes and the
// longest input at each, and the properties the tests lean on (deterministic, cross-block,
// in-place, stable). Every GPU test derives its cases from this record, so none can see it move:
// a tile that shrinks from four values a thread to three still passes its own tests while a
// caller's length is now refused. The build writes declared_contracts.txt from the record it
// built, so such a change shows in review and is committed on purpose; a library that declares
// another contract than the committed file (a mutant's, or a stale build's) fails here.
TEST_P(Record, DeclaresTheContractWrittenInDeclaredContracts) {
  std::ifstream file(KERNELS_DECLARED_CONTRACTS);
  ASSERT_TRUE(file) << "cannot read " << KERNELS_DECLARED_CONTRACTS;
  std::vector<std::string> written;
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with(info().id() + " ")) written.push_back(line);
  }
  const std::vector<std::string> declared = harness::contract_lines(info());
  std::string expected;
  for (const std::string& line : declared) expected += line + "\n";
  EXPECT_EQ(declared, written)
      << info().id() << " declares another contract than " << KERNELS_DECLARED_CONTRACTS
      << " holds; if the change is meant, rebuild (the build rewrites the file) and commit it; its lines:\n"
      << expected;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Record, testing::ValuesIn(kernels::all_variants()), harness::variant_param_id);

TEST(Registry, BlockSizeShapesDescribeThemselves) {
  EXPECT_EQ(kernels::BlockSizes(32, 1024, 256).describe(), "0 or a power of two in [32, 1024]");
  EXPECT_EQ(kernels::BlockSizes::one_of({256, 64}, 256).describe(), "0 or one of 64, 256");
  EXPECT_EQ(kernels::BlockSizes::only(128).describe(), "0 or 128");
  EXPECT_EQ(kernels::BlockSizes::only(128).all(), std::vector<int>{128});
  EXPECT_FALSE(kernels::BlockSizes::one_of({64, 256}, 64).accepts(128));
  EXPECT_THROW(kernels::BlockSizes(48, 1024, 256), std::logic_error);
  EXPECT_THROW(kernels::BlockSizes::one_of({64}, 128), std::logic_error);
}

TEST(Registry, TheScanFamilyHasEveryVariantOfTheLadder) {
  for (const char* name :
       {"naive", "hillis_steele_two_barriers", "hillis_steele_double_buffer", "blelloch_plain", "blelloch_padded",
        "warp_shuffle", "scan_then_fan/hillis_steele_two_barriers", "scan_then_fan/hillis_steele_double_buffer",
        "scan_then_fan/blelloch_plain", "scan_then_fan/blelloch_padded", "scan_then_fan/warp_shuffle",
        "decoupled_lookback", "cub"}) {
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

// The CUB scan's tiles follow CUB's sm_90 tuning, which depends on the element's width alone: a
// tile of the wrong width puts the tests' tile boundaries (RecursionBoundaries) in the wrong places.
TEST(Registry, TheCubScansTileDependsOnTheWidthAlone) {
  const VariantInfo& cub = *kernels::find_variant("scan/cub");
  using kernels::TypeKey;
  const auto tile = [&](TypeKey type) { return cub.tile_size(0, type); };
  EXPECT_EQ(tile(TypeKey::int64), 224u * 24);
  EXPECT_EQ(tile(TypeKey::uint64), tile(TypeKey::int64));
  EXPECT_EQ(tile(TypeKey::float64), tile(TypeKey::int64));
  EXPECT_EQ(tile(TypeKey::int32), 128u * 24);
  EXPECT_EQ(tile(TypeKey::uint32), tile(TypeKey::int32));
  EXPECT_EQ(tile(TypeKey::float32), tile(TypeKey::int32));
  EXPECT_EQ(tile(TypeKey::float16), 512u * 12);
  EXPECT_EQ(tile(TypeKey::bfloat16), tile(TypeKey::float16));
}

// A vector path's record is whole: its tile holds whole vectors of every type it declares.
TEST(Registry, VectorPathsTileWholeVectors) {
  int declared = 0;
  for (const VariantInfo* variant : kernels::all_variants()) {
    if (variant->vector_values == nullptr) continue;
    ++declared;
    ASSERT_NE(variant->tile_size, nullptr) << variant->id();
    for (kernels::TypeKey type : variant->types()) {
      const std::uint64_t lanes = variant->vector_values(type);
      EXPECT_GE(lanes, 2u) << variant->id() << " " << name(type);
      for (int block : variant->block_sizes.all()) {
        EXPECT_EQ(variant->tile_size(variant->resolve_block_size(block), type) % lanes, 0u)
            << variant->id() << " " << name(type) << " block " << block;
      }
    }
  }
  EXPECT_GE(declared, 2) << "the look-back scan and the single-pass reduction load vectors";
}

// An operator joining under a taken or malformed name, or without what the oracle and the laws call,
// would be judged as another or not at all: registration refuses it, naming it.
TEST(OperatorRegistration, RefusesABadNameATakenNameAndAnIncompleteRecord) {
  const auto refusal = [](kernels::OperatorInfo record) {
    try {
      kernels::register_operator(std::move(record));
    } catch (const std::logic_error& refused) {
      return std::string(refused.what());
    }
    return std::string("registered");
  };
  using Descriptor = kernels::operators::LastNonZero;
  EXPECT_EQ(refusal(kernels::detail::describe_operator<Descriptor>("Last Value")),
            "operator Last Value: a name of [a-z0-9_] only");
  EXPECT_EQ(refusal(kernels::detail::describe_operator<Descriptor>("last_nonzero")),
            "operator last_nonzero: registered twice");
  auto typeless = kernels::detail::describe_operator<Descriptor>("typeless");
  typeless.types.clear();
  EXPECT_EQ(refusal(typeless), "operator typeless: takes no element type");
  auto without_reference = kernels::detail::describe_operator<Descriptor>("without_reference");
  without_reference.reference = nullptr;
  EXPECT_EQ(refusal(without_reference), "operator without_reference: needs an identity, a reference and a combine");
  EXPECT_FALSE(kernels::parse_op("typeless").has_value());
}

TEST(Registry, NamesParseBack) {
  for (kernels::TypeKey type : kernels::kAllTypeKeys) EXPECT_EQ(kernels::parse_type(kernels::name(type)), type);
  for (kernels::Op op : kernels::all_ops()) EXPECT_EQ(kernels::parse_op(kernels::name(op)), op);
  for (kernels::Family family : kernels::kAllFamilies) EXPECT_EQ(kernels::parse_family(kernels::name(family)), family);
  EXPECT_EQ(kernels::find_variant("reduce/no_such_variant"), nullptr);
  EXPECT_EQ(kernels::find_variant("cub"), nullptr);
}

}  // namespace

// A record out of operand order that offers an operator that is not commutative would be run with
// answers no oracle expects: registration refuses it, naming the operator.
TEST(Registration, RefusesARecordOutOfOperandOrderThatOffersAnOrderedOperator) {
  static kernels::VariantInfo info;
  info.family = kernels::Family::reduce;
  info.name = "out_of_order_with_last_nonzero";
  info.type_ops = {{kernels::TypeKey::int32, {kernels::Op::sum, kernels::Op::last_nonzero}}};
  info.max_length = [](int) -> std::uint64_t { return 1; };
  info.accumulation_depth = [](std::uint64_t, int) -> std::uint64_t { return 1; };
  info.keeps_operand_order = false;
  try {
    kernels::detail::add_to_registry(info);
    ADD_FAILURE() << "registered " << info.id();
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("last_nonzero"), std::string::npos) << error.what();
  }
}
