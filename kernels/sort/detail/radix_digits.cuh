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
// ballot per digit bit, each keeping the lanes whose bit equals this lane's (cheaper than
// __match_any_sync for 8 bits). Meaningful for valid lanes, whose own bit it contains. Every
// lane of the warp must call it. A bit's ballot is written in PTX (test, ballot, complement
// where the bit is clear: 3 instructions in the sm_90 code): nvcc 13 compiles the C++ form
// `set ? lanes : ~lanes` to 7 (a shift, a mask and a compare for the ballot's predicate, a
// second test and a select of an all-ones mask for the complement).
__device__ inline unsigned match_peers(unsigned digit, bool valid) {
  unsigned peers = __ballot_sync(kFullWarp, valid);
#pragma unroll
  for (unsigned b = 0; b < kDigitBits; ++b) {
    unsigned same;
    asm volatile(
        "{\n\t.reg .pred set;\n\tsetp.ne.u32 set, %1, 0;\n\tvote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
        "@!set not.b32 %0, %0;\n\t}"
        : "=r"(same)
        : "r"(digit & (1u << b)));
    peers &= same;
  }
  return peers;
}

}  // namespace kernels::detail
