#include <kernels/detail/variant_table.hpp>
#include <kernels/registry.hpp>

#include <algorithm>
#include <stdexcept>

namespace kernels {
namespace {

bool is_power_of_two(int value) { return value > 0 && (value & (value - 1)) == 0; }

template <class Values, class Value>
bool contains(const Values& values, const Value& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::vector<const VariantInfo*>& records() {
  static std::vector<const VariantInfo*> variants;
  return variants;
}

}  // namespace

BlockSizes::BlockSizes(int min_power_of_two, int max_power_of_two, int preferred)
    : preferred_(preferred), powers_of_two_(true) {
  if (!is_power_of_two(min_power_of_two) || !is_power_of_two(max_power_of_two) || min_power_of_two > max_power_of_two) {
    throw std::logic_error("BlockSizes: a range needs powers of two min <= max");
  }
  for (int size = min_power_of_two; size <= max_power_of_two; size *= 2) sizes_.push_back(size);
  all_ = sizes_;
  if (!contains(sizes_, preferred)) throw std::logic_error("BlockSizes: the preferred size must be in the range");
}

BlockSizes BlockSizes::one_of(std::initializer_list<int> sizes, int preferred) {
  BlockSizes result;
  result.sizes_.assign(sizes.begin(), sizes.end());
  std::sort(result.sizes_.begin(), result.sizes_.end());
  result.sizes_.erase(std::unique(result.sizes_.begin(), result.sizes_.end()), result.sizes_.end());
  if (result.sizes_.empty() || result.sizes_.front() < 1 || result.sizes_.back() > 1024 ||
      !contains(result.sizes_, preferred)) {
    throw std::logic_error("BlockSizes::one_of: sizes in [1, 1024], the preferred one among them");
  }
  result.all_ = result.sizes_;
  result.preferred_ = preferred;
  return result;
}

bool BlockSizes::accepts(int block_size) const { return block_size == 0 || contains(sizes_, block_size); }

std::string BlockSizes::describe() const {
  if (chosen_by_variant_itself()) return "0 (this variant chooses its own block size)";
  if (powers_of_two_ && sizes_.size() > 1) {
    return "0 or a power of two in [" + std::to_string(sizes_.front()) + ", " + std::to_string(sizes_.back()) + "]";
  }
  std::string text = "0 or ";
  if (sizes_.size() > 1) text += "one of ";
  for (std::size_t i = 0; i < sizes_.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes_[i]);
  return text;
}

std::string VariantInfo::id() const { return std::string(kernels::name(family)) + "/" + std::string(name); }

std::vector<TypeKey> VariantInfo::types() const {
  std::vector<TypeKey> keys;
  for (const TypeOps& entry : type_ops) keys.push_back(entry.type);
  return keys;
}

std::vector<Op> VariantInfo::ops(TypeKey type) const {
  for (const TypeOps& entry : type_ops) {
    if (entry.type == type) return entry.ops;
  }
  return {};
}

std::vector<Op> VariantInfo::all_ops() const {
  std::vector<Op> offered;
  for (Op op : kernels::all_ops()) {
    for (const TypeOps& entry : type_ops) {
      if (contains(entry.ops, op)) {
        offered.push_back(op);
        break;
      }
    }
  }
  return offered;
}

bool VariantInfo::supports(TypeKey type) const { return contains(types(), type); }

bool VariantInfo::supports(TypeKey type, Op op) const { return contains(ops(type), op); }

bool VariantInfo::supports(ScanKind kind) const { return contains(kinds, kind); }

bool VariantInfo::supports(SortForm form) const { return contains(forms, form); }

std::uint64_t VariantInfo::max_length_with(int block_size) const { return max_length(resolve_block_size(block_size)); }

std::uint64_t VariantInfo::depth_with(std::uint64_t n, int block_size) const {
  return accumulation_depth(n, resolve_block_size(block_size));
}

std::uint64_t VariantInfo::length_step(int block_size, TypeKey type) const {
  switch (length_multiple) {
    case LengthMultiple::one: return 1;
    case LengthMultiple::block: return static_cast<std::uint64_t>(resolve_block_size(block_size));
    case LengthMultiple::tile: return tile_size(resolve_block_size(block_size), type);
  }
  return 1;
}

bool VariantInfo::accepts_length(std::uint64_t n, int block_size, TypeKey type) const {
  return n <= max_length_with(block_size) && n % length_step(block_size, type) == 0;
}

std::uint64_t VariantInfo::accepted_length_at_most(std::uint64_t n, int block_size, TypeKey type) const {
  const std::uint64_t step = length_step(block_size, type);
  const std::uint64_t capped = std::min(n, max_length_with(block_size));
  return capped - capped % step;
}

const std::vector<const VariantInfo*>& all_variants() { return records(); }

std::vector<const VariantInfo*> variants_of(Family family) {
  std::vector<const VariantInfo*> matching;
  for (const VariantInfo* info : all_variants()) {
    if (info->family == family) matching.push_back(info);
  }
  return matching;
}

const VariantInfo* find_variant(Family family, std::string_view variant_name) {
  for (const VariantInfo* info : all_variants()) {
    if (info->family == family && info->name == variant_name) return info;
  }
  return nullptr;
}

const VariantInfo* find_variant(std::string_view id) {
  const auto slash = id.find('/');
  if (slash == std::string_view::npos) return nullptr;
  const auto family = parse_family(id.substr(0, slash));
  return family ? find_variant(*family, id.substr(slash + 1)) : nullptr;
}

namespace detail {

void add_to_registry(const VariantInfo& info) {
  const auto incoherent = [&](const std::string& why) { throw std::logic_error(info.id() + ": " + why); };
  if (find_variant(info.family, info.name) != nullptr) incoherent("registered twice");
  if (info.name.empty() || info.name.find_first_of(" =") != std::string_view::npos) incoherent("a name without spaces");
  if (info.type_ops.empty()) incoherent("declares no element type");
  if (info.max_length == nullptr) incoherent("declares no maximum length");
  if (info.family != Family::sort && info.accumulation_depth == nullptr) incoherent("declares no accumulation depth");
  for (const TypeOps& entry : info.type_ops) {
    if (info.family != Family::sort && entry.ops.empty())
      incoherent("a type without ops: " + std::string(name(entry.type)));
    for (Op op : entry.ops) {
      if (name(op) == "?") incoherent("offers an operator no one registered");
      if (!operator_takes(op, entry.type))
        incoherent("offers " + std::string(name(op)) + " on " + std::string(name(entry.type)) +
                   ", which it does not take");
      if (info.refuses_for_order(op))
        incoherent("does not keep operand order, yet offers " + std::string(name(op)) + ", which is not commutative");
    }
  }
  if (info.family == Family::scan && info.kinds.empty()) incoherent("a scan without kinds");
  if (info.family == Family::sort && info.forms.empty()) incoherent("a sort without forms");
  if (info.length_multiple == LengthMultiple::tile && info.tile_size == nullptr)
    incoherent("a tile multiple without tile_size");
  if (info.vector_values != nullptr && info.tile_size == nullptr) incoherent("a vector path without tile_size");
  auto& variants = records();
  // Keep families together (reduce, scan, sort), each in registration order.
  const auto after = std::find_if(variants.begin(), variants.end(),
                                  [&](const VariantInfo* other) { return other->family > info.family; });
  variants.insert(after, &info);
}

}  // namespace detail
}  // namespace kernels
