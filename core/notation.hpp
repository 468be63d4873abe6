// Move notation.  Numeric PDN ("22-18", "22x15", every landing square
// "22x13x6" when the short form would be ambiguous) and algebraic
// ("c3-d4", "c3:e5:g3", every landing square) — both accepted on input.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "movegen.hpp"

namespace dama {

template <class Board>
std::string square_name(int bit_index, Notation notation) {
  const int square = Board::kSquareOfBit[bit_index];
  if (notation == Notation::Numeric) return std::to_string(square);
  std::string s(1, Board::column_letter(Board::x_of_square(square)));
  return s + std::to_string(Board::y_of_square(square) + 1);
}

// A square token split into its parts: a number (1..99), or a column
// letter's index from 'a' and a row number; nothing when it is neither.
// Which square it names depends on the board and its numbering.
struct SquareToken {
  bool numeric = false;
  char column = 0;  // algebraic only: the column's letter, lower case
  int number = 0;  // the square's number, or the row counted from 1
};

inline std::optional<SquareToken> split_square_token(std::string_view token) {
  if (token.empty()) return std::nullopt;
  const bool numeric = std::isdigit(static_cast<unsigned char>(token[0]));
  const std::string_view digits = numeric ? token : token.substr(1);
  if (digits.empty() || digits.size() > 2) return std::nullopt;
  int value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  const char column = numeric ? char{0} : static_cast<char>(std::tolower(static_cast<unsigned char>(token[0])));
  return SquareToken{numeric, column, value};
}

// A square written as a number (1..N) or algebraically (a1..j10); returns its
// bit index, or nothing when the token is not a dark square of this board.
template <class Board>
std::optional<int> read_square(std::string_view token) {
  const auto parts = split_square_token(token);
  if (!parts) return std::nullopt;
  if (parts->numeric) {
    if (parts->number < 1 || parts->number > Board::kSquares) return std::nullopt;
    return Board::kBitOfSquare[parts->number];
  }
  const int x = Board::column_of_letter(parts->column), y = parts->number - 1;
  if (x < 0 || !Board::on_board(x, y) || !Board::is_dark(x, y)) return std::nullopt;
  return Board::kBitOfSquare[Board::square_of_xy(x, y)];
}

// Whether the short form "fromxto" of capture m would not say which move it
// is: another move of `legal` goes from the same square to the same square.
template <class Board>
bool needs_landings(const Move<Board>& m, const MoveList<Board>& legal) {
  for (const auto& other : legal)
    if (other.from == m.from && other.to == m.to && !(&other == &m) &&
        (other.captured != m.captured || other.landing_count != m.landing_count ||
         !std::equal(other.landings.begin(), other.landings.begin() + other.landing_count, m.landings.begin())))
      return true;
  return false;
}

// Formats m; `legal` is the list it belongs to, which decides whether the
// short numeric form is ambiguous.
template <class Board>
std::string format_move(const Move<Board>& m, const MoveList<Board>& legal, Notation notation) {
  auto name = [&](int b) { return square_name<Board>(b, notation); };
  if (!m.is_capture()) return name(m.from) + "-" + name(m.to);
  const char sep = notation == Notation::Numeric ? 'x' : ':';
  const bool full = notation == Notation::Algebraic || needs_landings(m, legal);
  std::string s = name(m.from);
  if (full)
    for (int i = 0; i < m.landing_count; ++i) s += sep + name(m.landings[i]);
  return s + sep + name(m.to);
}

template <class Board>
std::string format_moves(const MoveList<Board>& legal, Notation notation, std::string_view separator = " ") {
  std::string s;
  for (const auto& m : legal) {
    if (!s.empty()) s += separator;
    s += format_move(m, legal, notation);
  }
  return s;
}

// The distinct legal moves (by identity) that the squares of a written move
// describe: from, the landing squares given, to (bit indices).  A path
// written out in full picks that path; fewer landing squares pick every path
// that visits them in that order.
template <RuleSet R>
std::vector<Move<BoardFor<R>>> moves_described(const Position<BoardFor<R>>& p, const std::vector<int>& squares) {
  using Board = BoardFor<R>;
  std::vector<Move<Board>> matches;
  if (squares.size() < 2) return matches;
  MoveList<Board> paths;
  MoveGenerator<R, Counting::Paths>::generate(p, paths);
  auto exact = [&](const Move<Board>& m) {
    if (static_cast<std::size_t>(m.landing_count) + 2 != squares.size()) return false;
    for (int i = 0; i < m.landing_count; ++i)
      if (m.landings[i] != squares[i + 1]) return false;
    return true;
  };
  auto visits_in_order = [&](const Move<Board>& m) {
    std::size_t want = 1;
    for (int i = 0; i < m.landing_count && want + 1 < squares.size(); ++i)
      if (m.landings[i] == squares[want]) ++want;
    return want + 1 == squares.size();
  };
  for (auto matcher : {+[](bool e, bool) { return e; }, +[](bool, bool v) { return v; }}) {
    for (const auto& m : paths) {
      if (m.from != squares.front() || m.to != squares.back() || !matcher(exact(m), visits_in_order(m))) continue;
      bool known = false;
      for (const auto& seen : matches) known |= seen.same_identity(m);
      if (!known) matches.push_back(m);
    }
    if (!matches.empty()) break;
  }
  return matches;
}

// Reads a move typed in either notation and finds it among the legal moves of
// p.  Landing squares given between from and to must be visited in that order.
// Throws dama::Error for unreadable, illegal or ambiguous input.
template <RuleSet R>
Move<BoardFor<R>> parse_move(const Position<BoardFor<R>>& p, std::string_view text, Notation shown = Notation::Numeric) {
  using Board = BoardFor<R>;
  std::string_view body = text;
  while (!body.empty() && std::string_view("!?*+# ").find(body.back()) != std::string_view::npos) body.remove_suffix(1);
  while (!body.empty() && body.front() == ' ') body.remove_prefix(1);

  std::vector<int> squares;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && std::string_view("-xX:").find(body[i]) == std::string_view::npos) continue;
    const std::string_view token = body.substr(start, i - start);
    const auto sq = read_square<Board>(token);
    if (!sq)
      throw Error("cannot read move '" + std::string(text) + "': '" + std::string(token) + "' is not a square of the " +
                  shape_name(Board::kShape) + " board");
    squares.push_back(*sq);
    start = i + 1;
  }
  if (squares.size() < 2) throw Error("cannot read move '" + std::string(text) + "': expected from-to or fromxto");

  const auto matches = moves_described<R>(p, squares);
  if (matches.size() == 1) return matches.front();

  MoveList<Board> legal;
  MoveGenerator<R>::generate(p, legal);
  if (matches.empty())
    throw Error("illegal move '" + std::string(text) + "' (legal: " +
                (legal.empty() ? std::string("none") : format_moves(legal, shown, ", ")) + ")");
  throw Error("ambiguous move '" + std::string(text) + "': give the landing squares (" +
              format_moves(legal, shown, ", ") + ")");
}

}  // namespace dama
