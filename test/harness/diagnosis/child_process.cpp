#include "harness/diagnosis/child_process.hpp"

#include "harness/session/mps_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace harness {
namespace {

// This process's environment outside MPS (a case rerun apart runs in a context of its own, which
// no other process's fault ends), with `overrides` replacing entries of the same name.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> entries;
  for (const std::string& text : environment_outside_mps()) {
    const std::string name = text.substr(0, text.find('='));
    bool overridden = false;
    for (const std::string& o : overrides) overridden = overridden || o.substr(0, o.find('=')) == name;
    if (!overridden) entries.push_back(text);
  }
  entries.insert(entries.end(), overrides.begin(), overrides.end());
  return entries;
}

}  // namespace

std::vector<char*> null_terminated(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                      std::chrono::milliseconds timeout) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);

  std::vector<std::string> args = argv;
  std::vector<std::string> env = merged_environment(environment);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, args[0].c_str(), &actions, nullptr, null_terminated(args).data(), null_terminated(env).data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[1]);
  if (spawned != 0) {
    close(pipe_ends[0]);
    throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(spawned));
  }

  ChildResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd readable{pipe_ends[0], POLLIN, 0};
    if (poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;  // the deadline, or EINTR
    char buffer[4096];
    const ssize_t got = read(pipe_ends[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of output: the child is exiting
    result.output.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_ends[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace harness
