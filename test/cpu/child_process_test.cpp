// run_child, which the attribution of stream failures reruns cases with: exit status, signal,
// output, environment and deadline.
#include "harness/diagnosis/child_process.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>

namespace {

using namespace std::chrono_literals;
using harness::run_child;

TEST(ChildProcess, GivesTheExitStatusAndBothOutputStreams) {
  const auto child = run_child({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {}, 10s);
  EXPECT_EQ(child.exit_code, 3);
  EXPECT_EQ(child.signal, 0);
  EXPECT_FALSE(child.timed_out);
  EXPECT_EQ(child.output, "out\nerr\n");
}

TEST(ChildProcess, PassesTheEnvironmentWithItsOverrides) {
  setenv("CHILD_PROCESS_TEST_KEPT", "kept", 1);
  setenv("CHILD_PROCESS_TEST_SET", "old", 1);
  const auto child = run_child({"/bin/sh", "-c", "echo $CHILD_PROCESS_TEST_KEPT $CHILD_PROCESS_TEST_SET"},
                               {"CHILD_PROCESS_TEST_SET=new"}, 10s);
  EXPECT_EQ(child.output, "kept new\n");
}

TEST(ChildProcess, ReportsASignal) {
  const auto child = run_child({"/bin/sh", "-c", "kill -SEGV $$"}, {}, 10s);
  EXPECT_EQ(child.exit_code, -1);
  EXPECT_EQ(child.signal, SIGSEGV);
}

TEST(ChildProcess, KillsAChildPastItsDeadline) {
  const auto started = std::chrono::steady_clock::now();
  const auto child = run_child({"/bin/sh", "-c", "echo started; exec sleep 30"}, {}, 300ms);
  EXPECT_TRUE(child.timed_out);
  EXPECT_EQ(child.signal, SIGKILL);
  EXPECT_EQ(child.output, "started\n");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(ChildProcess, ThrowsWhenTheProgramCannotStart) {
  EXPECT_THROW(run_child({"/no/such/program"}, {}, 10s), std::runtime_error);
}

}  // namespace
