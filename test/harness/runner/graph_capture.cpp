#include "harness/runner/graph_capture.hpp"

#include "harness/session/gpu_session.hpp"

#include <kernels/errors.hpp>

#include <exception>

namespace harness {

void capture(const StreamCall& call, Capture& result) {
  const cudaStream_t stream = test_stream();
  kernels::check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  try {
    call(stream);
  } catch (const kernels::ValidationError& error) {
    result.thrown = error.parameter();
  } catch (const std::exception& error) {
    result.thrown = std::string("(other exception: ") + error.what() + ")";
  }
  result.status = cudaStreamEndCapture(stream, &result.graph);
  // A capture the call invalidated leaves its error as the thread's last error: the caller
  // reports the capture, and the next launch (of a kernel that checks cudaGetLastError) must not
  // throw it again.
  if (result.status != cudaSuccess) (void)cudaGetLastError();
}

std::optional<std::string> launch_as_graph(const StreamCall& call) {
  Capture captured;
  capture(call, captured);
  if (!captured.thrown.empty()) return "the captured call threw: " + captured.thrown;
  if (captured.status != cudaSuccess) return std::string("the capture failed: ") + cudaGetErrorString(captured.status);
  cudaGraphExec_t exec = nullptr;
  kernels::check_cuda(cudaGraphInstantiate(&exec, captured.graph, 0), "cudaGraphInstantiate");
  const cudaError_t launched = cudaGraphLaunch(exec, test_stream());
  cudaGraphExecDestroy(exec);  // an in-flight executable graph is freed once it completes
  kernels::check_cuda(launched, "cudaGraphLaunch");
  return std::nullopt;
}

}  // namespace harness
