// What an array oracle found wrong: how many outputs, and the first and the last of them.
#pragma once

#include <cstdint>
#include <string>

namespace harness {

struct Mismatches {
  std::uint64_t count = 0;
  std::uint64_t first = 0, last = 0;  // indices of the first and last wrong outputs
  std::string first_problem, last_problem;

  // Records output i as wrong.
  void note(std::uint64_t i, std::string problem) {
    if (count++ == 0) {
      first = i;
      first_problem = problem;
    }
    last = i;
    last_problem = std::move(problem);
  }

  // "3 wrong outputs: first at 17: expected ..., got ...; last at 1024: ..."
  std::string describe() const {
    std::string text = std::to_string(count) + " wrong output" + (count == 1 ? "" : "s") + ": first at " +
                       std::to_string(first) + ": " + first_problem;
    if (count > 1) text += "; last at " + std::to_string(last) + ": " + last_problem;
    return text;
  }
};

}  // namespace harness
