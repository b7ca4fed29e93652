// An operator's record made from its descriptor (kernels/operators/ says what a descriptor states): the types it
// takes and its identity, reference and combine over type-erased values. Plain C++; combine runs on the host.
#pragma once

#include <kernels/operator_registry.hpp>

#include <cstring>
#include <string>

namespace kernels::detail {

template <class Descriptor, class Body>
void on_taken_type(TypeKey type, Body&& body) {
  visit_element_type(type, [&](auto value, auto) {
    using T = decltype(value);
    if constexpr (Descriptor::template kTakes<T>) body(T{});
  });
}

template <class T>
T value_at(const void* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

template <class Descriptor>
OperatorInfo describe_operator(std::string name) {
  OperatorInfo info{std::move(name), Descriptor::kCommutative, {}};
  for (TypeKey type : kAllTypeKeys) {
    if (is_widening(type)) continue;
    on_taken_type<Descriptor>(type, [&](auto) { info.types.push_back(type); });
  }
  info.identity = [](TypeKey type, void* out) {
    on_taken_type<Descriptor>(type, [&]<class T>(T) {
      const T value = Descriptor::template identity<T>();
      std::memcpy(out, &value, sizeof(T));
    });
  };
  info.reference = [](TypeKey type, const void* earlier, const void* later, void* out) {
    on_taken_type<Descriptor>(type, [&]<class T>(T) {
      const T value = Descriptor::template reference<T>(value_at<T>(earlier), value_at<T>(later));
      std::memcpy(out, &value, sizeof(T));
    });
  };
  info.combine = [](TypeKey type, const void* earlier, const void* later, void* out) {
    on_taken_type<Descriptor>(type, [&]<class T>(T) {
      const T value = Descriptor::template combine<T>(value_at<T>(earlier), value_at<T>(later));
      std::memcpy(out, &value, sizeof(T));
    });
  };
  return info;
}

// The op of a descriptor that names itself (kName), registered the first time its library asks.
template <class Descriptor>
Op operator_key() {
  static const Op op = register_operator(describe_operator<Descriptor>(std::string(Descriptor::kName)));
  return op;
}

}  // namespace kernels::detail
