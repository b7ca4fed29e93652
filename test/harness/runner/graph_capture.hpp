// Capture of host calls into a CUDA graph on the test stream, in global capture mode, which
// fails on any allocation or synchronisation inside a call: the batch runner's graph mode
// (launch_as_graph) and the rejected-call checks (gtest/rejected_calls.hpp: a rejected call
// must record no node) both start here.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>

namespace harness {

using StreamCall = std::function<void(cudaStream_t)>;

// What one captured call left: what it threw (the parameter a ValidationError names, or
// "(other exception: ...)"; empty when it returned), the capture's status and the graph, which
// the holder destroys.
struct Capture {
  std::string thrown;
  cudaError_t status = cudaSuccess;
  cudaGraph_t graph = nullptr;

  Capture() = default;
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  ~Capture() {
    if (graph) cudaGraphDestroy(graph);
  }
};

// Runs `call` inside a global-mode capture of the test stream.
void capture(const StreamCall& call, Capture& result);

// Captures `call` into a graph and launches the graph on the test stream (the caller
// synchronises). Returns why it could not be captured (what the call threw, or the capture's
// error), or nothing once the graph is launched.
std::optional<std::string> launch_as_graph(const StreamCall& call);

}  // namespace harness
