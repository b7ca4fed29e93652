#include "harness/core/graph_capture.hpp"

#include "harness/core/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <gtest/gtest.h>

#include <exception>

namespace harness {
namespace {

// Runs `call` inside a global-mode capture of the test stream; what it threw ends up in
// `thrown` (nothing if it returned), the captured graph is returned with the capture's status.
cudaError_t capture(const StreamCall& call, std::string& thrown, cudaGraph_t& graph) {
  const cudaStream_t stream = test_stream();
  kernels::check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  try {
    call(stream);
  } catch (const kernels::ValidationError& error) {
    thrown = error.parameter();
  } catch (const std::exception& error) {
    thrown = std::string("(other exception: ") + error.what() + ")";
  }
  graph = nullptr;
  return cudaStreamEndCapture(stream, &graph);
}

}  // namespace

std::optional<std::string> replay_as_graph(const StreamCall& call) {
  std::string thrown;
  cudaGraph_t graph = nullptr;
  const cudaError_t end = capture(call, thrown, graph);
  if (!thrown.empty()) return "the captured call threw: " + thrown;
  if (end != cudaSuccess) return std::string("the capture failed: ") + cudaGetErrorString(end);
  cudaGraphExec_t exec = nullptr;
  kernels::check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  kernels::check_cuda(cudaGraphLaunch(exec, test_stream()), "cudaGraphLaunch");
  kernels::check_cuda(cudaStreamSynchronize(test_stream()), "cudaStreamSynchronize");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return std::nullopt;
}

void expect_rejected_without_work(std::string_view who, const std::vector<RejectedCall>& calls) {
  for (const RejectedCall& rejected : calls) {
    std::string thrown;
    cudaGraph_t graph = nullptr;
    kernels::check_cuda(capture(rejected.call, thrown, graph), "cudaStreamEndCapture");
    std::size_t nodes = 0;
    kernels::check_cuda(cudaGraphGetNodes(graph, nullptr, &nodes), "cudaGraphGetNodes");
    cudaGraphDestroy(graph);
    EXPECT_EQ(thrown.empty() ? "(nothing thrown)" : thrown, rejected.parameter) << who;
    EXPECT_EQ(nodes, 0u) << who << " enqueued work for a rejected " << rejected.parameter;
  }
}

}  // namespace harness
