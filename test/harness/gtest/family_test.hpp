// The fixture of a family's GPU tests (test/<family>/<family>_test.cpp and the shared
// test/contract/contract_test.cpp): the variant fixture of its type plus the one way those
// tests run their cases, in batches, in every mode the variant declares.
#pragma once

#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/variant_test.hpp"
#include "harness/runner/batch.hpp"

#include <cstdint>
#include <optional>
#include <set>
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

  std::vector<Mode> modes() const { return Family::modes(this->variant()); }

  // Every run in every declared mode (op, kind or form), in batches of at most kBatchValues
  // values. Each run's length follows the contract for its block size (input_for): n itself, n
  // rounded down to the declared multiple, or left out beyond the variant's limit.
  void check(const std::vector<Run>& runs, bool in_place = false) {
    for (Mode mode : modes()) {
      std::optional<Batch<Family>> batch;
      std::set<const TestInput<In>*> batch_inputs;
      std::uint64_t values = 0;
      for (const Run& run : runs) {
        const TestInput<In>* run_input = this->input_for(run.input, run.block_size);
        if (run_input == nullptr) continue;
        const std::uint64_t n = run_input->values.size();
        const std::uint64_t output = Family::kOutputPerElement ? n : 1;
        if (batch && values + (batch_inputs.count(run_input) ? 0 : n) + output > kBatchValues) {
          EXPECT_TRUE(all_passed(batch->run()));
          batch.reset();
        }
        if (!batch) {
          batch.emplace(this->variant(), mode);
          batch_inputs.clear();
          values = 0;
        }
        values += (batch_inputs.insert(run_input).second ? n : 0) + output;
        batch->add_run(batch->add_input(*run_input), run.block_size, in_place);
      }
      if (batch) {
        EXPECT_TRUE(all_passed(batch->run()));
      }
    }
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
