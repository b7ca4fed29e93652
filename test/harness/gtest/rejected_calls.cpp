#include "harness/gtest/rejected_calls.hpp"

#include <kernels/errors.hpp>

#include <gtest/gtest.h>

namespace harness {

void expect_rejected_without_work(std::string_view who, const std::vector<RejectedCall>& calls) {
  for (const RejectedCall& rejected : calls) {
    Capture captured;
    capture(rejected.call, captured);
    kernels::check_cuda(captured.status, "cudaStreamEndCapture");
    std::size_t nodes = 0;
    kernels::check_cuda(cudaGraphGetNodes(captured.graph, nullptr, &nodes), "cudaGraphGetNodes");
    EXPECT_EQ(captured.thrown.empty() ? "(nothing thrown)" : captured.thrown, rejected.parameter) << who;
    EXPECT_EQ(nodes, 0u) << who << " enqueued work for a rejected " << rejected.parameter;
  }
}

}  // namespace harness
