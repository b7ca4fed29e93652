// One reduction test case: everything needed to rerun it, and the kcheck line that does.
#pragma once

#include "distributions.hpp"

#include <kernels/types.hpp>

#include <cstdint>
#include <string>

namespace harness {

struct ReduceCase {
  std::string variant;  // name within the reduction family
  kernels::TypeKey type = kernels::TypeKey::int32;
  kernels::Op op = kernels::Op::sum;
  int block_size = 0;
  std::uint64_t n = 0;
  Distribution distribution = Distribution::random;
  std::uint64_t seed = 0;  // the input is generate(distribution, n, seed)
  unsigned offset = 0;     // elements between a 16-byte boundary and the input's first element
};

// "reduce/harris3_sequential op=sum type=int block=256 n=1025 dist=random seed=7 offset=1"
std::string describe(const ReduceCase& c);

// The command that reruns exactly this case.
std::string kcheck_line(const ReduceCase& c);

}  // namespace harness
