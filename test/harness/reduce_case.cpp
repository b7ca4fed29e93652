#include "reduce_case.hpp"

#include "random_bits.hpp"

#include <sstream>

namespace harness {

std::string describe(const ReduceCase& c) {
  std::ostringstream text;
  text << "reduce/" << c.variant << " op=" << kernels::name(c.op) << " type=" << kernels::name(c.type)
       << " block=" << c.block_size << " n=" << c.n << " dist=" << name(c.distribution) << " seed=" << c.seed
       << " offset=" << c.offset;
  return text.str();
}

std::string kcheck_line(const ReduceCase& c) {
  std::ostringstream text;
  text << "kcheck reduce/" << c.variant << " --op " << kernels::name(c.op) << " --type " << kernels::name(c.type)
       << " --block " << c.block_size << " --n " << c.n << " --dist " << name(c.distribution) << " --seed " << c.seed;
  if (c.offset != 0) text << " --offset " << c.offset;
  return text.str();
}

std::uint64_t case_seed(std::uint64_t run_seed, kernels::TypeKey type, Distribution distribution, std::uint64_t n) {
  return derive_seed(run_seed, static_cast<std::uint64_t>(type), static_cast<std::uint64_t>(distribution), n);
}

}  // namespace harness
