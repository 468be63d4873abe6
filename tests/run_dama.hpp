// The dama program run as a child process by the tests: stdin from
// /dev/null, stdout and stderr captured, killed after a timeout, and
// optionally interrupted (SIGINT) once a condition holds -- to test how a
// long job stops and resumes.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace dama::test {

struct DamaRun {
  int exit_code = -1;  // the exit status, or 128 + signal number
  bool timed_out = false;
  bool interrupted = false;  // SIGINT was sent
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const DamaRun& r);

// `interrupt_when` is polled every few milliseconds while the program runs;
// the first time it returns true the program gets `signal_number` (SIGINT
// by default; SIGTERM and SIGKILL test the other ways a job ends).
DamaRun run_dama_process(const std::vector<std::string>& args, std::chrono::seconds timeout = std::chrono::seconds(60),
                         const std::function<bool()>& interrupt_when = {}, int signal_number = 2 /* SIGINT */);

}  // namespace dama::test
