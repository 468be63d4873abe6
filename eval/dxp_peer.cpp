#include "dxp_peer.hpp"

#include "error.hpp"

namespace dama::eval {

namespace {

const char* refusal_text(dxp::Acceptance code) {
  switch (code) {
    case dxp::Acceptance::WrongVersion: return "it does not speak this version of the protocol";
    case dxp::Acceptance::NotThisGame: return "it will not play this game (time, moves or position)";
    case dxp::Acceptance::NoGames: return "it plays no games";
    default: return "accepted";
  }
}

}  // namespace

Outcome outcome_of_peer_end(dxp::EndReason reason, Color ours) {
  const Outcome we_win = ours == Color::White ? Outcome::FirstPlayerWins : Outcome::SecondPlayerWins;
  const Outcome we_lose = ours == Color::White ? Outcome::SecondPlayerWins : Outcome::FirstPlayerWins;
  switch (reason) {
    case dxp::EndReason::ILose: return we_win;
    case dxp::EndReason::IWin: return we_lose;
    case dxp::EndReason::Draw: return Outcome::Draw;
    default: return Outcome::Ongoing;
  }
}

dxp::EndReason end_reason_for(Outcome outcome, Color ours) {
  if (outcome == Outcome::Draw) return dxp::EndReason::Draw;
  if (outcome == Outcome::Ongoing) return dxp::EndReason::Unspecified;
  const bool white_wins = outcome == Outcome::FirstPlayerWins;
  return white_wins == (ours == Color::White) ? dxp::EndReason::IWin : dxp::EndReason::ILose;
}

DxpPeer::DxpPeer(DxpLink link, std::string our_name, Notes on_note)
    : link_(std::move(link)), our_name_(std::move(our_name)), on_note_(std::move(on_note)) {}

void DxpPeer::send(const dxp::Message& message) { link_.send(dxp::format(message)); }

std::optional<dxp::Message> DxpPeer::next(std::int64_t timeout_ms, const std::atomic<bool>* cancel) {
  while (true) {
    const auto text = link_.receive(timeout_ms, cancel);
    if (!text) return std::nullopt;
    dxp::Message message;
    try {
      message = dxp::parse(*text);
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + " (from " + address() + ")");
    }
    if (const auto* chat = std::get_if<dxp::Chat>(&message)) {
      if (on_note_) on_note_(address() + " says: " + chat->text);
    } else if (std::holds_alternative<dxp::BackRequest>(message)) {
      send(dxp::BackAccept{dxp::BackAnswer::NotSupported});
    } else if (!std::holds_alternative<dxp::BackAccept>(message)) {
      return message;
    }
  }
}

void DxpPeer::request_game(const dxp::GameRequest& request, std::int64_t timeout_ms) {
  send(request);
  while (true) {
    const auto answer = next(timeout_ms, nullptr);
    if (!answer) throw Error("DXP: " + address() + " did not answer the GAMEREQ");
    if (const auto* acc = std::get_if<dxp::GameAccept>(&*answer)) {
      peer_name_ = acc->follower_name;
      if (acc->code != dxp::Acceptance::Accepted)
        throw Error("DXP: " + address() + " (" + peer_name_ + ") refused the game: " + refusal_text(acc->code));
      return;
    }
    // A GAMEEND left over from the game before (its confirmation) is harmless here.
    if (!std::holds_alternative<dxp::GameEnd>(*answer))
      throw Error(std::string("DXP: ") + address() + " answered the GAMEREQ with a " + dxp::type_name(*answer));
  }
}

std::optional<dxp::GameRequest> DxpPeer::await_request(const std::atomic<bool>* cancel) {
  while (!stop_requested_) {
    std::optional<dxp::Message> message;
    try {
      message = next(24 * 3600 * 1000LL, cancel);
    } catch (const DxpClosed&) {
      return std::nullopt;
    }
    if (!message) return std::nullopt;
    if (auto* request = std::get_if<dxp::GameRequest>(&*message)) {
      peer_name_ = request->initiator_name;
      return std::move(*request);
    }
    if (const auto* end = std::get_if<dxp::GameEnd>(&*message)) {
      if (end->stop) {
        stop_requested_ = true;
        return std::nullopt;
      }
      continue;  // a late confirmation of the game before
    }
    if (on_note_) on_note_(std::string("ignored a ") + dxp::type_name(*message) + " from " + address() + " between games");
  }
  return std::nullopt;
}

void DxpPeer::answer_request(dxp::Acceptance code) { send(dxp::GameAccept{our_name_, code}); }

void DxpPeer::send_move(const dxp::MoveMessage& move) { send(move); }

std::optional<DxpPeer::Turn> DxpPeer::await_turn(std::int64_t timeout_ms, const std::atomic<bool>* cancel) {
  while (true) {
    const auto message = next(timeout_ms, cancel);
    if (!message) {
      if (cancel && cancel->load()) return std::nullopt;
      throw Error("DXP: " + address() + " did not move within " + std::to_string(timeout_ms / 1000) + " s");
    }
    if (const auto* move = std::get_if<dxp::MoveMessage>(&*message)) return Turn{*move, std::nullopt};
    if (const auto* end = std::get_if<dxp::GameEnd>(&*message)) {
      stop_requested_ = end->stop;
      send(dxp::GameEnd{dxp::EndReason::Unspecified, end->stop});  // the spec: it has no choice
      return Turn{std::nullopt, *end};
    }
    throw Error(std::string("DXP: ") + address() + " sent a " + dxp::type_name(*message) + " during the game");
  }
}

void DxpPeer::end_game(dxp::EndReason reason, bool stop) {
  send(dxp::GameEnd{reason, stop});
  stop_requested_ = stop_requested_ || stop;
  constexpr std::int64_t kConfirmationMs = 5000;
  while (true) {
    std::optional<dxp::Message> message;
    try {
      message = next(kConfirmationMs, nullptr);
    } catch (const Error& e) {  // it hung up instead of confirming: the game is over all the same
      if (on_note_) on_note_(e.what());
      return;
    }
    if (!message) {
      if (on_note_) on_note_("DXP: " + address() + " did not confirm the end of the game");
      return;
    }
    if (const auto* end = std::get_if<dxp::GameEnd>(&*message)) {
      stop_requested_ = stop_requested_ || end->stop;
      return;
    }
    // A MOVE that crossed our GAMEEND: the game is over all the same.
  }
}

}  // namespace dama::eval
