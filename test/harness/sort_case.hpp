// One sort test case: everything needed to rerun it, and the kcheck line that does.
#pragma once

#include "distributions.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <string>

namespace harness {

struct SortCase {
  std::string variant;  // name within the sort family
  kernels::TypeKey type = kernels::TypeKey::int32;
  kernels::SortForm form = kernels::SortForm::keys;
  int block_size = 0;
  std::uint64_t n = 0;
  Distribution distribution = Distribution::random;
  std::uint64_t seed = 0;
  unsigned offset = 0;
};

// "sort/radix_lsd form=pairs type=float block=256 n=1025 dist=specials seed=7 offset=1"
std::string describe(const SortCase& c);

// The command that reruns exactly this case.
std::string kcheck_line(const SortCase& c);

}  // namespace harness
