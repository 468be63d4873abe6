// replay_pdn_game: the moves of a game read through dama's move generator.
// Compiled here once for every compiled rule set (the generator is costly to
// instantiate), so that callers only link it.
#include <cctype>

#include "movegen.hpp"
#include "notation.hpp"
#include "pdn_fen.hpp"
#include "pdn_game_type.hpp"
#include "pdn_moves.hpp"
#include "pdn_reader.hpp"
#include "pdn_squares.hpp"

namespace dama {

namespace {

std::string where(std::string_view source, int line) { return std::string(source) + ":" + std::to_string(line) + ": "; }

// The square tokens of a written move: split at '-', 'x', 'X' and ':', and
// algebraic squares written without a separator ("a3b4", which PDN 3.0's
// reading grammar allows) split at their letters.
std::vector<std::string> square_tokens(std::string_view move) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    tokens.push_back(current);
    current.clear();
  };
  for (std::size_t i = 0; i < move.size(); ++i) {
    const char c = move[i];
    if (std::string_view("-xX:").find(c) != std::string_view::npos) {
      flush();
    } else if (std::isalpha(static_cast<unsigned char>(c)) && !current.empty()) {
      flush();  // "a3b4": a new square begins
      current += c;
    } else {
      current += c;
    }
  }
  flush();
  return tokens;
}

// "7" for the first player's move, "7..." for the second player's.
std::string move_label(int ply, bool starts_with_second_player) {
  const int counted = ply + (starts_with_second_player ? 1 : 0);
  return std::to_string(counted / 2 + 1) + (counted % 2 ? "..." : "");
}

template <class Board>
std::string listing(const MoveList<Board>& legal, const PdnGameType& type) {
  if (legal.empty()) return "none";
  std::string text;
  for (const auto& m : legal) text += (text.empty() ? "" : ", ") + pdn_move_text(m, legal, type);
  return text;
}

// Every intermediate square written out, for naming the moves a short form
// could mean.
template <class Board>
std::string full_path(const Move<Board>& m, const PdnGameType& type) {
  std::string text = pdn_square_name<Board>(m.from, type);
  for (int i = 0; i < m.landing_count; ++i) text += type.capture_separator + pdn_square_name<Board>(m.landings[i], type);
  return text + type.capture_separator + pdn_square_name<Board>(m.to, type);
}

std::string result_of(const PdnGameText& game, std::string_view source) {
  const PdnTag* tag = game.tag("Result");
  // PDN 3.0 asks readers to accept any string as a result: unknown ones are "*".
  const std::string from_tag = tag ? first_player_result(tag->value).value_or("*") : "*";
  const std::string from_movetext = game.terminator ? *first_player_result(game.terminator->text) : "*";
  if (from_tag != "*" && from_movetext != "*" && from_tag != from_movetext)
    throw Error(where(source, game.terminator->line) + "the Result tag '" + tag->value + "' and the result '" +
                game.terminator->text + "' ending the moves disagree");
  return from_tag != "*" ? from_tag : from_movetext;
}

}  // namespace

template <RuleSet R>
PdnGame<R> replay_pdn_game(const PdnGameText& game, const Variant& variant, std::string_view source) {
  using Board = BoardFor<R>;
  const PdnGameType& type = pdn_game_type_of(variant);
  PdnGame<R> out;
  out.start = Position<Board>::start(R.first_player);
  if (const PdnTag* fen = game.tag("FEN")) {
    try {
      out.start = parse_pdn_fen<Board>(fen->value, type);
    } catch (const Error& e) {
      throw Error(where(source, fen->line) + "FEN tag: " + e.what());
    }
  }
  out.result = result_of(game, source);

  const bool second_player_first = out.start.side != R.first_player;
  Position<Board> position = out.start;
  MoveList<Board> legal;  // for naming the legal moves when one is not
  for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
    const PdnToken& token = game.moves[ply];
    const std::string prefix = where(source, token.line) + "move " + move_label(static_cast<int>(ply), second_player_first) +
                               " '" + token.text + "': ";
    std::vector<int> squares;
    for (const std::string& name : square_tokens(token.text)) {
      const auto bit = read_pdn_square<Board>(name, type);
      if (!bit)
        throw Error(prefix + (name.empty() ? std::string("a square is missing")
                                           : "'" + name + "' is not a square of the " +
                                                 shape_name(Board::kShape) + " board"));
      squares.push_back(*bit);
    }
    if (squares.size() < 2) throw Error(prefix + "expected from-to or fromxto");
    const auto matches = moves_described<R>(position, squares);
    if (matches.empty()) {
      MoveGenerator<R>::generate(position, legal);
      throw Error(prefix + "not legal in this position (legal: " + listing(legal, type) + ")");
    }
    if (matches.size() > 1) {
      std::string candidates;
      for (const auto& m : matches) candidates += (candidates.empty() ? "" : ", ") + full_path(m, type);
      throw Error(prefix + "ambiguous: give the intermediate squares (" + candidates + ")");
    }
    out.moves.push_back(matches.front());
    position = position.after(matches.front());
  }
  return out;
}

#define DAMA_REPLAY_PDN(I)                                                                                   \
  template PdnGame<kCompiledRuleSets[I]> replay_pdn_game<kCompiledRuleSets[I]>(const PdnGameText&, const Variant&, \
                                                                               std::string_view);
static_assert(kCompiledRuleSets.size() == 16, "one instantiation below for each compiled rule set");
DAMA_REPLAY_PDN(0)
DAMA_REPLAY_PDN(1)
DAMA_REPLAY_PDN(2)
DAMA_REPLAY_PDN(3)
DAMA_REPLAY_PDN(4)
DAMA_REPLAY_PDN(5)
DAMA_REPLAY_PDN(6)
DAMA_REPLAY_PDN(7)
DAMA_REPLAY_PDN(8)
DAMA_REPLAY_PDN(9)
DAMA_REPLAY_PDN(10)
DAMA_REPLAY_PDN(11)
DAMA_REPLAY_PDN(12)
DAMA_REPLAY_PDN(13)
DAMA_REPLAY_PDN(14)
DAMA_REPLAY_PDN(15)
#undef DAMA_REPLAY_PDN

}  // namespace dama
