#include "dxp_link.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "dxp/dxp_message.hpp"
#include "error.hpp"

namespace dama::eval {

namespace {

using Clock = std::chrono::steady_clock;

// Polls in short slices so that a cancel flag is seen within 50 ms.
constexpr int kPollSliceMs = 50;

struct AddressList {
  addrinfo* head = nullptr;
  ~AddressList() {
    if (head) freeaddrinfo(head);
  }
};

AddressList resolve(const Endpoint& e, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  AddressList list;
  const std::string port = std::to_string(e.port);
  const int rc = getaddrinfo(e.host.empty() ? nullptr : e.host.c_str(), port.c_str(), &hints, &list.head);
  if (rc != 0) throw Error("DXP: cannot resolve " + e.text() + ": " + gai_strerror(rc));
  return list;
}

// Waits until fd is readable; false on timeout or cancel.
bool wait_readable(int fd, Clock::time_point deadline, const std::atomic<bool>* cancel) {
  while (true) {
    if (cancel && cancel->load()) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, kPollSliceMs)));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) throw Error(std::string("DXP: poll: ") + std::strerror(errno));
  }
}

}  // namespace

std::string Endpoint::text() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Endpoint parse_endpoint(std::string_view text, std::string_view where, bool listen_side) {
  const auto fail = [&](const std::string& why) -> Endpoint {
    throw Error(std::string(where) + " '" + std::string(text) + "': " + why);
  };
  Endpoint e;
  std::string_view host = text, port;
  if (!text.empty() && text.front() == '[') {  // [v6 address]:port
    const auto close = text.find(']');
    if (close == std::string_view::npos) return fail("no ']' after the IPv6 address");
    host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') return fail("expected ':PORT' after ']'");
      port = text.substr(close + 2);
    }
  } else if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  } else if (listen_side && !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
    host = {};
    port = text;
  }
  e.host = std::string(host);
  if (!port.empty() || (text.size() > 0 && text.back() == ':')) {
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
      return fail("the port must be a number from " + std::string(listen_side ? "0" : "1") + " to 65535");
    e.port = std::stoi(std::string(port));
    if (e.port > 65535 || (!listen_side && e.port == 0))
      return fail("the port must be a number from " + std::string(listen_side ? "0" : "1") + " to 65535");
  }
  if (!listen_side && e.host.empty()) return fail("expected HOST:PORT");
  return e;
}

DxpLink DxpLink::connect(const Endpoint& to, std::int64_t timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  std::string last_error = "no address";
  while (true) {
    const AddressList list = resolve(to, false);
    for (addrinfo* a = list.head; a; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        const int one = 1;  // a move is one small message: send it now
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        return DxpLink(fd, to.text());
      }
      last_error = std::strerror(errno);
      ::close(fd);
    }
    if (Clock::now() >= deadline) throw Error("DXP: cannot connect to " + to.text() + ": " + last_error);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

DxpLink::DxpLink(DxpLink&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), peer_(std::move(other.peer_)), buffer_(std::move(other.buffer_)) {}

DxpLink& DxpLink::operator=(DxpLink&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    peer_ = std::move(other.peer_);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

DxpLink::~DxpLink() {
  if (fd_ >= 0) ::close(fd_);
}

void DxpLink::send(std::string_view message) {
  std::string frame(message);
  frame += '\0';
  std::size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t n = ::send(fd_, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("DXP: the connection to " + peer_ + " is lost (" + std::strerror(errno) + ")");
    sent += static_cast<std::size_t>(n);
  }
}

std::optional<std::string> DxpLink::receive(std::int64_t timeout_ms, const std::atomic<bool>* cancel) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const auto end = buffer_.find('\0');
    if (end > dxp::kMaxMessageLength && buffer_.size() > dxp::kMaxMessageLength)
      throw Error("DXP: " + peer_ + " sent more than " + std::to_string(dxp::kMaxMessageLength) +
                  " characters without the '\\0' that ends a message");
    if (end != std::string::npos) {
      std::string message = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return message;
    }
    if (!wait_readable(fd_, deadline, cancel)) return std::nullopt;
    char chunk[512];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("DXP: the connection to " + peer_ + " is lost (" + std::strerror(errno) + ")");
    if (n == 0) throw DxpClosed("DXP: " + peer_ + " closed the connection");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

DxpListener::DxpListener(const Endpoint& at) {
  const AddressList list = resolve(at, true);
  std::string last_error = "no address";
  // Prefer an IPv6 socket that also takes IPv4, as the usual engines do, when no host was named.
  for (int pass = 0; pass < 2 && fd_ < 0; ++pass)
    for (addrinfo* a = list.head; a && fd_ < 0; a = a->ai_next) {
      if (at.host.empty() && (pass == 0) != (a->ai_family == AF_INET6)) continue;
      if (!at.host.empty() && pass == 1) break;
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      const int one = 1, zero = 0;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      if (a->ai_family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
      if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 4) == 0) {
        fd_ = fd;
        break;
      }
      last_error = std::strerror(errno);
      ::close(fd);
    }
  if (fd_ < 0) throw Error("DXP: cannot listen on " + at.text() + ": " + last_error);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                      : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

DxpListener::~DxpListener() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<DxpLink> DxpListener::accept(const std::atomic<bool>* cancel) {
  while (true) {
    if (!wait_readable(fd_, Clock::time_point::max(), cancel)) return std::nullopt;
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    const int fd = ::accept4(fd_, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      throw Error(std::string("DXP: accept: ") + std::strerror(errno));
    }
    char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "?";
    ::getnameinfo(reinterpret_cast<sockaddr*>(&peer), len, host, sizeof host, port, sizeof port,
                  NI_NUMERICHOST | NI_NUMERICSERV);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return DxpLink(fd, std::string(host) + ":" + port);
  }
}

}  // namespace dama::eval
