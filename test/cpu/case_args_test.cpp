// The rerun line round-trips: for every variant, every declared type and mode, every
// distribution that applies, in-place where declared, and the extreme values of every option,
// parse_case_args(to_args(c)) == c. And kcheck's parser rejects what is not a case, naming the
// option, without a GPU.
#include "kcheck/case_args.hpp"
#include "harness/large/large_case.hpp"
#include "harness/runner/case.hpp"

#include <kernels/registry.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

using harness::Case;
using harness::CaseArgsError;
using kernels::VariantInfo;

// Every mode the variant declares for the type, each as a case to vary.
std::vector<Case> modes_of(const VariantInfo& variant, kernels::TypeKey type) {
  Case base{.family = variant.family, .variant = std::string(variant.name), .type = type};
  std::vector<Case> cases;
  switch (variant.family) {
    case kernels::Family::reduce:
      for (kernels::Op op : variant.ops(type)) cases.push_back(base), cases.back().op = op;
      break;
    case kernels::Family::scan:
      for (kernels::ScanKind kind : variant.kinds) {
        for (kernels::Op op : variant.ops(type)) {
          cases.push_back(base), cases.back().kind = kind, cases.back().op = op;
          if (variant.in_place) cases.push_back(cases.back()), cases.back().in_place = true;
        }
      }
      break;
    case kernels::Family::sort:
      for (kernels::SortForm form : variant.forms) cases.push_back(base), cases.back().form = form;
      break;
  }
  return cases;
}

TEST(CaseArgs, EveryCaseOfEveryVariantRoundTrips) {
  std::size_t checked = 0;
  for (const VariantInfo* variant : kernels::all_variants()) {
    for (kernels::TypeKey type : variant->types()) {
      for (Case c : modes_of(*variant, type)) {
        for (harness::Distribution distribution : harness::kAllDistributions) {
          if (!harness::applies_to(distribution, type)) continue;
          c.distribution = distribution;
          // The extreme block sizes and 0 (the preferred one): the line's other fields do not
          // depend on which block size lies between.
          const std::vector<int> blocks = variant->block_sizes.all();
          for (int block_size : {blocks.front(), blocks.back()}) {
            for (int block : {block_size, 0}) {
              c.block_size = block;
              for (std::uint64_t n : {std::uint64_t(0), variant->accepted_length_at_most(1000, block, type),
                                      variant->max_length_with(block) -
                                          variant->max_length_with(block) % variant->length_step(block, type)}) {
                c.n = n;
                // The extremes of the seed, the offset and the run options (printed apart from
                // the rest, each independently of the fields above), in turn: each meets every
                // variant, type and mode, and the whole grid costs one parse a line.
                const bool high_seed = checked % 2 == 1, high_offset = checked % 4 >= 2;
                c.seed = high_seed ? std::numeric_limits<std::uint64_t>::max() : 0;
                c.repeat = high_seed ? harness::kMaxRepeat : 1u;
                c.graph = high_seed;
                c.noise = high_seed ? harness::kMaxNoise : 0u;
                c.noise_seed = high_seed ? std::numeric_limits<std::uint64_t>::max() : 0u;
                c.chained = high_offset;
                c.offset = high_offset ? harness::kMaxOffset : 0u;
                ASSERT_EQ(harness::parse_case_args(harness::to_args(c)), c) << harness::kcheck_line(c);
                ++checked;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10000u);  // about 40,000
}

// The large cases as the large tests build them (harness/large/large_case.hpp): every op, kind
// or form of every variant that takes ints (a sort's floats too), at 2^28 and past 2^31 and 2^32
// (or the variant's limit), at the preferred and the extreme block sizes, with the extreme seeds.
TEST(CaseArgs, EveryLargeCaseRoundTrips) {
  std::size_t checked = 0;
  for (const VariantInfo* variant : kernels::all_variants()) {
    for (kernels::TypeKey type : variant->types()) {
      if (!harness::applies_to(harness::Distribution::large, type)) continue;
      for (Case c : modes_of(*variant, type)) {
        c.distribution = harness::Distribution::large;
        const std::vector<int> blocks = variant->block_sizes.all();
        for (int block : {0, blocks.front(), blocks.back()}) {
          c.block_size = block;
          for (std::uint64_t wanted :
               {harness::kLargeTwoToThe28, harness::kLargePastInt32, harness::kLargePastUint32}) {
            c.n = variant->accepted_length_at_most(wanted, block, type);
            if (harness::large_case_breach(*variant, c)) continue;  // refused, as ALargeCaseRunsOnceAlone shows
            for (std::uint64_t seed : {std::uint64_t(0), std::numeric_limits<std::uint64_t>::max()}) {
              c.seed = seed;
              ASSERT_EQ(harness::parse_case_args(harness::to_args(c)), c) << harness::kcheck_line(c);
              ++checked;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 500u);
}

std::string rejected_option(const std::vector<std::string>& args) {
  try {
    harness::parse_case_args(args);
  } catch (const CaseArgsError& error) {
    return error.option();
  }
  return "(accepted)";
}

TEST(CaseArgs, RejectsWhatIsNotACaseNamingTheOption) {
  EXPECT_EQ(rejected_option({"scan/decoupled_lookback", "--n", "-5"}), "--n");
  EXPECT_EQ(rejected_option({"scan/decoupled_lookback", "--n", "12abc"}), "--n");
  EXPECT_EQ(rejected_option({"scan/decoupled_lookback", "--n", "18446744073709551616"}), "--n");
  EXPECT_EQ(rejected_option({"scan/decoupled_lookback", "--n", "+12"}), "--n");
  EXPECT_EQ(rejected_option({"scan/cub", "--op", "max"}), "--op");
  EXPECT_EQ(rejected_option({"reduce/cub", "--in-place"}), "--in-place");
  EXPECT_EQ(rejected_option({"reduce/cub", "--kind", "inclusive"}), "--kind");
  EXPECT_EQ(rejected_option({"scan/naive", "--form", "keys"}), "--form");
  EXPECT_EQ(rejected_option({"reduce/cub", "--block", "256"}), "--block");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--block", "99999999999"}), "--block");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--offset", "16"}), "--offset");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--repeat", "0"}), "--repeat");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--repeat", "1001"}), "--repeat");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--noise", "10001"}), "--noise");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--noise", "-1"}), "--noise");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--graph", "1"}), "arguments");
  // The noise a failure ran beside, by its seed: only with noise.
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--noise", "50", "--noise-seed", "77"}), "(accepted)");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--noise-seed", "77"}), "--noise-seed");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--noise", "50", "--noise-seed", "-1"}), "--noise-seed");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--type", "int128"}), "--type");
  EXPECT_EQ(rejected_option({"scan/naive", "--type", "int8"}), "--type");                // no 8-bit scans
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--dist", "nan"}), "--dist");  // int input
  EXPECT_EQ(rejected_option({"scan/naive", "--type", "int_to_longlong"}), "--type");
  EXPECT_EQ(rejected_option({"reduce/no_such_variant"}), "variant");
  EXPECT_EQ(rejected_option({"reduce/harris3_sequential", "--unknown"}), "arguments");
  EXPECT_EQ(rejected_option({}), "arguments");
  EXPECT_EQ(rejected_option({"scan/blelloch_plain", "--n", "100003"}), "--n");  // one block: beyond its limit
}

