#include "hub_engine.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

#include "error.hpp"
#include "hub_protocol.hpp"

extern char** environ;

namespace dama::eval {

namespace {

constexpr std::int64_t kHandshakeTimeoutMs = 10000;

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

HubEngine::HubEngine(const HubEngineSettings& settings) : command_(settings.command) {
  std::vector<std::string> args = words_of(settings.command);
  if (args.empty()) throw Error("hub engine: empty command");
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error("hub engine '" + command_ + "': cannot create a socket pair: " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int error = ::posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  fd_ = fds[0];
  if (error != 0) {
    ::close(fd_);
    throw Error("hub engine '" + command_ + "': cannot start it: " + std::strerror(error));
  }
  try {
    send("hub");
    receive_command("wait", kHandshakeTimeoutMs);
    send("set-param name=variant value=" + hub::quote(settings.variant));
    if (!settings.forced_capture) send("set-param name=forced-capture value=false");
    if (settings.draw_rules != "default") send("set-param name=draw-rules value=" + hub::quote(settings.draw_rules));
    send("set-param name=tt-size value=" + std::to_string(settings.tt_megabytes));
    send("init");
    receive_command("ready", kHandshakeTimeoutMs);
  } catch (...) {
    shut_down();
    throw;
  }
}

HubEngine::~HubEngine() { shut_down(); }

void HubEngine::shut_down() {
  if (fd_ >= 0) {
    const std::string quit = "quit\n";
    [[maybe_unused]] const auto n = ::send(fd_, quit.data(), quit.size(), MSG_NOSIGNAL);
    ::close(fd_);
    fd_ = -1;
  }
  if (pid_ > 0) {
    // A well-behaved engine leaves at once; one that does not is killed.
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }
}

void HubEngine::new_game() {
  stop_pondering();
  send("new-game");
}

namespace {

std::string position_lines(const std::string& start, const std::vector<std::string>& moves, const std::string& level) {
  std::string history;
  for (const auto& m : moves) history += (history.empty() ? "" : " ") + m;
  return "pos pos=" + start + (history.empty() ? "" : " moves=" + hub::quote(history)) + "\nlevel " + level;
}

}  // namespace

HubReply HubEngine::best_move(const std::string& start, const std::vector<std::string>& moves,
                              const std::string& level, std::int64_t timeout_ms, const std::atomic<bool>* cancel) {
  if (!pondering_.empty()) {
    if (pondering(start, moves, level)) {
      pondering_.clear();
      // A ponder search may end by itself (the protocol lets it); its done
      // is then the answer, and a ponder-hit after it would reach an idle engine.
      if (!done_arrived()) send("ponder-hit");
      HubReply reply = await_done(timeout_ms, cancel);
      reply.pondered = true;
      return reply;
    }
    stop_pondering();
  }
  send(position_lines(start, moves, level));
  send("go think");
  return await_done(timeout_ms, cancel);
}

void HubEngine::ponder(const std::string& start, const std::vector<std::string>& moves, const std::string& level) {
  stop_pondering();
  pondering_ = position_lines(start, moves, level);
  send(pondering_);
  send("go ponder");
}

bool HubEngine::pondering(const std::string& start, const std::vector<std::string>& moves,
                          const std::string& level) const {
  return !pondering_.empty() && pondering_ == position_lines(start, moves, level);
}

void HubEngine::stop_pondering() {
  if (pondering_.empty()) return;
  pondering_.clear();
  send("stop");
  receive_command("done", kHandshakeTimeoutMs);
}

HubReply HubEngine::await_done(std::int64_t timeout_ms, const std::atomic<bool>* cancel) {
  bool cancelled = false;
  for (;;) {
    const std::string text = receive(timeout_ms, cancel, &cancelled);
    if (cancelled) {
      send("stop");
      receive_command("done", kHandshakeTimeoutMs);
      return {};
    }
    const hub::Line line = hub::parse_line(text);
    if (line.command == "error") fail("answered '" + text + "'");
    if (line.command != "done") continue;
    const auto move = line.get("move");
    if (!move || move->empty() || *move == "none") fail("gave no move ('" + text + "')");
    return {*move, line.get("ponder").value_or("")};
  }
}

bool HubEngine::done_arrived() {
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) break;
    char chunk[4096];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n <= 0) break;  // an end or an error is for receive() to report
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  for (std::size_t at = 0; at < buffer_.size();) {
    if (buffer_.compare(at, 4, "done") == 0 && (at + 4 == buffer_.size() || buffer_[at + 4] == ' ' ||
                                                 buffer_[at + 4] == '\n' || buffer_[at + 4] == '\r'))
      return true;
    const std::size_t newline = buffer_.find('\n', at);
    if (newline == std::string::npos) break;
    at = newline + 1;
  }
  return false;
}

void HubEngine::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot be written to (" + std::string(std::strerror(errno)) + ")");
    done += static_cast<std::size_t>(n);
  }
}

std::string HubEngine::receive(std::int64_t timeout_ms, const std::atomic<bool>* cancel, bool* cancelled) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (cancel && cancel->load()) {
      *cancelled = true;
      return "";
    }
    if (std::chrono::steady_clock::now() > deadline)
      fail("did not answer within " + std::to_string(timeout_ms) + " ms");
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, 50);  // short: the cancel flag is looked at in between
    if (ready < 0 && errno != EINTR) fail("cannot be read (" + std::string(std::strerror(errno)) + ")");
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n == 0) fail("ended the conversation (did it exit?)");
    if (n < 0 && errno != EINTR) fail("cannot be read (" + std::string(std::strerror(errno)) + ")");
    if (n > 0) buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string HubEngine::receive_command(const std::string& command, std::int64_t timeout_ms) {
  for (;;) {
    const std::string text = receive(timeout_ms);
    const hub::Line line = hub::parse_line(text);
    if (line.command == command) return text;
    if (line.command == "error") fail("answered '" + text + "'");
  }
}

void HubEngine::fail(const std::string& what) const { throw Error("hub engine '" + command_ + "' " + what); }

}  // namespace dama::eval
