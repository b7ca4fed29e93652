// Operators known at run time: the suite's (kernels/operators.hpp), then those variant libraries register.
#pragma once

#include <kernels/types.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace kernels {

struct OperatorInfo {
  std::string name;  // [a-z0-9_]+
  bool commutative = false;
  std::vector<TypeKey> types;
  // Over values of a type it takes, as its bytes; null for sum, max and min (the oracles' own semantics).
  void (*identity)(TypeKey type, void* out) = nullptr;
  void (*reference)(TypeKey type, const void* earlier, const void* later, void* out) = nullptr;
  void (*combine)(TypeKey type, const void* earlier, const void* later, void* out) = nullptr;
};

// Numbered after every known op; std::logic_error for a malformed record or a taken name (kept while a library loads).
Op register_operator(OperatorInfo info);

const OperatorInfo& operator_info(Op op);  // std::out_of_range for an op no one registered

}  // namespace kernels
