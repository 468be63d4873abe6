#include "stop_signal.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include "error.hpp"

namespace dama {

namespace {

// The process-wide state of the handler, which can reach nothing else.  Only
// the handler writes the counters; the constructor resets them.
std::atomic<int> g_requests{0};
volatile std::sig_atomic_t g_first_signal = 0;
std::atomic<bool> g_first{false};
std::atomic<bool> g_second{false};
std::atomic<pid_t> g_child{0};
std::atomic<bool> g_installed{false};
StopSignalOptions g_options;  // written before the handler is installed, read-only after
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
              std::atomic<pid_t>::is_always_lock_free);

void say(const char* message) {
  if (!message) return;
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, message, std::strlen(message));
}

extern "C" void on_stop_signal(int signal_number) {
  const int request = g_requests.fetch_add(1) + 1;
  if (const pid_t child = g_child.load(); child > 0 && signal_number == SIGTERM) ::kill(child, SIGTERM);
  if (request == 1) {
    g_first_signal = signal_number;
    g_first.store(true);
    say(g_options.first_message);
    if (g_options.second == SecondSignal::EndsProgram) {
      std::signal(SIGINT, SIG_DFL);
      std::signal(SIGTERM, SIG_DFL);
    }
    return;
  }
  g_second.store(true);
  say(g_options.second_message);
  if (g_options.second == SecondSignal::ExitsNow) std::_Exit(130);
}

using Handler = void (*)(int);
Handler g_previous_interrupt = SIG_DFL;
Handler g_previous_terminate = SIG_DFL;

}  // namespace

StopSignal::StopSignal(StopSignalOptions options) {
  if (g_installed.exchange(true)) throw Error("internal: a second StopSignal while one is installed");
  g_options = options;
  g_requests = 0;
  g_first_signal = 0;
  g_first = false;
  g_second = false;
  g_previous_interrupt = std::signal(SIGINT, on_stop_signal);
  g_previous_terminate = std::signal(SIGTERM, on_stop_signal);
}

StopSignal::~StopSignal() {
  std::signal(SIGINT, g_previous_interrupt);
  std::signal(SIGTERM, g_previous_terminate);
  g_child = 0;
  g_installed = false;
}

bool StopSignal::requested() const { return g_requests.load() > 0; }
int StopSignal::requests() const { return g_requests.load(); }
int StopSignal::signal_number() const { return g_first_signal; }
const std::atomic<bool>* StopSignal::flag() const { return &g_first; }
const std::atomic<bool>* StopSignal::second_flag() const { return &g_second; }
const std::atomic<int>* StopSignal::counter() const { return &g_requests; }
void StopSignal::forward_terminate_to(pid_t child) { g_child = child; }

}  // namespace dama
