// The result of reducing zero elements, written by a one-thread kernel so that empty calls stay
// asynchronous and graph-capturable like all others.
#include <kernels/detail/launch.cuh>
#include <kernels/detail/ops.cuh>
#include <kernels/reduce/detail/reduce_variant.hpp>

namespace kernels::detail {
namespace {

template <class T>
__global__ void write_value_kernel(T* out, T value) {
  *out = value;
}

template <Op op, class Out>
void write_empty(void* out, cudaStream_t stream, TypeKey type) {
  const KernelLabel label{"reduce", type, name(op), "empty input"};
  launch_kernel(label, &write_value_kernel<Out>, 1, 1, 0, stream, static_cast<Out*>(out), empty_result<op, Out>());
}

}  // namespace

void write_empty_reduce_result(TypeKey type, Op op, void* out, cudaStream_t stream) {
  visit_type(type, [&](auto, auto out_value) {
    using Out = decltype(out_value);
    switch (op) {
      case Op::sum: return write_empty<Op::sum, Out>(out, stream, type);
      case Op::max: return write_empty<Op::max, Out>(out, stream, type);
      case Op::min: return write_empty<Op::min, Out>(out, stream, type);
    }
  });
}

}  // namespace kernels::detail
