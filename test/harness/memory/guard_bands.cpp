#include "harness/memory/guard_bands.hpp"

#include "harness/numeric/element_traits.hpp"
#include "harness/reduce/reduce_oracle.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace harness {

template <class T>
T input_poison(kernels::Op op) {
  if constexpr (is_float_v<T>) {
    return limits<T>::quiet_NaN();  // changes every sum, max and min
  } else {
    if (op == kernels::Op::max) return limits<T>::max();
    if (op == kernels::Op::min) return limits<T>::lowest();
    // Odd, so any number of copies below 2^bits changes a wrapped sum; non-zero, so it is the last
    // non-zero value after it; and neither the identity nor absorbing for the matrix products.
    // (Its low bytes for narrower types: 0x5B, 0x5A5B, 0x5A5A5A5B.)
    return static_cast<T>(0x5A5A5A5A5A5A5A5Bull);
  }
}

template <class T>
GuardedImage<T>::GuardedImage(std::span<const std::uint64_t> lengths, std::span<const unsigned> shifts,
                              std::size_t guard, T poison)
    : lengths_(lengths.begin(), lengths.end()),
      contents_(lengths.size()),
      made_on_device_(lengths.size()),
      poison_(poison) {
  constexpr std::size_t per_vector = 16 / sizeof(T);
  std::size_t cursor = 0;
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    const std::size_t boundary = (cursor + guard + per_vector - 1) / per_vector * per_vector;
    offsets_.push_back(boundary + shifts[k] % per_vector);
    cursor = offsets_.back() + lengths[k];
  }
  size_ = cursor + guard;
}

template <class T>
void GuardedImage<T>::set_contents(std::size_t k, std::span<const T> values) {
  if (values.size() != lengths_[k]) {
    throw std::logic_error("GuardedImage: segment " + std::to_string(k) + " has " + std::to_string(lengths_[k]) +
                           " elements, not " + std::to_string(values.size()));
  }
  contents_[k] = values;
}

template <class T>
std::vector<T> GuardedImage<T>::image(std::size_t begin, std::size_t end) const {
  std::vector<T> part(end - begin, poison_);
  // Segments lie in increasing order: start at the last one that starts at or before `begin`.
  auto k = static_cast<std::size_t>(std::upper_bound(offsets_.begin(), offsets_.end(), begin) - offsets_.begin());
  if (k > 0) --k;
  for (; k < offsets_.size() && offsets_[k] < end; ++k) {
    if (contents_[k].empty()) continue;
    const std::size_t from = std::max(begin, offsets_[k]), to = std::min(end, offsets_[k] + lengths_[k]);
    if (from >= to) continue;
    std::copy(contents_[k].begin() + (from - offsets_[k]), contents_[k].begin() + (to - offsets_[k]),
              part.begin() + (from - begin));
  }
  return part;
}

template <class T>
void GuardedImage<T>::add_band_violations(std::size_t b, std::span<const T> band_after, std::size_t limit,
                                          std::vector<Violation>& found) const {
  const std::size_t begin = band_begin(b), end = band_end(b);
  for (std::size_t i = begin; i < end && found.size() < limit; ++i) {
    const T after = band_after[i - begin];
    if (std::memcmp(&poison_, &after, sizeof(T)) == 0) continue;
    const std::string change = show_value(poison_) + " became " + show_value(after);
    const std::size_t past_previous = i - begin, before_next = end - i;
    if (b > 0 && (b == offsets_.size() || past_previous <= before_next)) {
      found.push_back({b - 1, "wrote element n + " + std::to_string(past_previous) + ", past its end: " + change});
    } else {
      found.push_back({b, "wrote " + std::to_string(before_next) + " elements before its start: " + change});
    }
  }
}

template <class T>
std::vector<typename GuardedImage<T>::Violation> GuardedImage<T>::violations(std::span<const T> after,
                                                                             bool segments_read_only,
                                                                             std::size_t limit) const {
  std::vector<Violation> found;
  for (std::size_t k = 0; k < bands(); ++k) {
    add_band_violations(k, after.subspan(band_begin(k), band_end(k) - band_begin(k)), limit, found);
    if (k == offsets_.size() || !segments_read_only) continue;
    const std::span<const T> made = made_on_device_[k] ? made_on_device_[k]->as_made() : contents_[k];
    for (std::size_t j = 0; j < lengths_[k] && found.size() < limit; ++j) {
      const T before = made.empty() ? poison_ : made[j];
      const T now = after[offsets_[k] + j];
      if (std::memcmp(&before, &now, sizeof(T)) == 0) continue;
      found.push_back({k, "wrote element " + std::to_string(j) + " of its read-only input: " + show_value(before) +
                              " became " + show_value(now)});
    }
  }
  return found;
}

#define HARNESS_INSTANTIATE_GUARDS(key, T, out, label) \
  template T input_poison<T>(kernels::Op);             \
  template class GuardedImage<T>;
KERNELS_FOR_EACH_ELEMENT_TYPE(HARNESS_INSTANTIATE_GUARDS)
#undef HARNESS_INSTANTIATE_GUARDS

}  // namespace harness
