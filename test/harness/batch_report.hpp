// What a batch of cases found, for any family.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace harness {

// One line per failed case (each with its kcheck line), the number of cases run and, when
// asked for, one line per passing case.
struct BatchReport {
  std::size_t cases = 0;
  std::vector<std::string> failures;
  std::vector<std::string> passes;
};

}  // namespace harness