// A large case runs once, alone, at offset 0, on ints (or a sort's float keys): every other way of
// running it is refused, naming the option.
TEST(CaseArgs, ALargeCaseRunsOnceAlone) {
  const std::vector<std::string> large{"reduce/harris3_sequential", "--dist", "large", "--n", "2148532227"};
  const auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), large.begin(), large.end());
    return more;
  };
  EXPECT_EQ(rejected_option(large), "(accepted)");
  EXPECT_EQ(rejected_option(with({"--type", "int_to_longlong"})), "(accepted)");
  EXPECT_EQ(rejected_option(with({"--offset", "1"})), "--offset");
  EXPECT_EQ(rejected_option(with({"--repeat", "2"})), "--repeat");
  EXPECT_EQ(rejected_option(with({"--graph"})), "--graph");
  EXPECT_EQ(rejected_option(with({"--noise", "50"})), "--noise");
  EXPECT_EQ(rejected_option(with({"--chained"})), "--chained");
  EXPECT_EQ(rejected_option(with({"--type", "float"})), "--type");  // floats are only sort keys
  EXPECT_EQ(rejected_option({"sort/cub", "--dist", "large", "--type", "float", "--n", "4296015875"}), "(accepted)");
  EXPECT_EQ(rejected_option({"sort/cub", "--dist", "large", "--type", "double"}), "--dist");
  // Past 2^32 keys, pairs' values (32-bit indices) cannot number them; keys alone can.
  EXPECT_EQ(rejected_option({"sort/cub", "--dist", "large", "--form", "pairs", "--n", "4294967296"}), "(accepted)");
  EXPECT_EQ(rejected_option({"sort/cub", "--dist", "large", "--form", "pairs", "--n", "4294967297"}), "--n");
  EXPECT_EQ(rejected_option({"sort/cub", "--dist", "large", "--form", "keys", "--n", "4294967297"}), "(accepted)");
  EXPECT_EQ(rejected_option({"scan/blelloch_padded", "--dist", "large", "--in-place"}), "--in-place");
  // The large oracle judges sum, max, min and last_nonzero, a scan's as a reduction's; a widening case is a sum.
  const std::vector<kernels::Op> cub_ops = kernels::find_variant("scan/cub")->ops(kernels::TypeKey::int32);
  ASSERT_NE(std::find(cub_ops.begin(), cub_ops.end(), kernels::Op::last_nonzero), cub_ops.end());
  EXPECT_EQ(rejected_option({"scan/cub", "--dist", "large", "--op", "last_nonzero", "--n", "4296015875"}),
            "(accepted)");
  EXPECT_EQ(rejected_option({"scan/cub", "--dist", "large", "--op", "max"}),
            "--op");  // not declared: the contract first
  EXPECT_EQ(rejected_option(with({"--op", "max"})), "(accepted)");
  EXPECT_EQ(rejected_option(with({"--type", "int_to_longlong", "--op", "max"})), "--op");
  EXPECT_EQ(rejected_option({"sort/radix_lsd", "--dist", "large", "--form", "pairs"}), "(accepted)");
  // Every registered variant that sorts pairs is stable; one that were not could not take them.
  kernels::VariantInfo unstable = *kernels::find_variant("sort/radix_lsd");
  unstable.stable = false;
  Case pairs = harness::parse_case_args({"sort/radix_lsd", "--dist", "large", "--form", "pairs"});
  ASSERT_TRUE(harness::large_case_breach(unstable, pairs));
  EXPECT_EQ(harness::large_case_breach(unstable, pairs)->parameter, "form");
  pairs.form = kernels::SortForm::keys;
  EXPECT_FALSE(harness::large_case_breach(unstable, pairs));

  const Case c = harness::parse_case_args(large);
  try {
    harness::parse_batch_lines({harness::kcheck_line(c)});
    ADD_FAILURE() << "accepted a large case in a batch";
  } catch (const CaseArgsError& error) {
    EXPECT_EQ(error.option(), "--batch");
  }
}

