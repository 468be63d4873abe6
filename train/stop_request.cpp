#include "stop_request.hpp"

#include <atomic>
#include <csignal>

namespace dama::train {

namespace {

// A signal handler can reach nothing but a static: this is the one piece of
// process-wide state the tuner has, and only the handler writes it.
volatile std::sig_atomic_t g_stop_signal = 0;
std::atomic<bool> g_stop_flag{false};  // the same, for code that polls a flag (lock-free: safe in a handler)
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int signal) {
  g_stop_signal = signal;
  g_stop_flag.store(true);
  std::signal(signal, SIG_DFL);  // a second signal ends the program
}

}  // namespace

StopRequest::StopRequest() {
  g_stop_signal = 0;
  g_stop_flag = false;
  previous_interrupt_ = std::signal(SIGINT, on_stop_signal);
  previous_terminate_ = std::signal(SIGTERM, on_stop_signal);
}

StopRequest::~StopRequest() {
  std::signal(SIGINT, previous_interrupt_);
  std::signal(SIGTERM, previous_terminate_);
}

bool StopRequest::requested() const { return g_stop_signal != 0; }
int StopRequest::signal_number() const { return g_stop_signal; }
const std::atomic<bool>* StopRequest::flag() const { return &g_stop_flag; }

}  // namespace dama::train
