// The one handler of SIGINT and SIGTERM, for every long job: self-play,
// tuning, matches, table builds, the pipeline, DXP.
//
// The first signal asks the job to stop at its next safe point (after the
// games, the epoch or the slice in progress, each of which then checkpoints);
// the job polls requested() or flag().  What a second signal does is the
// job's choice (SecondSignal):
//   Counted     it is counted and second_flag() turns true: a match drops
//               the games in flight;
//   ExitsNow    the process ends at once with status 130: self-play, whose
//               files on disk are whole after every checkpoint;
//   EndsProgram the signal's default action, as if no handler had been
//               installed: the tuner, the tables, DXP.
// A message for each may be given; the handler writes it to stderr.  SIGTERM
// can be passed on to a child process (the pipeline's running step; Ctrl-C
// reaches it through the terminal's process group).
//
// A handler can reach nothing but statics: the state lives in stop_signal.cpp
// and only one StopSignal may exist at a time (a second one throws).
#pragma once

#include <sys/types.h>

#include <atomic>

namespace dama {

enum class SecondSignal { Counted, ExitsNow, EndsProgram };

struct StopSignalOptions {
  SecondSignal second = SecondSignal::EndsProgram;
  const char* first_message = nullptr;   // written to stderr at the first signal (with its newlines)
  const char* second_message = nullptr;  // ... at the second
};

class StopSignal {
 public:
  // Installs the handler for SIGINT and SIGTERM; the destructor puts the
  // previous handlers back.
  explicit StopSignal(StopSignalOptions options = {});
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  bool requested() const;
  int requests() const;                         // signals received so far
  int signal_number() const;                    // the first signal's number, 0 if none
  const std::atomic<bool>* flag() const;        // true from the first signal on: for loops and searches that poll
  const std::atomic<bool>* second_flag() const; // true from the second signal on
  const std::atomic<int>* counter() const;      // the count itself

  // SIGTERM is passed on to this process (0: to none) while it runs.
  static void forward_terminate_to(pid_t child);
};

}  // namespace dama