TEST(CaseArgs, DefaultsLieInsideTheContractForEveryVariant) {
  for (const VariantInfo* variant : kernels::all_variants()) {
    const Case c = harness::parse_case_args({variant->id()});
    EXPECT_FALSE(harness::outside_contract(*variant, c)) << harness::kcheck_line(c);
  }
}

// What the attribution of a stream failure writes for a child kcheck (kcheck_line, one a line)
// is read back as the same cases, in order; a line of another batch is named.
TEST(CaseArgs, BatchLinesReadBackAsTheirCases) {
  Case a{.family = kernels::Family::scan, .variant = "decoupled_lookback", .type = kernels::TypeKey::float32};
  a.kind = kernels::ScanKind::exclusive;
  a.n = 1000;
  a.seed = 7;
  Case b = a;
  b.n = 0;
  b.block_size = 1024;
  b.offset = harness::kMaxOffset;
  b.distribution = harness::Distribution::nan;
  EXPECT_EQ(harness::parse_batch_lines({harness::kcheck_line(a), "", harness::kcheck_line(b)}), (std::vector{a, b}));
  // What batch_lines writes, one line at a time.
  std::vector<std::string> written;
  std::istringstream text(harness::batch_lines(std::vector{a, b}));
  for (std::string line; std::getline(text, line);) written.push_back(line);
  EXPECT_EQ(harness::parse_batch_lines(written), (std::vector{a, b}));

  Case other_kind = b;
  other_kind.kind = kernels::ScanKind::inclusive;
  try {
    harness::parse_batch_lines({harness::kcheck_line(a), harness::kcheck_line(other_kind)});
    ADD_FAILURE() << "accepted cases of two kinds as one batch";
  } catch (const CaseArgsError& error) {
    EXPECT_EQ(error.option(), "--batch");
    EXPECT_NE(std::string(error.what()).find("line 2: "), std::string::npos) << error.what();
  }
  // One batch runs one way: as a graph or not, beside one noise.
  Case as_graph = b;
  as_graph.graph = true;
  EXPECT_THROW(harness::parse_batch_lines({harness::kcheck_line(a), harness::kcheck_line(as_graph)}), CaseArgsError);
  Case with_noise = b;
  with_noise.noise = 50;
  EXPECT_THROW(harness::parse_batch_lines({harness::kcheck_line(a), harness::kcheck_line(with_noise)}), CaseArgsError);
  Case chained = b;
  chained.chained = true;
  EXPECT_THROW(harness::parse_batch_lines({harness::kcheck_line(a), harness::kcheck_line(chained)}), CaseArgsError);
  Case chained_first = a;
  chained_first.chained = true;
  EXPECT_EQ(harness::parse_batch_lines({harness::kcheck_line(chained_first), harness::kcheck_line(chained)}).size(),
            2u);
  EXPECT_THROW(harness::parse_batch_lines({"kcheck scan/decoupled_lookback --n -5"}), CaseArgsError);
  EXPECT_THROW(harness::parse_batch_lines({"", " "}), CaseArgsError);
}

}  // namespace
