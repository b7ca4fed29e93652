// What every reference-folded operator must obey for the oracle's fold to mean anything, checked on
// random words of a type it takes through its record alone, so that a library's operator is held
// to the same laws as the suite's: a two-sided identity, associativity, a device combine that agrees
// with the host reference, and commutativity exactly as declared.
#pragma once

#include <kernels/types.hpp>

#include <optional>
#include <string>

namespace harness {

struct OperatorLaws {
  std::optional<std::string> violation;  // the first law broken, with the words that break it
  int order_matters = 0;                 // samples where op(a, b) != op(b, a)
};

OperatorLaws check_operator_laws(kernels::Op op, kernels::TypeKey type, int samples = 20000);

}  // namespace harness
