#include <kernels/detail/launch_error.hpp>
#include <kernels/errors.hpp>

#include <sstream>

namespace kernels {

ValidationError::ValidationError(std::string variant, std::string parameter, std::string value, std::string limit)
    : std::invalid_argument(variant + ": " + parameter + " = " + value + " rejected (" + limit + ")"),
      variant_(std::move(variant)),
      parameter_(std::move(parameter)),
      value_(std::move(value)),
      limit_(std::move(limit)) {}

CudaError::CudaError(cudaError_t code, const std::string& context)
    : std::runtime_error(context + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
      code_(code) {}

void check_cuda(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw CudaError(code, what);
}

namespace detail {

void check_launch(cudaError_t code, const KernelLabel& label, dim3 grid, dim3 block, std::size_t shared_bytes) {
  if (code == cudaSuccess) return;
  std::ostringstream context;
  context << "launch of " << label.variant_id << '<' << name(label.type) << ',' << label.operation << "> "
          << label.stage << " (grid " << grid.x << 'x' << grid.y << 'x' << grid.z << ", block " << block.x << 'x'
          << block.y << 'x' << block.z << ", " << shared_bytes << " bytes dynamic shared memory) failed";
  throw CudaError(code, context.str());
}

}  // namespace detail
}  // namespace kernels
