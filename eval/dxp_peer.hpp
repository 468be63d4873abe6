// The other program of a DXP connection, as layer 2 describes the dialogue
// (http://www.mesander.nl/damexchange/edxplg2.htm): the initiator sends
// GAMEREQ, the follower answers GAMEACC, then MOVEs alternate strictly until
// the side to move sends GAMEEND instead of a move and the other confirms it
// with a GAMEEND.  CHAT may come at any time; it is passed on as a note.
// A BACKREQ (taking moves back, for games against people) is answered
// "not supported".
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "dxp/dxp_message.hpp"
#include "dxp_link.hpp"
#include "game.hpp"

namespace dama::eval {

class DxpPeer {
 public:
  using Notes = std::function<void(const std::string&)>;

  DxpPeer(DxpLink link, std::string our_name, Notes on_note = {});

  const std::string& address() const { return link_.peer(); }
  const std::string& name() const { return peer_name_; }  // from its GAMEREQ or GAMEACC

  // Initiator: asks for a game and waits for the answer; throws dama::Error
  // when the follower refuses (naming its reason) or does not answer.
  void request_game(const dxp::GameRequest& request, std::int64_t timeout_ms = 30000);

  // Follower: the next GAMEREQ, or nothing when the other side closed the
  // connection between games or `cancel` became true.
  std::optional<dxp::GameRequest> await_request(const std::atomic<bool>* cancel);
  void answer_request(dxp::Acceptance code);

  void send_move(const dxp::MoveMessage& move);

  // What the other side did with its turn: a move or the end of the game
  // (already confirmed with our GAMEEND).  Nothing when `cancel` became true.
  struct Turn {
    std::optional<dxp::MoveMessage> move;
    std::optional<dxp::GameEnd> end;
  };
  std::optional<Turn> await_turn(std::int64_t timeout_ms, const std::atomic<bool>* cancel);

  // Ends the game on our turn and waits (a few seconds at most) for the
  // confirmation.  A MOVE that crossed our GAMEEND is dropped.
  void end_game(dxp::EndReason reason, bool stop);

  // The other side asked to stop (a GAMEEND with stop code 1).
  bool stop_requested() const { return stop_requested_; }

 private:
  // The next message that is not a CHAT, BACKREQ or BACKACC (those are handled here).
  std::optional<dxp::Message> next(std::int64_t timeout_ms, const std::atomic<bool>* cancel);
  void send(const dxp::Message& message);

  DxpLink link_;
  std::string our_name_, peer_name_;
  Notes on_note_;
  bool stop_requested_ = false;
};

// The result of a game the other side ended with `reason` (its own view: '1'
// it loses, '3' it wins), we playing `ours`; Ongoing when it gave no reason.
// White moves first: DXP is a protocol of the international game.
Outcome outcome_of_peer_end(dxp::EndReason reason, Color ours);
// The reason to send with our GAMEEND for a game with this outcome.
dxp::EndReason end_reason_for(Outcome outcome, Color ours);

}  // namespace dama::eval
