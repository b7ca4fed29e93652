// The variant registry: one record per kernel variant of every family. Tests, the property
// checks and kcheck iterate it, so registering a variant is all it takes for them to cover it.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kernels {

// Block sizes a variant accepts: the powers of two from `min` to `max`. A variant that chooses
// its own launch shape (CUB) has min == max == 0 and accepts only block_size 0.
struct BlockSizes {
  int min = 0;
  int max = 0;
  int preferred = 0;  // what block_size 0 selects

  bool chosen_by_variant() const { return max == 0; }
  bool accepts(int block_size) const;
  // Every accepted block size, smallest first; {0} for a variant that chooses its own.
  std::vector<int> all() const;
};

struct VariantInfo {
  Family family = Family::reduce;
  std::string_view name;         // unique within the family, e.g. "harris3_sequential"
  std::string_view description;  // one line
  std::vector<Op> ops = {};  // reductions and scans; empty for sorts
  std::vector<TypeKey> types = {};
  BlockSizes block_sizes = {};
  // The longest input accepted with the given (resolved) block size.
  std::uint64_t (*max_length)(int block_size) = nullptr;
  // Same input, block size and device give the same bits on every run.
  bool deterministic = false;
  // The most operations any input element passes through on its way into an output (the
  // depth of the combining tree, each thread's serial chain included). Float checks derive
  // their error bound from it; 0 for sorts. May query the current device.
  std::uint64_t (*accumulation_depth)(std::uint64_t n, int block_size) = nullptr;
  // Blocks of one launch communicate through memory (look-back flags, completion tickets):
  // such variants are stress-tested under uneven scheduling, since a missing fence shows only
  // sometimes.
  bool cross_block = false;
  // Scans: the values one block takes at once (the tile) for a block size and element type;
  // its powers are where a recursive scan changes level. Null for the other families.
  std::uint64_t (*tile_size)(int block_size, TypeKey type) = nullptr;
  // Scans: `out` may be `in` (in-place).
  bool in_place = false;
  // Sorts: offers the key-value form (keys carrying their original index).
  bool sorts_pairs = false;
  // Sorts: equal keys keep their input order (observable through the key-value form).
  bool stable = false;

  std::string id() const;  // "family/name", as kcheck and the ctest labels spell it
  bool supports(TypeKey type) const;
  bool supports(Op op) const;
  bool supports(TypeKey type, Op op) const;  // the widening type supports only the sum
  int resolve_block_size(int requested) const { return requested == 0 ? block_sizes.preferred : requested; }
};

// Every registered variant, in a stable order (family, then the order of registration).
const std::vector<const VariantInfo*>& all_variants();
std::vector<const VariantInfo*> variants_of(Family family);
// nullptr if no variant of that family has that name.
const VariantInfo* find_variant(Family family, std::string_view name);
// Accepts "family/name".
const VariantInfo* find_variant(std::string_view id);

}  // namespace kernels
