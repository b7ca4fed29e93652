#include "harness/session/mps_client.hpp"

#include "harness/diagnosis/child_process.hpp"
#include "harness/input/run_seed.hpp"
#include "harness/settings/environment.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

extern char** environ;

namespace harness {
namespace {

constexpr const char* kPipeVariable = "CUDA_MPS_PIPE_DIRECTORY";
constexpr const char* kLogVariable = "CUDA_MPS_LOG_DIRECTORY";

struct Started {
  std::vector<std::string> arguments;    // /proc/self/cmdline: argv before gtest took its flags
  std::vector<std::string> environment;  // environ before this process changed any of it
  std::optional<std::string> pipe, log;  // the MPS variables before joining
  bool joined = false;
};

Started& started() {
  static Started state;
  return state;
}

std::vector<std::string> current_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) entries.emplace_back(*entry);
  return entries;
}

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// `entries` with the entry of `name` replaced by `value`, or removed for nothing.
void put(std::vector<std::string>& entries, const std::string& name, const std::optional<std::string>& value) {
  std::erase_if(entries, [&](const std::string& entry) { return entry.compare(0, name.size() + 1, name + "=") == 0; });
  if (value) entries.push_back(name + "=" + *value);
}

}  // namespace

void join_mps_if_serving() {
  const char* dir = harness::suite_variable(kMpsDirVariable);
  if (dir == nullptr || *dir == '\0') return;
  const std::filesystem::path folder(dir);
  std::error_code ignored;
  if (!std::filesystem::exists(folder / "serving", ignored)) return;

  Started& state = started();
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = text.find('\0', begin);
    state.arguments.push_back(text.substr(begin, end - begin));
    begin = end == std::string::npos ? text.size() : end + 1;
  }
  state.environment = current_environment();
  state.pipe = variable(kPipeVariable);
  state.log = variable(kLogVariable);
  setenv(kPipeVariable, (folder / "pipe").c_str(), 1);
  setenv(kLogVariable, (folder / "log").c_str(), 1);
  state.joined = true;
}

bool joined_mps() { return started().joined; }

std::vector<std::string> environment_outside_mps() {
  std::vector<std::string> entries = current_environment();
  if (!joined_mps()) return entries;
  put(entries, kPipeVariable, started().pipe);
  put(entries, kLogVariable, started().log);
  put(entries, kMpsDirVariable, std::nullopt);
  return entries;
}

bool cuda_context_lost() {
  if (cudaDeviceSynchronize() == cudaSuccess) return false;
  return cudaDeviceSynchronize() != cudaSuccess;
}

void rerun_without_mps_if_joined(const std::string& why) {
  Started& state = started();
  if (!state.joined || state.arguments.empty()) return;
  std::vector<std::string> environment = state.environment;
  put(environment, kMpsDirVariable, std::nullopt);
  put(environment, "KERNELS_SEED", std::to_string(run_seed()));
  std::printf(
      "MPS: %s. Through MPS one process's fault ends the CUDA context of every process on the GPU, so "
      "this entry runs again without MPS, and that run's verdict counts.\n",
      why.c_str());
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<std::string> arguments = state.arguments;
  execve("/proc/self/exe", null_terminated(arguments).data(), null_terminated(environment).data());
  std::fprintf(stderr, "MPS: the run without MPS could not start (execve: %s)\n", std::strerror(errno));
  std::_Exit(1);
}

}  // namespace harness
