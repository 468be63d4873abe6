#include "reference_towers.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace dama::test {

namespace {

constexpr int kSquares = Board8::kSquares;

bool is_black(char piece) { return piece == 'b' || piece == 'B'; }
bool is_king(char piece) { return piece == 'W' || piece == 'B'; }
char crowned(char piece) { return piece == 'w' ? 'W' : piece == 'b' ? 'B' : piece; }

// The square (x, y) + k * (dx, dy), or 0 when off the board.
int along(int s, int dx, int dy, int k) {
  const int x = Board8::x_of_square(s) + k * dx, y = Board8::y_of_square(s) + k * dy;
  return Board8::on_board(x, y) ? Board8::square_of_xy(x, y) : 0;
}

struct Sequence {
  int from = 0, to = 0;
  bool by_king = false;
  bool promotes = false;
  std::vector<int> captured;  // in the order taken
};

class Generator {
 public:
  explicit Generator(const TowerBoard& b) : board_(b) {}

  std::vector<TowerBoard> successors() {
    std::vector<Sequence> captures;
    for (int s = 1; s <= kSquares; ++s) {
      if (!own(s)) continue;
      Sequence seq;
      seq.from = s;
      seq.by_king = is_king(board_.stacks[s][0]);
      origin_ = s;
      extend(s, seq.by_king, seq, captures);
      origin_ = 0;
    }
    // One move per (from, to, captured set, kings among the captured in the
    // order taken, crowning).
    std::map<std::tuple<int, int, std::vector<int>, std::vector<bool>, bool>, Sequence> unique;
    for (const Sequence& c : captures) {
      std::vector<int> set = c.captured;
      std::sort(set.begin(), set.end());
      std::vector<bool> kings;
      for (int s : c.captured) kings.push_back(is_king(board_.stacks[s][0]));
      unique.emplace(std::make_tuple(c.from, c.to, set, kings, c.promotes), c);
    }
    std::vector<TowerBoard> out;
    for (const auto& [key, c] : unique) out.push_back(play(c));
    if (out.empty()) add_steps(out);
    return out;
  }

 private:
  bool own(int s) const { return !board_.stacks[s].empty() && is_black(board_.stacks[s][0]) == (board_.side == Color::Black); }
  bool enemy(int s) const { return !board_.stacks[s].empty() && !own(s); }
  // Empty for passing and landing: the mover's own square is, jumped towers are not.
  bool open(int s) const { return board_.stacks[s].empty() || s == origin_; }
  bool jumped(int s) const { return std::find(jumped_.begin(), jumped_.end(), s) != jumped_.end(); }
  int forward() const { return board_.side == Color::White ? +1 : -1; }
  bool last_row(int s) const { return Board8::y_of_square(s) == (board_.side == Color::White ? 7 : 0); }

  struct Jump {
    int victim;
    std::vector<int> landings;
  };

  // Men capture forwards and backwards; kings fly.
  std::vector<Jump> jumps_from(int s, bool king) const {
    std::vector<Jump> jumps;
    for (int dx : {-1, +1}) {
      for (int dy : {-1, +1}) {
        int k = 1;
        if (king)
          while (along(s, dx, dy, k) && open(along(s, dx, dy, k))) ++k;
        const int victim = along(s, dx, dy, k);
        if (!victim || !enemy(victim) || jumped(victim)) continue;
        Jump jump{victim, {}};
        for (int l = k + 1; along(s, dx, dy, l) && open(along(s, dx, dy, l)); ++l) {
          jump.landings.push_back(along(s, dx, dy, l));
          if (!king) break;
        }
        if (!jump.landings.empty()) jumps.push_back(jump);
      }
    }
    return jumps;
  }

  void extend(int s, bool king, Sequence& seq, std::vector<Sequence>& out) {
    const auto jumps = jumps_from(s, king);
    if (jumps.empty()) {
      if (!seq.captured.empty()) {
        Sequence done = seq;
        done.to = s;
        done.promotes = !seq.by_king && (king || last_row(s));
        out.push_back(done);
      }
      return;
    }
    for (const Jump& jump : jumps) {
      jumped_.push_back(jump.victim);
      seq.captured.push_back(jump.victim);
      // A king lands where it can go on capturing, if there is such a square.
      std::vector<int> landings;
      for (int l : jump.landings)
        if (!jumps_from(l, king).empty()) landings.push_back(l);
      if (landings.empty()) landings = jump.landings;
      for (int l : landings) extend(l, king || last_row(l), seq, out);  // crowned on the spot, goes on as a king
      seq.captured.pop_back();
      jumped_.pop_back();
    }
  }

