// How the harness lays out device buffers. The functional tests put inputs and outputs between
// guard bands inside one allocation per batch, so that a stray read meets poison that changes
// the result and a stray write is seen in a band. Under compute-sanitizer, test/runtime/sanitize.sh sets
// KERNELS_EXACT_BUFFERS=1: every input and output segment is then an allocation of its own, of
// exactly its elements, and every workspace of exactly its bytes, so that memcheck reports any
// access outside [0, n), even a read whose value changes nothing.
#pragma once

#include <cstdlib>
#include <string_view>
#include "harness/settings/environment.hpp"

namespace harness {

inline bool exact_size_buffers() {
  static const bool exact = [] {
    const char* value = harness::suite_variable("KERNELS_EXACT_BUFFERS");
    return value != nullptr && std::string_view(value) == "1";
  }();
  return exact;
}

}  // namespace harness
