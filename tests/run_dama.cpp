#include "run_dama.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#ifndef DAMA_BINARY
#error "DAMA_BINARY must name the dama program"
#endif

extern char** environ;

namespace dama::test {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const DamaRun& r) {
  return os << "exit " << r.exit_code << (r.timed_out ? " (timed out)" : "") << (r.interrupted ? " (interrupted)" : "")
            << "\n--- stdout:\n"
            << r.out.substr(0, 3000) << "\n--- stderr:\n"
            << r.err.substr(0, 3000);
}

DamaRun run_dama_process(const std::vector<std::string>& args, std::chrono::seconds timeout,
                         const std::function<bool()>& interrupt_when, int signal_number) {
  DamaRun run;
  std::string out_path = ::testing::TempDir() + "dama_run_out_XXXXXX";
  std::string err_path = ::testing::TempDir() + "dama_run_err_XXXXXX";
  const int out_fd = mkstemp(out_path.data()), err_fd = mkstemp(err_path.data());
  if (out_fd < 0 || err_fd < 0) {
    ADD_FAILURE() << "cannot create temporary files in " << ::testing::TempDir();
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);

  std::vector<std::string> argv_strings = {DAMA_BINARY};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, DAMA_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_fd);
  close(err_fd);
  if (spawn_error != 0) {
    ADD_FAILURE() << "cannot run " << DAMA_BINARY << ": error " << spawn_error;
  } else {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        run.timed_out = true;
        break;
      }
      if (!run.interrupted && interrupt_when && interrupt_when()) {
        kill(pid, signal_number);
        run.interrupted = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return run;
}

}  // namespace dama::test
