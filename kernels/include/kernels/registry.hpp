// The variant registry: one record per variant, its contract: exactly what it accepts (anything else is a
// ValidationError) and what every test, sanitizer case, kcheck default and benchmark row runs it with.
#pragma once

#include <kernels/types.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace kernels {

// Block sizes a variant accepts: {min, max, preferred} (the powers of two between), one_of({...}, preferred),
// only(size), or chosen_by_variant() (CUB: only 0). Every variant accepts 0, meaning the preferred size.
class BlockSizes {
 public:
  BlockSizes() = default;
  BlockSizes(int min_power_of_two, int max_power_of_two, int preferred);
  static BlockSizes one_of(std::initializer_list<int> sizes, int preferred);
  static BlockSizes only(int size) { return one_of({size}, size); }
  static BlockSizes chosen_by_variant() { return {}; }

  bool chosen_by_variant_itself() const { return sizes_.empty(); }
  bool accepts(int block_size) const;  // 0 included
  int resolve(int block_size) const { return block_size == 0 ? preferred_ : block_size; }
  int preferred() const { return preferred_; }
  const std::vector<int>& all() const { return all_; }  // nonzero sizes, ascending; {0} if the variant chooses
  int smallest() const { return all_.front(); }
  int largest() const { return all_.back(); }
  std::string describe() const;  // "0 or a power of two in [32, 1024]", "0 (the variant chooses)"

 private:
  std::vector<int> sizes_;  // empty: chosen by the variant
  std::vector<int> all_{0};
  int preferred_ = 0;
  bool powers_of_two_ = false;
};

enum class LengthMultiple { one, block, tile };  // a granularity of n (n = 0 is always legal)

// A float sum of zeros: IEEE's (-0.0 if every term is; default), or +0.0 always (an accumulator from +0.0).
enum class ZeroSum { ieee, positive };

struct TypeOps {  // the ops a variant offers for one element type
  TypeKey type;
  std::vector<Op> ops;
};

struct VariantInfo {
  Family family = Family::reduce;
  std::string_view name;               // unique within the family, e.g. "harris3_sequential"
  std::string_view description;        // one line
  std::vector<TypeOps> type_ops = {};  // ops empty for sorts; filled by make_<family>_variant
  std::vector<ScanKind> kinds = {};    // scans; filled by make_<family>_variant
  std::vector<SortForm> forms = {};    // sorts; likewise
  BlockSizes block_sizes = {};
  // The longest input for a resolved block size (nonzero unless the variant chooses); call max_length_with().
  std::uint64_t (*max_length)(int block_size) = nullptr;
  LengthMultiple length_multiple = LengthMultiple::one;
  bool deterministic = false;  // same input, block size and device: same bits
  // The most operations an input element passes through to an output (tree depth plus serial chain), which
  // the float bound derives from; 0 for sorts. May query the current device. Call through depth_with().
  std::uint64_t (*accumulation_depth)(std::uint64_t n, int block_size) = nullptr;
  // Blocks of one launch talk through memory (look-back, tickets): stress-tested under uneven scheduling.
  bool cross_block = false;
  // Values one block takes at once, for scans (a recursive scan changes level at its powers) and vector paths.
  std::uint64_t (*tile_size)(int block_size, TypeKey type) = nullptr;
  // Vector path: values per 16-byte load; ragged ends inside a last vector are tested from it. Null: scalar.
  std::uint64_t (*vector_values)(TypeKey type) = nullptr;
  bool in_place = false;  // scans: `out` may be `in`
  bool stable = false;    // sorts: equal keys keep their input order
  // Reductions and scans combine in input order by default; a variant that does not takes commutative ops only.
  bool keeps_operand_order = true;
  ZeroSum zero_sum = ZeroSum::ieee;  // reductions and scans of floats

  std::string id() const;  // "family/name", as kcheck and the ctest labels spell it
  std::vector<TypeKey> types() const;
  std::vector<Op> ops(TypeKey type) const;  // empty if the type is not declared
  std::vector<Op> all_ops() const;          // every op of any type, in op order
  bool supports(TypeKey type) const;
  bool supports(TypeKey type, Op op) const;
  bool refuses_for_order(Op op) const { return !keeps_operand_order && !is_commutative(op); }
  bool supports(ScanKind kind) const;
  bool supports(SortForm form) const;

  int resolve_block_size(int requested) const { return block_sizes.resolve(requested); }  // 0: the preferred size
  // The record's functions, with block size 0 resolved first (they never see 0 otherwise).
  std::uint64_t max_length_with(int block_size) const;
  std::uint64_t depth_with(std::uint64_t n, int block_size) const;
  std::uint64_t length_step(int block_size, TypeKey type) const;             // 1 for LengthMultiple::one
  bool accepts_length(std::uint64_t n, int block_size, TypeKey type) const;  // <= limit, a multiple of the step
  std::uint64_t accepted_length_at_most(std::uint64_t n, int block_size, TypeKey type) const;  // n if accepted
};

const std::vector<const VariantInfo*>& all_variants();  // by family, then registration order
std::vector<const VariantInfo*> variants_of(Family family);
const VariantInfo* find_variant(Family family, std::string_view name);  // nullptr if none
const VariantInfo* find_variant(std::string_view id);                   // "family/name"

}  // namespace kernels
