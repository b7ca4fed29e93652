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

// A suite's op: its functor's empty result, for the ops that take Out (the dispatcher validated (type, op)).
template <class Out, std::size_t... O>
Out builtin_empty_result(Op op, std::index_sequence<O...>) {
  Out value{};
  ((op == kBuiltinOps[O] && operator_of_t<kBuiltinOps[O]>::template kTakes<Out>
        ? void(value = empty_result<kBuiltinOps[O], Out>())
        : void()),
   ...);
  return value;
}

}  // namespace

void write_empty_reduce_result(TypeKey type, Op op, void* out, cudaStream_t stream) {
  visit_type(type, [&](auto, auto out_value) {
    using Out = decltype(out_value);
    Out value{};
    if (is_builtin(op)) {
      value = builtin_empty_result<Out>(op, std::make_index_sequence<kBuiltinOpCount>{});
    } else {
      operator_info(op).identity(type, &value);  // a registered operator's: its identity, from its record
    }
    const KernelLabel label{"reduce", type, name(op), "empty input"};
    launch_kernel(label, &write_value_kernel<Out>, 1, 1, 0, stream, static_cast<Out*>(out), value);
  });
}

}  // namespace kernels::detail
