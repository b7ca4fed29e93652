// Timing one call's device work with a pair of CUDA events.
#pragma once

#include <kernels/errors.hpp>

#include <cuda_runtime_api.h>

#include <utility>

namespace bench {

class GpuTimer {
 public:
  GpuTimer() {
    kernels::check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    kernels::check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  // Milliseconds from the start event to the end of the work `call` enqueues on `stream`.
  // Waits for that work, so the next call starts on an idle stream: at small n the time is a
  // call's latency, its launches included (docs/benchmarks.md); at large n
  // the launches vanish in the kernels' own time.
  template <class Call>
  double time_ms(cudaStream_t stream, Call&& call) {
    kernels::check_cuda(cudaEventRecord(start_, stream), "cudaEventRecord (start)");
    std::forward<Call>(call)();
    kernels::check_cuda(cudaEventRecord(stop_, stream), "cudaEventRecord (stop)");
    kernels::check_cuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    kernels::check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace bench
