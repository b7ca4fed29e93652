// Sort rows: n keys of random bits, keys only, out of place.
#include "benchmark_rows.hpp"
#include "families.hpp"

#include <kernels/sort.hpp>

namespace bench {
namespace {

// The registry does not record how a variant sorts: the radix sorts are ours (radix_lsd,
// radix_onesweep) and CUB's (DeviceRadixSort), all of 8-bit digits.
bool is_radix_sort(const kernels::VariantInfo& variant) {
  return variant.name == kCubVariant || variant.name.starts_with("radix");
}

template <class T>
struct SortRows {
  using value_type = T;
  static constexpr kernels::Family family = kernels::Family::sort;
  static constexpr Values input_values = Values::random_bits;

  static std::uint64_t outputs(std::uint64_t n) { return n; }
  // One read and one write of the keys per pass. A radix sort makes key bits / 8 passes: a
  // nominal model, which leaves out the histogram reads and counts passes a sort may fuse or
  // skip. A comparison sort is held to a single pass, a floor (its real traffic grows with n
  // log^2 n or n^2); for those, elements_per_second (keys/s) is the figure to read.
  static double bytes_moved(const kernels::VariantInfo& variant, std::uint64_t n) {
    constexpr double kRadixPasses = double(8 * sizeof(T)) / 8;
    const double one_pass = 2.0 * double(n) * sizeof(T);
    return is_radix_sort(variant) ? kRadixPasses * one_pass : one_pass;
  }
  // Sorts take no operator: the rows pass Op::sum.
  static std::size_t workspace_bytes(std::string_view variant, kernels::Op, std::uint64_t n) {
    return kernels::sort_workspace_bytes<T>(variant, kernels::SortForm::keys, n);
  }
  static void run(std::string_view variant, kernels::Op, const T* in, T* out, std::uint64_t n,
                  kernels::Workspace workspace, cudaStream_t stream) {
    kernels::sort_keys<T>(variant, in, out, n, workspace, {}, stream);
  }
};

}  // namespace

// int, long long and float keys, and the short keys: 8-bit, 16-bit and half (one and two
// radix passes).
void register_sort_rows() {
  register_family_rows<SortRows, int, long long, float, unsigned char, unsigned short, __half>();
}

}  // namespace bench
