// The radix sorts' digits: 8 bits of a key's encode_order() bits at a time, and the lanes of a warp sharing one.
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

// The valid lanes of the warp with this lane's digit: one ballot per digit bit (cheaper than __match_any_sync),
// every lane calling. Each ballot is PTX: 3 instructions, where nvcc 13 compiles `set ? lanes : ~lanes` to 7.
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
