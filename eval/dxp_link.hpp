// DXP layer 1 over TCP (http://www.mesander.nl/damexchange/esocket.htm): a
// stream connection on which every message is followed by a '\0' byte.  The
// side that listens and the side that connects are independent of DXP's
// roles (initiator, follower); the protocol's port is 27531.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "error.hpp"

namespace dama::eval {

inline constexpr int kDxpPort = 27531;

struct Endpoint {
  std::string host;  // a name or a numeric address; for a listener, empty: every address
  int port = kDxpPort;
  std::string text() const;
};

// "HOST:PORT", "HOST" or (listen_side) "PORT" and ":PORT"; throws dama::Error naming `where`.
Endpoint parse_endpoint(std::string_view text, std::string_view where, bool listen_side);

// The other side closed the connection (an orderly end between games).
class DxpClosed : public Error {
 public:
  using Error::Error;
};

class DxpLink {
 public:
  // Connects, retrying until `timeout_ms` (the other program may still be
  // starting); throws dama::Error naming the endpoint.
  static DxpLink connect(const Endpoint& to, std::int64_t timeout_ms);
  explicit DxpLink(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}
  DxpLink(DxpLink&& other) noexcept;
  DxpLink& operator=(DxpLink&& other) noexcept;
  ~DxpLink();

  // Throws dama::Error when the other side has gone.
  void send(std::string_view message);
  // The next message, or nothing when `timeout_ms` passed or `cancel` became
  // true first; throws DxpClosed when the other side closed the connection,
  // dama::Error when it broke or sent a message longer than the protocol allows.
  std::optional<std::string> receive(std::int64_t timeout_ms, const std::atomic<bool>* cancel = nullptr);
  const std::string& peer() const { return peer_; }

 private:
  int fd_ = -1;
  std::string peer_;
  std::string buffer_;
};

class DxpListener {
 public:
  // Throws dama::Error naming the endpoint when it cannot listen there.
  explicit DxpListener(const Endpoint& at);
  ~DxpListener();
  DxpListener(const DxpListener&) = delete;
  DxpListener& operator=(const DxpListener&) = delete;

  int port() const { return port_; }  // the port bound (useful when asked for port 0)
  // The next connection, or nothing when `cancel` became true first.
  std::optional<DxpLink> accept(const std::atomic<bool>* cancel);

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace dama::eval
