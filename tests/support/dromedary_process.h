// SPDX-License-Identifier: Apache-2.0
#pragma once

// DromedaryProcess: `dromedary run ARGS...` as a child process, with extra environment
// variables (INSTANCE=..., read by route files as {{env:INSTANCE}}) and its output in a log
// file; stopped by PID (SIGTERM when destroyed, or any signal: SIGKILL for a crash). For tests
// of several instances sharing work: the Kafka group, the master: lease.
// Needs DROMEDARY_BINARY_DIR defined to the build folder.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace dromedary::testing {

class DromedaryProcess {
 public:
  DromedaryProcess(const std::vector<std::string>& args, const std::vector<std::string>& env,
                   const std::filesystem::path& log)
      : log_(log) {
    std::string binary = std::string(DROMEDARY_BINARY_DIR) + "/bin/dromedary";
    std::vector<std::string> env_text = env;
    for (char** e = environ; *e; ++e) env_text.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_text = {binary, "run"};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), envp.data()) != 0) {
      pid_ = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
  }
  ~DromedaryProcess() { stop(SIGTERM); }
  DromedaryProcess(const DromedaryProcess&) = delete;
  DromedaryProcess& operator=(const DromedaryProcess&) = delete;

  /// Sends `signal` and waits for the process to end.
  void stop(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  std::string log() const {
    std::ifstream in(log_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

}  // namespace dromedary::testing
