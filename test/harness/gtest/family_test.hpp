// The fixture of a family's GPU tests (test/<family>/<family>_test.cpp and the shared
// test/contract/contract_test.cpp): the variant fixture of its type plus the one way those
// tests run their cases, in batches, in every mode the variant declares.
#pragma once

#include "harness/core/batch.hpp"
#include "harness/gtest/batch_assertions.hpp"
#include "harness/gtest/variant_test.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace harness {

template <class Family>
class FamilyTest : public VariantTest<Family::kType> {
 protected:
  using In = typename Family::In;
  using Mode = typename Family::Mode;

  // One case before the contract's length rule: an input and a block size.
  struct Run {
    const TestInput<In>* input;
    int block_size;
  };

  // Input values per batch: bounds the device and host memory of one batch.
  static constexpr std::uint64_t kBatchValues = std::uint64_t(1) << 25;

  std::vector<Mode> modes() const { return Family::modes(this->variant()); }

  // Every run in every declared mode (op, kind or form), in batches of at most kBatchValues
  // input values. Each run's length follows the contract for its block size (input_for): n
  // itself, n rounded down to the declared multiple, or left out beyond the variant's limit.
  void check(const std::vector<Run>& runs, bool in_place = false) {
    for (Mode mode : modes()) {
      std::optional<Batch<Family>> batch;
      std::uint64_t values = 0;
      for (const Run& run : runs) {
        const TestInput<In>* run_input = this->input_for(*run.input, run.block_size);
        if (run_input == nullptr) continue;
        const std::uint64_t n = run_input->values.size();
        if (batch && values + n > kBatchValues) {
          EXPECT_TRUE(all_passed(batch->run()));
          batch.reset();
        }
        if (!batch) {
          batch.emplace(this->variant(), mode);
          values = 0;
        }
        batch->add_run(batch->add_input(*run_input), run.block_size, in_place);
        values += n;
      }
      if (batch) {
        EXPECT_TRUE(all_passed(batch->run()));
      }
    }
  }

  // Each input with every block size the variant accepts.
  std::vector<Run> every_block(const std::vector<const TestInput<In>*>& inputs) const {
    std::vector<Run> runs;
    for (const TestInput<In>* values : inputs) {
      for (int block_size : this->block_sizes()) runs.push_back({values, block_size});
    }
    return runs;
  }
};

}  // namespace harness
