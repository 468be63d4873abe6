// SIGINT / SIGTERM during a fit: the first signal asks the fit to stop after
// the epoch in progress (which then saves a checkpoint); a second one ends
// the program at once, the default action.
#pragma once

#include <atomic>

namespace dama::train {

class StopRequest {
 public:
  // Installs the handlers; the destructor restores the previous ones.
  StopRequest();
  ~StopRequest();
  StopRequest(const StopRequest&) = delete;
  StopRequest& operator=(const StopRequest&) = delete;

  bool requested() const;
  int signal_number() const;  // the signal that asked, 0 if none
  const std::atomic<bool>* flag() const;  // true once asked: for loops and searches that poll a flag

 private:
  void (*previous_interrupt_)(int);
  void (*previous_terminate_)(int);
};

}  // namespace dama::train
