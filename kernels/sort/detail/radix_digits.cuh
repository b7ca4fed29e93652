// The digits of the radix sorts: 8 bits of a key's encode_order() bits at a time, and the lanes
// of a warp that share a digit, found with ballots.
#pragma once

namespace kernels::detail {

constexpr unsigned kDigitBits = 8;
constexpr unsigned kDigits = 1u << kDigitBits;
constexpr unsigned kWarp = 32;
constexpr unsigned kFullWarp = 0xffffffffu;

// The digit at `bit` of a key's encode_order() bits.
template <class Bits>
__device__ unsigned digit_at(Bits ordered, unsigned bit) {
  return static_cast<unsigned>(ordered >> bit) & (kDigits - 1);
}

// The lanes of the calling warp that are valid and have the same digit as this lane: one
// ballot per digit bit (cheaper than __match_any_sync for 8 bits). Meaningful for valid lanes,
// whose own bit it contains. Every lane of the warp must call it.
__device__ inline unsigned match_peers(unsigned digit, bool valid) {
  unsigned peers = __ballot_sync(kFullWarp, valid);
#pragma unroll
  for (unsigned b = 0; b < kDigitBits; ++b) {
    const bool set = (digit >> b) & 1u;
    const unsigned lanes_set = __ballot_sync(kFullWarp, set);
    peers &= set ? lanes_set : ~lanes_set;
  }
  return peers;
}

}  // namespace kernels::detail
