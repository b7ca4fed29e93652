#include "scan_case.hpp"

#include <sstream>

namespace harness {

std::string describe(const ScanCase& c) {
  std::ostringstream text;
  text << "scan/" << c.variant << " kind=" << kernels::name(c.kind) << " type=" << kernels::name(c.type)
       << " block=" << c.block_size << " n=" << c.n << " dist=" << name(c.distribution) << " seed=" << c.seed
       << " offset=" << c.offset << (c.in_place ? " in-place" : "");
  return text.str();
}

std::string kcheck_line(const ScanCase& c) {
  std::ostringstream text;
  text << "kcheck scan/" << c.variant << " --kind " << kernels::name(c.kind) << " --type " << kernels::name(c.type)
       << " --block " << c.block_size << " --n " << c.n << " --dist " << name(c.distribution) << " --seed " << c.seed;
  if (c.offset != 0) text << " --offset " << c.offset;
  if (c.in_place) text << " --in-place";
  return text.str();
}

}  // namespace harness
