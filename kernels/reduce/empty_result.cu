// The result of reducing zero elements, written by a one-thread kernel so that empty calls stay
// asynchronous and graph-capturable like all others.
#include <kernels/detail/launch.cuh>
#include <kernels/detail/ops.cuh>
#include <kernels/reduce/detail/reduce_variant.hpp>

#include <utility>

namespace kernels::detail {
namespace {

template <class T>
__global__ void write_value_kernel(T* out, T value) {
  *out = value;
}

template <Op op, class Out>
void write_empty(void* out, cudaStream_t stream, TypeKey type) {
  const KernelLabel label{"reduce", type, name(op), "empty input"};
  launch_kernel(label, &write_value_kernel<Out>, 1, 1, 0, stream, static_cast<Out*>(out),
                empty_result<op_functor_t<op, Out>, Out>());
}

template <class Out, std::size_t... O>
void write_empty_for_op(Op op, void* out, cudaStream_t stream, TypeKey type, std::index_sequence<O...>) {
  // Only the operators that take Out: the dispatcher has validated (type, op) before.
  ((op == kBuiltinOps[O]
        ? (operator_of_t<kBuiltinOps[O]>::template kTakes<Out> ? write_empty<kBuiltinOps[O], Out>(out, stream, type)
                                                               : void())
        : void()),
   ...);
}

// A registered operator's empty result is its identity, which its record computes on the host.
template <class Out>
void write_registered_identity(Op op, void* out, cudaStream_t stream, TypeKey type) {
  Out identity;
  operator_info(op).identity(type, &identity);
  const KernelLabel label{"reduce", type, name(op), "empty input"};
  launch_kernel(label, &write_value_kernel<Out>, 1, 1, 0, stream, static_cast<Out*>(out), identity);
}

}  // namespace

void write_empty_reduce_result(TypeKey type, Op op, void* out, cudaStream_t stream) {
  visit_type(type, [&](auto, auto out_value) {
    using Out = decltype(out_value);
    if (is_builtin(op)) {
      write_empty_for_op<Out>(op, out, stream, type, std::make_index_sequence<kBuiltinOpCount>{});
    } else {
      write_registered_identity<Out>(op, out, stream, type);
    }
  });
}

}  // namespace kernels::detail
