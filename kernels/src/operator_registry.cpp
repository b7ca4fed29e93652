// The operators' table: the suite's, in kBuiltinOps order, then those registered as variant libraries load.
#include <kernels/detail/describe_operator.hpp>
#include <kernels/detail/library_load.hpp>
#include <kernels/operator_registry.hpp>
#include <kernels/operators.hpp>

#include <deque>
#include <stdexcept>
#include <type_traits>

namespace kernels {
namespace {

template <class Descriptor>
OperatorInfo builtin(Op op, const char* name) {
  // Sum, max and min carry no reference: the oracles state their semantics themselves.
  if constexpr (requires { &Descriptor::template reference<int>; }) {
    return detail::describe_operator<Descriptor>(name);
  } else {
    OperatorInfo info{name, Descriptor::kCommutative, {}};
    for (TypeKey type : kAllTypeKeys) {
      if (builtin_takes(op, type)) info.types.push_back(type);
    }
    return info;
  }
}

// A deque: registering another never moves the records handed out.
std::deque<OperatorInfo>& known_operators() {
  static std::deque<OperatorInfo> known = [] {
    std::deque<OperatorInfo> builtins;
#define KERNELS_BUILTIN_OPERATOR(key, descriptor) builtins.push_back(builtin<descriptor>(Op::key, #key));
    KERNELS_FOR_EACH_OP(KERNELS_BUILTIN_OPERATOR)
#undef KERNELS_BUILTIN_OPERATOR
    return builtins;
  }();
  return known;
}

std::string refusal(const OperatorInfo& info) {
  const auto named = [&](const std::string& why) { return "operator " + info.name + ": " + why; };
  if (info.name.empty() || info.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
    return named("a name of [a-z0-9_] only");
  if (parse_op(info.name)) return named("registered twice");
  if (info.types.empty()) return named("takes no element type");
  if (!info.identity || !info.reference || !info.combine) return named("needs an identity, a reference and a combine");
  return {};
}

}  // namespace

Op register_operator(OperatorInfo info) {
  if (const std::string why = refusal(info); !why.empty()) {
    if (detail::refused_while_loading(why)) return static_cast<Op>(-1);
    throw std::logic_error(why);
  }
  known_operators().push_back(std::move(info));
  return static_cast<Op>(known_operators().size() - 1);
}

const OperatorInfo& operator_info(Op op) {
  const auto index = static_cast<std::size_t>(static_cast<int>(op));
  if (static_cast<int>(op) < 0 || index >= known_operators().size())
    throw std::out_of_range("no operator numbered " + std::to_string(static_cast<int>(op)));
  return known_operators()[index];
}

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (std::size_t index = 0; index < known_operators().size(); ++index) ops.push_back(static_cast<Op>(index));
  return ops;
}

bool is_commutative(Op op) { return operator_info(op).commutative; }

bool operator_takes(Op op, TypeKey type) {
  for (TypeKey taken : operator_info(op).types) {
    if (taken == type) return true;
  }
  return false;
}

}  // namespace kernels
