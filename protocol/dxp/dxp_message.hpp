// The DamExchange protocol (DXP), layer 2: the messages two draughts programs
// exchange over a connection, as text.  Pure functions; the socket is
// eval/dxp_link.hpp, the conversation eval/dxp_conversation.hpp.
//
// Source: the protocol's description by its authors, http://www.mesander.nl/damexchange/
// (edxplg2.htm, egamereq.htm, egameacc.htm, emove.htm, egameend.htm,
// echat.htm, backreq.htm; docs/dxp.md has the details and what other
// programs do).  A message is 1 to 127 ASCII characters; its first character
// is its type:
//
//   R  GAMEREQ  R01<initiator name, 32><follower colour W|Z><minutes, 3><moves, 3>A
//               ... or ...B<colour to move W|Z><50 squares>
//   A  GAMEACC  A<follower name, 32><code 0|1|2|3>
//   M  MOVE     M<seconds, 4><from, 2><to, 2><captured n, 2><n squares, 2 each>
//   E  GAMEEND  E<reason 0|1|2|3><stop code 0|1>
//   C  CHAT     C<text, 1 to 126>
//   B  BACKREQ  B<move number, 3><colour to move W|Z>
//   K  BACKACC  K<code 0|1|2>
//
// Squares are the international board's numbers, 1 to 50 (black's men start
// on 1-20).  Colours are 'W' (white) and 'Z' (zwart, black).
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "board.hpp"

namespace dama::dxp {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kNameWidth = 32;
inline constexpr std::size_t kMaxMessageLength = 127;
inline constexpr int kSquares = 50;  // DXP is a 10x10 protocol

struct GameRequest {
  std::string initiator_name;
  Color follower_color = Color::Black;
  int minutes = 0;  // each player's thinking time for the game
  int moves = 0;    // moves of the game; 0: no limit
  // Empty: the usual start, white to move.  Otherwise 50 characters, squares
  // 1..50: 'e' empty, 'w' / 'z' white / black man, 'W' / 'Z' white / black king.
  std::string squares;
  Color to_move = Color::White;
  int version = kProtocolVersion;
};

enum class Acceptance : char { Accepted = '0', WrongVersion = '1', NotThisGame = '2', NoGames = '3' };

struct GameAccept {
  std::string follower_name;
  Acceptance code = Acceptance::Accepted;
};

struct MoveMessage {
  int seconds = 0;  // the time the move took; information only
  int from = 0, to = 0;
  std::vector<int> captured;  // in any order
};

// Why the sender ends the game, from its own side (information only).
enum class EndReason : char { Unspecified = '0', ILose = '1', Draw = '2', IWin = '3' };

struct GameEnd {
  EndReason reason = EndReason::Unspecified;
  bool stop = false;  // stop code '1': no further game on this connection
};

struct Chat {
  std::string text;
};

struct BackRequest {
  int move_number = 1;
  Color to_move = Color::White;
};

enum class BackAnswer : char { Accepted = '0', NotSupported = '1', Declined = '2' };

struct BackAccept {
  BackAnswer code = BackAnswer::NotSupported;
};

using Message = std::variant<GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept>;

// Throws dama::Error naming the message type and the field at fault.
Message parse(std::string_view text);
// Throws dama::Error for a field that does not fit its width.
std::string format(const Message& message);

// A name padded (or cut) to the 32 characters of GAMEREQ and GAMEACC.
std::string padded_name(std::string_view name);
// The message's type for logs and errors: "GAMEREQ", "MOVE", ...
const char* type_name(const Message& message);

}  // namespace dama::dxp