  TowerBoard play(const Sequence& c) const {
    TowerBoard next = board_;
    std::string tower = next.stacks[c.from];
    next.stacks[c.from].clear();
    for (int s : c.captured) {
      tower.push_back(next.stacks[s][0]);  // the top piece goes under the capturer
      next.stacks[s].erase(0, 1);
    }
    if (c.promotes) tower[0] = crowned(tower[0]);
    next.stacks[c.to] = tower;
    next.side = ~board_.side;
    return next;
  }

  void add_steps(std::vector<TowerBoard>& out) const {
    for (int s = 1; s <= kSquares; ++s) {
      if (!own(s)) continue;
      const bool king = is_king(board_.stacks[s][0]);
      for (int dx : {-1, +1}) {
        for (int dy : {-1, +1}) {
          if (!king && dy != forward()) continue;
          for (int k = 1; along(s, dx, dy, k) && board_.stacks[along(s, dx, dy, k)].empty(); ++k) {
            const int to = along(s, dx, dy, k);
            TowerBoard next = board_;
            next.stacks[to] = next.stacks[s];
            next.stacks[s].clear();
            if (last_row(to)) next.stacks[to][0] = crowned(next.stacks[to][0]);
            next.side = ~board_.side;
            out.push_back(next);
            if (!king) break;
          }
        }
      }
    }
  }

  const TowerBoard& board_;
  int origin_ = 0;
  std::vector<int> jumped_;
};

}  // namespace

std::string describe(const TowerBoard& b) {
  std::vector<std::string> towers;  // "c3:wb", in the order of their names
  for (int s = 1; s <= kSquares; ++s) {
    if (b.stacks[s].empty()) continue;
    towers.push_back({static_cast<char>('a' + Board8::x_of_square(s)), static_cast<char>('1' + Board8::y_of_square(s))});
    towers.back() += ':' + b.stacks[s];
  }
  std::sort(towers.begin(), towers.end());
  std::string out = b.side == Color::White ? "W" : "B";
  for (const auto& t : towers) out += ' ' + t;
  return out;
}

TowerBoard tower_board(const std::vector<std::pair<std::string, std::string>>& towers, Color side) {
  TowerBoard b;
  b.side = side;
  for (const auto& [name, stack] : towers) b.stacks[Board8::square_of_xy(name[0] - 'a', name[1] - '1')] = stack;
  return b;
}

TowerBoard to_tower_board(const Position<TowerBoard8>& p) {
  TowerBoard b;
  b.side = p.side;
  const auto letter = [](towers::Piece piece) {
    return piece.colour == Color::White ? (piece.king ? 'W' : 'w') : (piece.king ? 'B' : 'b');
  };
  for (int s = 1; s <= kSquares; ++s) {
    const int bit = Board8::kBitOfSquare[s];
    if (!((p.occupied() >> bit) & 1)) continue;
    b.stacks[s] += letter(p.top(bit));
    for (int i = 0; i < towers::count(p.below[bit]); ++i) b.stacks[s] += letter(towers::piece(p.below[bit], i));
  }
  return b;
}

Position<TowerBoard8> to_position(const TowerBoard& b) {
  Position<TowerBoard8> p;
  p.side = b.side;
  for (int s = 1; s <= kSquares; ++s) {
    const std::string& stack = b.stacks[s];
    if (stack.empty()) continue;
    const auto bit = Board8::square_bit(s);
    p.pieces[is_black(stack[0])] |= bit;
    if (is_king(stack[0])) p.kings |= bit;
    towers::Below below = 0;
    for (std::size_t i = 1; i < stack.size(); ++i)
      below = towers::with_bottom(below, {is_black(stack[i]) ? Color::Black : Color::White, is_king(stack[i])});
    p.below[Board8::kBitOfSquare[s]] = below;
  }
  return p;
}

std::vector<TowerBoard> reference_tower_successors(const TowerBoard& b) { return Generator(b).successors(); }

std::uint64_t reference_tower_perft(const TowerBoard& b, int depth) {
  if (depth == 0) return 1;
  const auto next = reference_tower_successors(b);
  if (depth == 1) return next.size();
  std::uint64_t nodes = 0;
  for (const TowerBoard& n : next) nodes += reference_tower_perft(n, depth - 1);
  return nodes;
}

}  // namespace dama::test
