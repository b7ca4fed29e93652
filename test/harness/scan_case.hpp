// One scan test case: everything needed to rerun it, and the kcheck line that does.
#pragma once

#include "distributions.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <string>

namespace harness {

struct ScanCase {
  std::string variant;  // name within the scan family
  kernels::TypeKey type = kernels::TypeKey::int32;
  kernels::ScanKind kind = kernels::ScanKind::inclusive;
  int block_size = 0;
  std::uint64_t n = 0;
  Distribution distribution = Distribution::random;
  std::uint64_t seed = 0;
  unsigned offset = 0;
  bool in_place = false;  // out == in
};

// "scan/blelloch_plain kind=exclusive type=int block=256 n=1025 dist=random seed=7 offset=1 in-place"
std::string describe(const ScanCase& c);

// The command that reruns exactly this case.
std::string kcheck_line(const ScanCase& c);

}  // namespace harness
