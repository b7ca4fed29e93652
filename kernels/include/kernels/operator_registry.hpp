// Operators known at run time: the suite's (kernels/operators.hpp) and those a variant library registers with its
// variants (kernels/variant/operator.cuh), each with what the oracles and the lawfulness checks call.
#pragma once

#include <kernels/types.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace kernels {

struct OperatorInfo {
  std::string name;  // as tests, labels and kcheck spell it: [a-z0-9_]+
  bool commutative = false;
  std::vector<TypeKey> types;  // the keys it takes
  // Over values of a type it takes, as that type's bytes. Null for sum, max and min, whose semantics the oracles
  // state themselves (docs/semantics.md).
  void (*identity)(TypeKey type, void* out) = nullptr;
  void (*reference)(TypeKey type, const void* earlier, const void* later, void* out) = nullptr;
  void (*combine)(TypeKey type, const void* earlier, const void* later, void* out) = nullptr;  // the device's, here
};

// Adds an operator and returns its op, numbered after every known one. Throws std::logic_error naming it for a
// malformed record or a name already known; while a variant library loads, the refusal is kept for
// load_variant_library to report instead.
Op register_operator(OperatorInfo info);

const OperatorInfo& operator_info(Op op);  // std::out_of_range for an op no one registered

}  // namespace kernels
