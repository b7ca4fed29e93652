#include "guard_bands.hpp"

#include "reduce_oracle.hpp"

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
PackedLayout pack_layout(std::span<const std::uint64_t> lengths, std::span<const unsigned> shifts) {
  constexpr std::size_t per_vector = 16 / sizeof(T);
  PackedLayout layout;
  std::size_t cursor = 0;
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    const std::size_t guard_end = (cursor + kInputGuard + per_vector - 1) / per_vector * per_vector;
    layout.offsets.push_back(guard_end + shifts[k] % per_vector);
    cursor = layout.offsets.back() + lengths[k];
  }
  layout.size = cursor + kInputGuard;
  return layout;
}

template <class T>
std::vector<T> pack_image(const PackedLayout& layout, std::span<const std::span<const T>> inputs, T poison) {
  std::vector<T> image(layout.size, poison);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    std::copy(inputs[k].begin(), inputs[k].end(), image.begin() + static_cast<std::ptrdiff_t>(layout.offsets[k]));
  }
  return image;
}

template <class T>
std::vector<std::string> describe_changes(std::span<const T> before, std::span<const T> after, std::size_t limit) {
  std::vector<std::string> changes;
  for (std::size_t i = 0; i < before.size() && changes.size() < limit; ++i) {
    const bool same = std::memcmp(&before[i], &after[i], sizeof(T)) == 0;
    if (!same) {
      changes.push_back("element " + std::to_string(i) + " changed from " + show_value(before[i]) + " to " +
                        show_value(after[i]));
    }
  }
  return changes;
}

template <class T>
std::vector<std::string> damaged_canaries(std::span<const T> image, std::size_t slots) {
  const T poison = output_poison<T>();
  std::vector<std::string> damage;
  std::size_t next_slot = 0;
  for (std::size_t i = 0; i < image.size(); ++i) {
    if (next_slot < slots && i == output_slot(next_slot)) {
      ++next_slot;
      continue;
    }
    if (std::memcmp(&image[i], &poison, sizeof(T)) != 0) {
      damage.push_back("canary at output image index " + std::to_string(i) + " overwritten with " +
                       show_value(image[i]));
    }
  }
  return damage;
}

#define HARNESS_INSTANTIATE_GUARDS(T)                                                                              \
  template T input_poison<T>(kernels::Op);                                                                         \
  template PackedLayout pack_layout<T>(std::span<const std::uint64_t>, std::span<const unsigned>);                 \
  template std::vector<T> pack_image<T>(const PackedLayout&, std::span<const std::span<const T>>, T);              \
  template std::vector<std::string> describe_changes<T>(std::span<const T>, std::span<const T>, std::size_t);      \
  template std::vector<std::string> damaged_canaries<T>(std::span<const T>, std::size_t);
HARNESS_INSTANTIATE_GUARDS(int)
HARNESS_INSTANTIATE_GUARDS(unsigned)
HARNESS_INSTANTIATE_GUARDS(long long)
HARNESS_INSTANTIATE_GUARDS(float)
HARNESS_INSTANTIATE_GUARDS(double)
#undef HARNESS_INSTANTIATE_GUARDS

}  // namespace harness
