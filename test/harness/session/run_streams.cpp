#include "harness/session/run_streams.hpp"

#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

namespace harness {
namespace {

cudaEvent_t new_event() {
  cudaEvent_t event = nullptr;
  kernels::check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  return event;
}

}  // namespace

RunStreams::RunStreams() : forked_(new_event()) {
  for (std::size_t s = 0; s < kStreams; ++s) {
    streams_[s] = new_nonblocking_stream();
    joined_[s] = new_event();
  }
}

// The errors of a dead context are the synchronisation's to report, not these calls'.
void RunStreams::fork() {
  if (cudaEventRecord(forked_, test_stream()) != cudaSuccess) return (void)cudaGetLastError();
  for (cudaStream_t stream : streams_) {
    if (cudaStreamWaitEvent(stream, forked_, 0) != cudaSuccess) (void)cudaGetLastError();
  }
}

void RunStreams::join() {
  for (std::size_t s = 0; s < kStreams; ++s) {
    if (cudaEventRecord(joined_[s], streams_[s]) != cudaSuccess ||
        cudaStreamWaitEvent(test_stream(), joined_[s], 0) != cudaSuccess)
      (void)cudaGetLastError();
  }
}

RunStreams& run_streams() {
  static RunStreams streams;
  return streams;
}

}  // namespace harness
