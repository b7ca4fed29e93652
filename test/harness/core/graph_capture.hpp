// The two capture-based checks every family's tests make of a variant's host API:
//  - a call can be captured into a CUDA graph in global capture mode, which fails on any
//    allocation or synchronisation, and the graph can be replayed;
//  - a rejected call throws ValidationError naming the right parameter and enqueues nothing
//    (its capture records no node).
// Both run on the test stream.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

using StreamCall = std::function<void(cudaStream_t)>;

// Captures `call` into a graph, replays it once and waits for it. Returns why it could not be
// captured (what the call threw, or the capture's error), or nothing once the replay is done.
std::optional<std::string> replay_as_graph(const StreamCall& call);

struct RejectedCall {
  std::string parameter;  // what the ValidationError must name
  StreamCall call;
};

// Captures each call and expects (gtest EXPECT) that it throws ValidationError naming its
// parameter and records no node. `who` ("scan/naive") prefixes the failure messages.
void expect_rejected_without_work(std::string_view who, const std::vector<RejectedCall>& calls);

}  // namespace harness
