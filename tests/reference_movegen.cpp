// A second, independent move generator written straight from RULES.md: square
// coordinates, a plain depth-first search of capture sequences, and the
// choice rules applied to the finished list.  Slow and simple, for
// cross-checking MoveGenerator on random positions (movegen_test.cpp).
#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "test_support.hpp"

namespace dama::test {

namespace {

enum class Piece { None, OwnMan, OwnKing, EnemyMan, EnemyKing };

struct Sequence {
  int from = 0, to = 0;
  std::vector<int> landings, captured;
  bool promotes = false;
  bool by_king = false;     // the moving piece was a king when the move began
  int kings_taken = 0;
  unsigned king_order = 0;  // bit (15 - i) set when the i-th piece taken is a king
};

template <class Board>
class Reference {
 public:
  Reference(const RuleSet& rules, const Position<Board>& p) : rules_(rules), side_(p.side) {
    for (int s = 1; s <= Board::kSquares; ++s) {
      const auto bit = Board::square_bit(s);
      const bool king = p.kings & bit;
      if (p.of(side_) & bit) at(s) = king ? Piece::OwnKing : Piece::OwnMan;
      if (p.of(~side_) & bit) at(s) = king ? Piece::EnemyKing : Piece::EnemyMan;
    }
  }

  std::vector<PlainMove> moves() {
    std::vector<Sequence> captures;
    for (int s = 1; s <= Board::kSquares; ++s) {
      if (at(s) != Piece::OwnMan && at(s) != Piece::OwnKing) continue;
      Sequence seq;
      seq.from = s;
      seq.by_king = at(s) == Piece::OwnKing;
      const Piece mover = at(s);
      at(s) = Piece::None;  // the piece has left its square: it may pass or end there
      extend(s, seq.by_king, seq, captures);
      at(s) = mover;
    }
    choose(captures);
    std::vector<PlainMove> out;
    for (const Sequence& c : captures) {
      PlainMove m;
      m.from = c.from;
      m.to = c.to;
      m.landings = c.landings;
      m.captured = c.captured;
      std::sort(m.captured.begin(), m.captured.end());
      m.promotes = c.promotes;
      out.push_back(m);
    }
    if (out.empty() || !rules_.forced_capture) add_steps(out);
    return out;
  }

 private:
  Piece& at(int s) { return board_[s]; }
  bool enemy(int s) const { return board_[s] == Piece::EnemyMan || board_[s] == Piece::EnemyKing; }
  bool taken(int s) const { return std::find(taken_.begin(), taken_.end(), s) != taken_.end(); }
  // Empty for passing and landing: captured pieces block until the move ends,
  // unless they leave at once.
  bool open(int s) const {
    if (board_[s] == Piece::None) return true;
    return rules_.removal == Removal::AtOnce && taken(s);
  }
  bool takeable(int s, bool by_king) const {
    if (!enemy(s) || taken(s)) return false;
    return by_king || rules_.men_capture_kings || board_[s] != Piece::EnemyKing;
  }
  int forward() const { return side_ == Color::White ? +1 : -1; }
  bool last_row(int s) const { return Board::y_of_square(s) == (side_ == Color::White ? Board::kHeight - 1 : 0); }

  // The square (x, y) + k * (dx, dy), or 0 when off the board.
  static int along(int s, int dx, int dy, int k) {
    const int x = Board::x_of_square(s) + k * dx, y = Board::y_of_square(s) + k * dy;
    return Board::on_board(x, y) ? Board::square_of_xy(x, y) : 0;
  }

  struct Jump {
    int victim;
    std::vector<int> landings;
  };

  std::vector<Jump> jumps_from(int s, bool king) const {
    std::vector<Jump> jumps;
    for (int dx : {-1, +1}) {
      for (int dy : {-1, +1}) {
        if (!king && !rules_.men_capture_backwards && dy != forward()) continue;
        int k = 1;
        if (king && rules_.flying_kings)
          while (along(s, dx, dy, k) && open(along(s, dx, dy, k))) ++k;
        const int victim = along(s, dx, dy, k);
        if (!victim || !takeable(victim, king)) continue;
        Jump jump{victim, {}};
        for (int l = k + 1; along(s, dx, dy, l) && open(along(s, dx, dy, l)); ++l) {
          jump.landings.push_back(along(s, dx, dy, l));
          if (!(king && rules_.flying_kings)) break;
        }
        if (!jump.landings.empty()) jumps.push_back(jump);
      }
    }
    return jumps;
  }

  void extend(int s, bool king, Sequence& seq, std::vector<Sequence>& out) {
    const auto jumps = jumps_from(s, king);
    if (jumps.empty()) {
      if (!seq.captured.empty()) finish(s, king, seq, out);
      return;
    }
    for (const Jump& jump : jumps) {
      taken_.push_back(jump.victim);
      std::vector<int> landings = jump.landings;
      // A capture is completed: where some landing square lets the piece go
      // on capturing, it must land on one of those.
      std::vector<int> continuing;
      for (int l : landings)
        if (!jumps_from(l, king).empty()) continuing.push_back(l);
      if (!continuing.empty()) landings = continuing;
      const bool king_taken = board_[jump.victim] == Piece::EnemyKing;
      const int index = static_cast<int>(seq.captured.size());
      seq.captured.push_back(jump.victim);
      if (king_taken) {
        ++seq.kings_taken;
        seq.king_order |= 0x8000u >> index;
      }
      for (int l : landings) {
        if (!king && last_row(l) && rules_.crowning == CrowningInCapture::EndsMove) {
          finish(l, true, seq, out);
          continue;
        }
        // Crowned on the spot (russian), or still a man until the move ends.
        const bool now_king = king || (last_row(l) && rules_.crowning == CrowningInCapture::ContinueAsKing);
        seq.landings.push_back(l);
        extend(l, now_king, seq, out);
        seq.landings.pop_back();
      }
      seq.captured.pop_back();
      if (king_taken) {
        --seq.kings_taken;
        seq.king_order &= ~(0x8000u >> index);
      }
      taken_.pop_back();
    }
  }

