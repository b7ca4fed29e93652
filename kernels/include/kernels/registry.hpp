// The variant registry: one record per kernel variant of every family. The record is the
// variant's contract: what it declares here is exactly what it accepts (anything else is a
// ValidationError before any launch) and exactly what every test, property, sanitizer case,
// large test, kcheck default and benchmark row runs it with.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace kernels {

// Block sizes a variant accepts, and the one block_size 0 selects. Four shapes:
//   {min, max, preferred}       every power of two from min to max
//   BlockSizes::one_of({...})   a fixed set
//   BlockSizes::only(size)      a single size
//   BlockSizes::chosen_by_variant()  the variant picks its own launch shape (CUB); only 0
// block_size 0 is accepted by every variant and means `preferred`.
class BlockSizes {
 public:
  BlockSizes() = default;
  BlockSizes(int min_power_of_two, int max_power_of_two, int preferred);
  static BlockSizes one_of(std::initializer_list<int> sizes, int preferred);
  static BlockSizes only(int size) { return one_of({size}, size); }
  static BlockSizes chosen_by_variant() { return {}; }

  bool chosen_by_variant_itself() const { return sizes_.empty(); }
  // Whether `block_size` (0 included) is accepted.
  bool accepts(int block_size) const;
  // What a call with `block_size` runs with: the preferred size for 0, else the size itself.
  int resolve(int block_size) const { return block_size == 0 ? preferred_ : block_size; }
  int preferred() const { return preferred_; }
  // Every accepted nonzero size, smallest first; {0} for a variant that chooses its own.
  const std::vector<int>& all() const { return all_; }
  int smallest() const { return all_.front(); }
  int largest() const { return all_.back(); }
  // "0 or a power of two in [32, 1024]", "0 or one of 64, 256", "0 (the variant chooses)".
  std::string describe() const;

 private:
  std::vector<int> sizes_;  // empty: chosen by the variant
  std::vector<int> all_{0};
  int preferred_ = 0;
  bool powers_of_two_ = false;
};

// A granularity some kernels put on n: whole blocks or whole tiles only (n = 0 is always legal).
enum class LengthMultiple { one, block, tile };

// The ops a variant offers for one element type (reductions and scans).
struct TypeOps {
  TypeKey type;
  std::vector<Op> ops;
};

struct VariantInfo {
  Family family = Family::reduce;
  std::string_view name;         // unique within the family, e.g. "harris3_sequential"
  std::string_view description;  // one line
  // Element types, and for each the ops (reductions and scans; empty for sorts). Filled from the
  // implementation's compile-time declaration by make_<family>_variant.
  std::vector<TypeOps> type_ops = {};
  // Scans: the kinds offered. Sorts: the forms offered. Filled by make_<family>_variant.
  std::vector<ScanKind> kinds = {};
  std::vector<SortForm> forms = {};
  BlockSizes block_sizes = {};
  // The longest input accepted with the given (resolved, nonzero unless the variant chooses its
  // own) block size; call through max_length_with().
  std::uint64_t (*max_length)(int block_size) = nullptr;
  LengthMultiple length_multiple = LengthMultiple::one;
  // Same input, block size and device give the same bits on every run.
  bool deterministic = false;
  // The most operations any input element passes through on its way into an output (the
  // depth of the combining tree, each thread's serial chain included). Float checks derive
  // their error bound from it; 0 for sorts. May query the current device. Call through
  // depth_with().
  std::uint64_t (*accumulation_depth)(std::uint64_t n, int block_size) = nullptr;
  // Blocks of one launch communicate through memory (look-back flags, completion tickets):
  // such variants are stress-tested under uneven scheduling, since a missing fence shows only
  // sometimes.
  bool cross_block = false;
  // The values one block takes at once (the tile) for a block size and element type: scans
  // (its powers are where a recursive scan changes level) and variants with a vector path; null
  // for the others.
  std::uint64_t (*tile_size)(int block_size, TypeKey type) = nullptr;
  // Variants with a vector path: the values one vector load takes (16 bytes: 4 ints, 8 halves).
  // Ragged ends inside a tile's last vector are tested from it. Null: scalar loads only.
  std::uint64_t (*vector_values)(TypeKey type) = nullptr;
  // Scans: `out` may be `in` (in-place).
  bool in_place = false;
  // Sorts: equal keys keep their input order (observable through the key-value form).
  bool stable = false;
  // Reductions and scans: the variant combines values out of their input order, so it takes
  // commutative operators only and rejects the others (docs/operators.md). Filled by
  // make_<family>_variant from the implementation.
  bool commutative_only = false;

  std::string id() const;  // "family/name", as kcheck and the ctest labels spell it
  std::vector<TypeKey> types() const;
  std::vector<Op> ops(TypeKey type) const;  // empty if the type is not declared
  std::vector<Op> all_ops() const;          // every op of any type, in kAllOps order
  bool supports(TypeKey type) const;
  bool supports(TypeKey type, Op op) const;
  bool supports(ScanKind kind) const;
  bool supports(SortForm form) const;

  // Block size 0 resolved to the preferred size.
  int resolve_block_size(int requested) const { return block_sizes.resolve(requested); }
  // The record's functions, with block size 0 resolved first (they never see 0 otherwise).
  std::uint64_t max_length_with(int block_size) const;
  std::uint64_t depth_with(std::uint64_t n, int block_size) const;
  // The granularity n must have with this block size and type (1 for LengthMultiple::one).
  std::uint64_t length_step(int block_size, TypeKey type) const;
  // n is at most the limit and a multiple of the step.
  bool accepts_length(std::uint64_t n, int block_size, TypeKey type) const;
  // The longest accepted length not above n (n itself when accepted).
  std::uint64_t accepted_length_at_most(std::uint64_t n, int block_size, TypeKey type) const;
};

// Every registered variant, in a stable order (family, then the order of registration).
const std::vector<const VariantInfo*>& all_variants();
std::vector<const VariantInfo*> variants_of(Family family);
// nullptr if no variant of that family has that name.
const VariantInfo* find_variant(Family family, std::string_view name);
// Accepts "family/name".
const VariantInfo* find_variant(std::string_view id);

}  // namespace kernels
