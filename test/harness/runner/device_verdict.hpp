// What a check run on the device found in one output: how many positions fail it, and the first
// of them (kNoBadIndex when none is, or when the check is of the whole output, such as a
// multiset fingerprint); or that the device could not decide, and the CPU oracle judges the run
// (a float scan whose sums leave the doubles). The large tests and the device judges of the
// batch runner return it.
#pragma once

#include <cstdint>
#include <vector>

namespace harness {

inline constexpr std::uint64_t kNoBadIndex = ~std::uint64_t(0);

struct DeviceVerdict {
  std::uint64_t mismatches = 0;
  std::uint64_t first_bad = kNoBadIndex;
  bool undecided = false;
};

// The work of one CUDA block of a device judge: up to kJudgeChunk positions of one run, so that
// one launch judges every run of a batch however their lengths differ.
inline constexpr std::uint64_t kJudgeChunk = 4096;
struct JudgeChunk {
  std::uint64_t run;
  std::uint64_t begin;
};

// The chunks of runs of `n` positions each.
template <class Run>
std::vector<JudgeChunk> judge_chunks(const std::vector<Run>& runs) {
  std::vector<JudgeChunk> chunks;
  for (std::uint64_t r = 0; r < runs.size(); ++r) {
    for (std::uint64_t begin = 0; begin < runs[r].n; begin += kJudgeChunk) chunks.push_back({r, begin});
  }
  return chunks;
}

}  // namespace harness
