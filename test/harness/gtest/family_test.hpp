// The fixture of a family's GPU tests (test/<family>/<family>_test.cpp and the shared
// test/variants/contract/contract_test.cpp): the variant fixture of its type plus the one way those
// tests run their cases, in batches, in every mode the variant declares.
#pragma once

#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/variant_test.hpp"
#include "harness/runner/batch.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace harness {

template <class Family>
class FamilyTest : public VariantTest<Family::kType> {
 protected:
  using In = typename Family::In;
  using Mode = typename Family::Mode;

  using Wanted = typename VariantTest<Family::kType>::Wanted;

  // One case before the contract's length rule: the input it asks for and a block size.
  struct Run {
    Wanted input;
    int block_size;
  };

  // The declared modes, those of one input poison together (SharedInputImage keeps one copy).
  std::vector<Mode> modes() const {
    std::vector<Mode> modes = Family::modes(this->variant());
    std::stable_sort(modes.begin(), modes.end(), [](Mode a, Mode b) {
      return bits_of(Family::input_poison(a)) < bits_of(Family::input_poison(b));
    });
    return modes;
  }

  // Every run in every declared mode (op, kind or form). The runs are cut into partitions of at
  // most kBatchValues values, and each partition runs as one batch per mode, the modes in a row
  // so that they read one upload of its inputs. Each run's length follows the contract for its
  // block size (input_for): n itself, n rounded down to the declared multiple, or left out
  // beyond the variant's limit.
  void check(const std::vector<Run>& runs, bool in_place = false) {
    const std::vector<Mode> declared = modes();
    for (const auto& partition : partitions(runs)) {
      SharedInputImage<In> inputs;
      for (Mode mode : declared) {
        Batch<Family> batch(this->variant(), mode);
        for (const auto& [input, block_size] : partition) batch.add_run(batch.add_input(*input), block_size, in_place);
        EXPECT_TRUE(all_passed(batch.run({}, &inputs)));
      }
    }
  }

  // The runs with their inputs, in order, cut where a batch would pass kBatchValues values (each
  // distinct input counted once, plus the outputs).
  std::vector<std::vector<std::pair<const TestInput<In>*, int>>> partitions(const std::vector<Run>& runs) {
    std::vector<std::vector<std::pair<const TestInput<In>*, int>>> cut;
    std::set<const TestInput<In>*> inputs;
    std::uint64_t values = 0;
    for (const Run& run : runs) {
      const TestInput<In>* input = this->input_for(run.input, run.block_size);
      if (input == nullptr) continue;
      const std::uint64_t n = input->size();
      const std::uint64_t output = Family::kOutputPerElement ? n : 1;
      if (!cut.empty() && values + (inputs.count(input) ? 0 : n) + output > kBatchValues) {
        cut.emplace_back();
        inputs.clear();
        values = 0;
      }
      if (cut.empty()) cut.emplace_back();
      values += (inputs.insert(input).second ? n : 0) + output;
      cut.back().emplace_back(input, run.block_size);
    }
    return cut;
  }

  // Each input with every block size the variant accepts.
  std::vector<Run> every_block(const std::vector<Wanted>& inputs) const {
    std::vector<Run> runs;
    for (const Wanted& wanted : inputs) {
      for (int block_size : this->block_sizes()) runs.push_back({wanted, block_size});
    }
    return runs;
  }
};

}  // namespace harness
