// What an array oracle found wrong: how many outputs, and the first and the last of them.
//
// An oracle describes only those two: a kernel that gets every one of 2^25 outputs wrong costs a
// count per output, not a formatted string per output (which once made a broken sort's entry
// take minutes where a passing one takes seconds).
#pragma once

#include <cstdint>
#include <string>

namespace harness {

struct Mismatches {
  std::uint64_t count = 0;
  std::uint64_t first = 0, last = 0;  // indices of the first and last wrong outputs
  std::string first_problem, last_problem;

  // Records output i as wrong; `describe()` (the problem, as a string) is called for the first
  // wrong output only. After its loop the oracle names the last one's problem (describe_last).
  template <class Describe>
  void note(std::uint64_t i, Describe&& describe) {
    if (count++ == 0) {
      first = i;
      first_problem = describe();
    }
    last = i;
  }

  // The problem of output `last`, once every output is judged (ignored unless it differs from
  // the first).
  template <class Describe>
  void describe_last(Describe&& describe) {
    if (count > 1) last_problem = describe();
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
