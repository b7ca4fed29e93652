// The two ways a call fails: refused before any launch (ValidationError), or a CUDA error (CudaError).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kernels {

// Raised before any CUDA call, so nothing was launched or written. Names the variant ("reduce/cub"), the
// parameter ("block_size"), the value given and the limit it broke.
class ValidationError : public std::invalid_argument {
 public:
  ValidationError(std::string variant, std::string parameter, std::string value, std::string limit);

  const std::string& variant() const noexcept { return variant_; }
  const std::string& parameter() const noexcept { return parameter_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& limit() const noexcept { return limit_; }

 private:
  std::string variant_;
  std::string parameter_;
  std::string value_;
  std::string limit_;
};

// For a failed launch the message names the kernel, its grid, block and dynamic shared memory.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& context);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

void check_cuda(cudaError_t code, const char* what);  // throws CudaError naming `what` unless cudaSuccess

}  // namespace kernels