  // A complete sequence ending on s, where the piece is a king or not; the
  // last landing square recorded, if any, is s itself.
  void finish(int s, bool king, const Sequence& seq, std::vector<Sequence>& out) {
    Sequence done = seq;
    done.to = s;
    if (!done.landings.empty() && done.landings.back() == s) done.landings.pop_back();
    done.promotes = !seq.by_king && (king || last_row(s));
    out.push_back(done);
  }

  // The choice rules of RULES.md, on the complete sequences.
  void choose(std::vector<Sequence>& captures) const {
    auto keep_best = [&](auto rank) {
      if (captures.empty()) return;
      auto best = rank(captures.front());
      for (const auto& c : captures) best = std::max(best, rank(c));
      std::erase_if(captures, [&](const Sequence& c) { return rank(c) != best; });
    };
    auto size = [](const Sequence& c) { return c.captured.size(); };
    switch (rules_.choice) {
      case CaptureChoice::Any:
        break;
      case CaptureChoice::KingFirst:
        if (std::any_of(captures.begin(), captures.end(), [](const Sequence& c) { return c.by_king; }))
          std::erase_if(captures, [](const Sequence& c) { return !c.by_king; });
        break;
      case CaptureChoice::MostPieces:
        keep_best(size);
        break;
      case CaptureChoice::MostPiecesThenKings:
        keep_best([&](const Sequence& c) { return std::make_tuple(size(c), c.kings_taken); });
        break;
      case CaptureChoice::Italian:
        keep_best([&](const Sequence& c) { return std::make_tuple(size(c), c.by_king, c.kings_taken, c.king_order); });
        break;
    }
    // One entry per identity (from, to, captured set, crowning).
    std::map<std::tuple<int, int, std::vector<int>, bool>, Sequence> unique;
    for (const auto& c : captures) {
      auto key = c.captured;
      std::sort(key.begin(), key.end());
      unique.emplace(std::make_tuple(c.from, c.to, key, c.promotes), c);
    }
    captures.clear();
    for (auto& [key, c] : unique) captures.push_back(c);
  }

  void add_steps(std::vector<PlainMove>& out) {
    for (int s = 1; s <= Board::kSquares; ++s) {
      if (at(s) != Piece::OwnMan && at(s) != Piece::OwnKing) continue;
      const bool king = at(s) == Piece::OwnKing;
      for (int dx : {-1, +1}) {
        for (int dy : {-1, +1}) {
          if (!king && dy != forward()) continue;
          for (int k = 1; along(s, dx, dy, k) && at(along(s, dx, dy, k)) == Piece::None; ++k) {
            PlainMove m;
            m.from = s;
            m.to = along(s, dx, dy, k);
            m.promotes = !king && last_row(m.to);
            out.push_back(m);
            if (!king || !rules_.flying_kings) break;
          }
        }
      }
    }
  }

  RuleSet rules_;
  Color side_;
  std::array<Piece, Board::kSquares + 1> board_{};
  std::vector<int> taken_;
};

}  // namespace

template <class Board>
std::vector<PlainMove> reference_moves(const RuleSet& rules, const Position<Board>& p) {
  return Reference<Board>(rules, p).moves();
}

namespace {

// The position after m: the mover leaves `from` for `to` (a king if it was one
// or m crowns it), the captured pieces go, the other side is to move.
template <class Board>
Position<Board> after_plain(const Position<Board>& p, const PlainMove& m) {
  Position<Board> q = p;
  const auto from = Board::square_bit(m.from), to = Board::square_bit(m.to);
  const int us = index(p.side), them = 1 - us;
  const bool king = (p.kings & from) || m.promotes;
  q.pieces[us] = (q.pieces[us] & ~from) | to;
  q.kings &= ~from;
  if (king) q.kings |= to;
  for (const int s : m.captured) {
    q.pieces[them] &= ~Board::square_bit(s);
    q.kings &= ~Board::square_bit(s);
  }
  q.side = ~p.side;
  return q;
}

}  // namespace

template <class Board>
std::uint64_t reference_perft(const RuleSet& rules, const Position<Board>& p, int depth) {
  if (depth == 0) return 1;
  const auto moves = reference_moves(rules, p);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (const PlainMove& m : moves) nodes += reference_perft(rules, after_plain(p, m), depth - 1);
  return nodes;
}

template std::vector<PlainMove> reference_moves<Board8>(const RuleSet&, const Position<Board8>&);
template std::vector<PlainMove> reference_moves<Board10>(const RuleSet&, const Position<Board10>&);
template std::vector<PlainMove> reference_moves<Board10x8>(const RuleSet&, const Position<Board10x8>&);
template std::uint64_t reference_perft<Board8>(const RuleSet&, const Position<Board8>&, int);
template std::uint64_t reference_perft<Board10>(const RuleSet&, const Position<Board10>&, int);
template std::uint64_t reference_perft<Board10x8>(const RuleSet&, const Position<Board10x8>&, int);

}  // namespace dama::test
