#include "reduce_case.hpp"

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

}  // namespace harness
