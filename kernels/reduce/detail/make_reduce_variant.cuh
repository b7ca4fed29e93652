// Builds a variant's dispatch table by instantiating its implementation for every type key and
// op it declares (detail/declared.hpp: all of them unless it lists kTypes or kOps). An
// implementation `Impl` provides, for In/Out element types and an op functor OpT:
//   template <class OpT, class In, class Out> static void run(const In*, Out*, const ReduceCall&);
//   template <class OpT, class In, class Out> static std::size_t workspace_bytes(std::uint64_t n, int block);
//   static std::uint64_t max_length(int block);
//   static std::uint64_t accumulation_depth(std::uint64_t n, int block);
#pragma once

#include <kernels/detail/declared.hpp>
#include <kernels/detail/ops.cuh>
#include <kernels/reduce/detail/reduce_variant.hpp>

#include <utility>

namespace kernels::detail {

template <class Impl, TypeKey type, Op op>
void run_reduce_entry(const ReduceCall& call) {
  using In = typename types_of<type>::in;
  using Out = typename types_of<type>::out;
  Impl::template run<op_functor_t<op, Out>>(static_cast<const In*>(call.in), static_cast<Out*>(call.out), call);
}

template <class Impl, TypeKey type, Op op>
std::size_t reduce_entry_workspace(std::uint64_t n, int block_size) {
  using In = typename types_of<type>::in;
  using Out = typename types_of<type>::out;
  return Impl::template workspace_bytes<op_functor_t<op, Out>, In, Out>(n, block_size);
}

template <class Impl, TypeKey type, Op op>
void fill_reduce_entry(ReduceVariant& variant) {
  if constexpr (declares_type<Impl>(Family::reduce, type) && declares_op<Impl>(Family::reduce, type, op)) {
    variant.set(type, index_of(op), {&run_reduce_entry<Impl, type, op>, &reduce_entry_workspace<Impl, type, op>});
  }
}

template <class Impl, TypeKey type, class Descriptor>
void run_registered_reduce_entry(const ReduceCall& call) {
  using T = typename types_of<type>::in;
  Impl::template run<RegisteredOp<Descriptor, T>>(static_cast<const T*>(call.in), static_cast<T*>(call.out), call);
}

// A registered operator on every element type both it and the variant take (not the widening keys: a sum's).
template <class Impl, class Descriptor, std::size_t... T>
void fill_registered_reduce_entries(ReduceVariant& variant, Op op, std::index_sequence<T...>) {
  const auto fill = [&]<TypeKey type>() {
    using In = typename types_of<type>::in;
    if constexpr (!is_widening(type) && declares_type<Impl>(Family::reduce, type) && Descriptor::template kTakes<In>) {
      variant.set(type, index_of(op),
                  {&run_registered_reduce_entry<Impl, type, Descriptor>,
                   &Impl::template workspace_bytes<RegisteredOp<Descriptor, In>, In, In>});
    }
  };
  (fill.template operator()<kAllTypeKeys[T]>(), ...);
}

template <class Impl, std::size_t... T, std::size_t... O>
void fill_reduce_entries(ReduceVariant& variant, std::index_sequence<T...>, std::index_sequence<O...>) {
  auto for_type = [&](auto type_index) {
    (fill_reduce_entry<Impl, kAllTypeKeys[decltype(type_index)::value], kBuiltinOps[O]>(variant), ...);
  };
  (for_type(std::integral_constant<std::size_t, T>{}), ...);
}

}  // namespace kernels::detail

namespace kernels::variant {

// `info` holds the variant's name, description, block sizes, length rule and determinism; its
// types and ops, whether it needs commutative ops, limits and error model come from Impl.
template <class Impl>
detail::ReduceVariant make_reduce_variant(VariantInfo info) {
  using namespace detail;
  info.family = Family::reduce;
  ReduceVariant variant{info, info.id()};
  fill_reduce_entries<Impl>(variant, std::make_index_sequence<kTypeKeyCount>{},
                            std::make_index_sequence<kBuiltinOpCount>{});
  for_each_registered_operator<Impl>([&]<class Descriptor>() {
    fill_registered_reduce_entries<Impl, Descriptor>(variant, operator_key<Descriptor>(),
                                                     std::make_index_sequence<kTypeKeyCount>{});
  });
  info.type_ops.clear();
  for (TypeKey type : kAllTypeKeys) {
    if (!declares_type<Impl>(Family::reduce, type)) continue;
    TypeOps declared{type, {}};
    for (std::size_t op = 0; op < variant.entries[index_of(type)].size(); ++op) {
      if (variant.entries[index_of(type)][op].run != nullptr) declared.ops.push_back(static_cast<Op>(op));
    }
    info.type_ops.push_back(declared);
  }
  info.keeps_operand_order = keeps_operand_order<Impl>();
  info.zero_sum = zero_sum<Impl>();
  info.max_length = &Impl::max_length;
  info.accumulation_depth = &Impl::accumulation_depth;
  declare_vector_path<Impl>(info);
  variant.info = info;
  variant.id = info.id();
  return variant;
}

}  // namespace kernels::variant
