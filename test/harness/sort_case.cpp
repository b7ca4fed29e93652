#include "sort_case.hpp"

#include <sstream>

namespace harness {

std::string describe(const SortCase& c) {
  std::ostringstream text;
  text << "sort/" << c.variant << " form=" << kernels::name(c.form) << " type=" << kernels::name(c.type)
       << " block=" << c.block_size << " n=" << c.n << " dist=" << name(c.distribution) << " seed=" << c.seed
       << " offset=" << c.offset;
  return text.str();
}

std::string kcheck_line(const SortCase& c) {
  std::ostringstream text;
  text << "kcheck sort/" << c.variant << " --form " << kernels::name(c.form) << " --type " << kernels::name(c.type)
       << " --block " << c.block_size << " --n " << c.n << " --dist " << name(c.distribution) << " --seed " << c.seed;
  if (c.offset != 0) text << " --offset " << c.offset;
  return text.str();
}

}  // namespace harness
