// The streams a batch's runs are spread over, forked from the tests' stream and joined back into
// it. Without MPS a GPU that many test processes share runs one process's kernels at a time, so
// a process's kernels one after another on one stream are what the other processes wait for.
// The runs of a batch are independent (each has its output, workspace and mark), and on several
// streams their grids, most of them small, run side by side in the process's turn.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>

namespace harness {

class RunStreams {
 public:
  static constexpr std::size_t kStreams = 8;
  RunStreams();
  RunStreams(const RunStreams&) = delete;
  RunStreams& operator=(const RunStreams&) = delete;

  // Each stream waits for what the tests' stream has queued.
  void fork();
  cudaStream_t of_run(std::size_t run) const { return streams_[run % kStreams]; }
  // The tests' stream waits for what each stream has queued. A failure (a fault that killed the
  // context) is left to the synchronisation of the tests' stream, which reports it.
  void join();

 private:
  std::array<cudaStream_t, kStreams> streams_{};
  std::array<cudaEvent_t, kStreams> joined_{};
  cudaEvent_t forked_ = nullptr;
};

// The process's streams, made on first use.
RunStreams& run_streams();

}  // namespace harness
