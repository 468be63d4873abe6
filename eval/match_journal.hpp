// The durable record of a match: the PDN file of its games and a journal of
// the games finished, so that an interrupted match can be resumed without
// playing any game twice or losing one.
//
// Journal format (text, one record per line):
//   # dama match journal 1
//   identity variant russian          every setting a game's moves depend on,
//   identity a depth=2 weights=...    compared line by line on resume
//   pdn-start 0                       the PDN file's size before the first game
//   game 0 1-0 62 1480 no legal moves index, result (first player's view),
//   game 1 1/2-1/2 80 2911 80 plies...  plies, PDN size after it, reason
//   game 2 0-1 71 4310 clock=9.1,10.4,8.7,10.4 no legal moves
//                                     games under a clock: seconds used and
//                                     available, A's then B's, before the reason
//   game 3 1-0 88 5702 clock=... ponder=21,38,0,0 no legal moves
//                                     a player pondered: its ponder hits and
//                                     ponder searches, A's then B's, after the clock
//
// Games are committed in index order, so the journal always holds a prefix
// 0..k-1 of the match.  A commit appends the game to the PDN file and fsyncs
// it, then appends its journal line and fsyncs that: a crash in between
// leaves a PDN game the journal does not know, which resuming cuts off (the
// game is played again), so the PDN file only ever holds each game once, and
// only complete games.  A journal line torn by a crash is dropped likewise.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

namespace dama::eval {

// A player's clock over one game: the seconds its moves took, and the
// seconds its clock held in all (the base of every control begun, and the
// increments).
struct ClockUse {
  double used_seconds = 0;
  double budget_seconds = 0;
};

// A pondering player's ponder searches over one game, and how many of them
// the opponent's move turned into its own (ponder-hit).
struct PonderCount {
  int hits = 0;
  int searches = 0;
};

struct GameRecord {
  std::uint64_t index = 0;  // 0-based; A moves first in even games
  std::string result;       // "1-0", "0-1" or "1/2-1/2", first player's view
  int plies = 0;
  std::string reason;         // why the game ended
  std::uint64_t pdn_end = 0;  // the PDN file's size with this game in it (0: no PDN file)
  std::optional<std::array<ClockUse, 2>> clocks;  // A's, B's; games under a clock only
  std::optional<std::array<PonderCount, 2>> ponders;  // A's, B's; when a player ponders
};

inline constexpr std::string_view kLostOnTime = "lost on time";

// How a match's games pair up; either way games 2p and 2p+1 are pair p, the
// unit of the pentanomial count and the SPRT.
enum class Pairing {
  // One opening played twice, colours swapped: A moves first in the even games.
  ColoursSwapped,
  // Vigman's double game: pair p is one game on two boards -- the dark
  // squares (game 2p) and the light ones (2p+1) -- with the same player
  // moving first on both, A in the even pairs, and one clock per player
  // for both boards.  Its result is the sum of the two.
  DoubleGame,
};

// Whether A moves first in game `index`.
bool a_moves_first(std::uint64_t index, Pairing pairing);

// A's points in the game: 1, 0.5 or 0.
double score_of_a(const GameRecord& record, Pairing pairing = Pairing::ColoursSwapped);

using JournalIdentity = std::vector<std::pair<std::string, std::string>>;  // key, value (no line breaks)

class MatchJournal {
 public:
  // `journal_path` empty: no journal (nothing to resume from); `pdn_path`
  // empty: no PDN file.  With an existing journal, `resume` must be set and
  // the identity must match it; its games (at most `max_games`) become
  // finished().  Throws dama::Error saying what to do otherwise.
  MatchJournal(std::string journal_path, std::string pdn_path, const JournalIdentity& identity, bool resume,
               std::uint64_t max_games);
  ~MatchJournal();
  MatchJournal(const MatchJournal&) = delete;
  MatchJournal& operator=(const MatchJournal&) = delete;

  const std::vector<GameRecord>& finished() const { return finished_; }
  bool resumed() const { return resumed_; }                               // an existing journal was continued
  std::uint64_t pdn_bytes_dropped() const { return pdn_bytes_dropped_; }  // cut off on resume

  // Appends game `record.index` (which must be the next one) with its PDN
  // text; fills in pdn_end.
  void commit(GameRecord record, const std::string& pdn_text);

 private:
  void create(const JournalIdentity& identity);
  void load(const JournalIdentity& identity, std::uint64_t max_games);
  void reconcile_pdn(std::uint64_t expected_size);

  std::string journal_path_, pdn_path_;
  int journal_fd_ = -1, pdn_fd_ = -1;
  std::uint64_t pdn_size_ = 0;
  std::vector<GameRecord> finished_;
  bool resumed_ = false;
  std::uint64_t pdn_bytes_dropped_ = 0;
};

}  // namespace dama::eval
