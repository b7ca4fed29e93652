// The GPU tests' share of the GPU through MPS (harness/session/mps_client.hpp), without a GPU: a
// process joins only a daemon that serves, its children get the environment from before it
// joined, and its rerun is the same command line outside MPS with the same run seed. The
// process that joins is a child of these tests: joining happens once per process.
#include "harness/session/mps_client.hpp"
#include "harness/diagnosis/child_process.hpp"
#include "harness/settings/environment.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using namespace std::chrono_literals;

const char* shown(const char* value) { return value ? value : "(unset)"; }

// Run only as the child of the tests below: joins if it can, says what it sees, and when it
// joined, what its own children would see, then runs again.
TEST(MpsClientChild, DISABLED_JoinsThenRunsAgain) {
  harness::join_mps_if_serving();
  std::printf("joined=%d pipe=%s log=%s seed=%s\n", harness::joined_mps(),
              shown(std::getenv("CUDA_MPS_PIPE_DIRECTORY")), shown(std::getenv("CUDA_MPS_LOG_DIRECTORY")),
              shown(harness::suite_variable("KERNELS_SEED")));
  if (!harness::joined_mps()) return;
  for (const std::string& entry : harness::environment_outside_mps()) {
    if (entry.starts_with("CUDA_MPS_") || entry.starts_with("KERNELS_MPS_DIR"))
      std::printf("a child gets %s\n", entry.c_str());
  }
  harness::rerun_without_mps_if_joined("a test asked");
}

class MpsClient : public testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() / ("mps_client_test." + std::to_string(getpid()));
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::string run_child_process(const std::vector<std::string>& environment) const {
    const auto child = harness::run_child(
        {"/proc/self/exe", "--gtest_also_run_disabled_tests", "--gtest_filter=MpsClientChild.*", "--gtest_brief=1"},
        environment, 60s);
    EXPECT_EQ(child.exit_code, 0) << child.output;
    return child.output;
  }

  std::filesystem::path folder_;
};

TEST_F(MpsClient, AProcessJoinsNoDaemonThatDoesNotServe) {
  const std::string output =
      run_child_process({"KERNELS_MPS_DIR=" + folder_.string(), "CUDA_MPS_PIPE_DIRECTORY=/users/own"});
  EXPECT_NE(output.find("joined=0 pipe=/users/own log=(unset)"), std::string::npos) << output;
  EXPECT_EQ(output.find("MPS:"), std::string::npos) << output;
}

TEST_F(MpsClient, AProcessThatJoinedRunsAgainOutsideMpsWithItsSeed) {
  std::ofstream(folder_ / "serving").put('\n');
  const std::string pipe = (folder_ / "pipe").string(), log = (folder_ / "log").string();
  const std::string output = run_child_process(
      {"KERNELS_MPS_DIR=" + folder_.string(), "CUDA_MPS_PIPE_DIRECTORY=/users/own", "KERNELS_SEED=7"});
  const auto joined = output.find("joined=1 pipe=" + pipe + " log=" + log + " seed=7");
  ASSERT_NE(joined, std::string::npos) << output;
  // Its children: the pipes it had before joining, no log folder, no daemon to join.
  EXPECT_NE(output.find("a child gets CUDA_MPS_PIPE_DIRECTORY=/users/own"), std::string::npos) << output;
  EXPECT_EQ(output.find("a child gets CUDA_MPS_LOG_DIRECTORY"), std::string::npos) << output;
  EXPECT_EQ(output.find("a child gets KERNELS_MPS_DIR"), std::string::npos) << output;
  const auto told = output.find("MPS: a test asked.", joined);
  ASSERT_NE(told, std::string::npos) << output;
  EXPECT_NE(output.find("joined=0 pipe=/users/own log=(unset) seed=7", told), std::string::npos) << output;
}

TEST_F(MpsClient, TheRerunKeepsARandomRunSeed) {
  std::ofstream(folder_ / "serving").put('\n');
  const std::string output = run_child_process({"KERNELS_MPS_DIR=" + folder_.string(), "KERNELS_SEED=random"});
  const auto told = output.find("MPS: a test asked.");
  ASSERT_NE(told, std::string::npos) << output;
  const auto seed_at = output.find("seed=", told);
  ASSERT_NE(seed_at, std::string::npos) << output;
  const std::string seed = output.substr(seed_at + 5, output.find('\n', seed_at) - seed_at - 5);
  EXPECT_NE(seed, "random") << output;
  EXPECT_EQ(seed.find_first_not_of("0123456789"), std::string::npos) << output;
}

}  // namespace
