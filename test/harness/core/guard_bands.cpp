#include "harness/core/guard_bands.hpp"

#include "harness/reduce/reduce_oracle.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

namespace harness {

template <class T>
T input_poison(kernels::Op op) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();  // changes every sum, max and min
  } else {
    switch (op) {
      case kernels::Op::max: return std::numeric_limits<T>::max();
      case kernels::Op::min: return std::numeric_limits<T>::lowest();
      case kernels::Op::sum: break;
    }
    // Odd, so any number of copies below 2^bits changes a wrapped sum.
    return static_cast<T>(sizeof(T) == 4 ? 0x5A5A5A5Bull : 0x5A5A5A5A5A5A5A5Bull);
  }
}

template <class T>
GuardedImage<T>::GuardedImage(std::span<const std::uint64_t> lengths, std::span<const unsigned> shifts,
                              std::size_t guard, T poison)
    : lengths_(lengths.begin(), lengths.end()) {
  constexpr std::size_t per_vector = 16 / sizeof(T);
  std::size_t cursor = 0;
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    const std::size_t boundary = (cursor + guard + per_vector - 1) / per_vector * per_vector;
    offsets_.push_back(boundary + shifts[k] % per_vector);
    cursor = offsets_.back() + lengths[k];
  }
  image_.assign(cursor + guard, poison);
}

template <class T>
std::vector<typename GuardedImage<T>::Violation> GuardedImage<T>::violations(std::span<const T> after,
                                                                             bool segments_read_only,
                                                                             std::size_t limit) const {
  std::vector<Violation> found;
  std::size_t k = 0;  // the first segment not wholly before i
  for (std::size_t i = 0; i < image_.size() && found.size() < limit; ++i) {
    if (std::memcmp(&image_[i], &after[i], sizeof(T)) == 0) continue;
    while (k < offsets_.size() && offsets_[k] + lengths_[k] <= i) ++k;
    const bool inside = k < offsets_.size() && i >= offsets_[k];
    if (inside && !segments_read_only) continue;
    const std::string change = show_value(image_[i]) + " became " + show_value(after[i]);
    if (inside) {
      found.push_back({k, "wrote element " + std::to_string(i - offsets_[k]) + " of its read-only input: " + change});
      continue;
    }
    // In a guard band: blame the nearer neighbour.
    constexpr std::size_t kFar = std::numeric_limits<std::size_t>::max();
    const std::size_t before_next = k < offsets_.size() ? offsets_[k] - i : kFar;
    const std::size_t past_previous = k > 0 ? i - (offsets_[k - 1] + lengths_[k - 1]) : kFar;
    if (past_previous <= before_next) {
      found.push_back({k - 1, "wrote element n + " + std::to_string(past_previous) + ", past its end: " + change});
    } else {
      found.push_back({k, "wrote " + std::to_string(before_next) + " elements before its start: " + change});
    }
  }
  return found;
}

#define HARNESS_INSTANTIATE_GUARDS(T) \
  template T input_poison<T>(kernels::Op); \
  template class GuardedImage<T>;
HARNESS_INSTANTIATE_GUARDS(int)
HARNESS_INSTANTIATE_GUARDS(unsigned)
HARNESS_INSTANTIATE_GUARDS(long long)
HARNESS_INSTANTIATE_GUARDS(float)
HARNESS_INSTANTIATE_GUARDS(double)
#undef HARNESS_INSTANTIATE_GUARDS

}  // namespace harness
