// dama play: a game against the engine in the terminal.  The board is drawn
// in text after every move; the player types moves in either notation, and
// anything unreadable or illegal is answered and asked again.
#include <iostream>
#include <string>

#include "commands.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "search.hpp"
#include "weights.hpp"

namespace dama::cli {

namespace {

struct PlayOptions {
  GameOptions game;
  std::string human = "first";  // first, second, white, black
  int depth = 0;
  std::int64_t movetime_ms = 1000;
  std::string weights_file;
  std::string draw_rules = "default";
};

template <class Board>
void draw(const Position<Board>& p, std::ostream& out) {
  const std::string border = "   +" + std::string(2 * Board::kWidth + 1, '-') + "+\n";
  out << border;
  for (int y = Board::kHeight - 1; y >= 0; --y) {
    out << (y + 1 < 10 ? " " : "") << y + 1 << " |";
    for (int x = 0; x < Board::kWidth; ++x) {
      char c = ' ';
      if (Board::is_dark(x, y)) {
        const auto bit = Board::square_bit(Board::square_of_xy(x, y));
        const bool king = p.kings & bit;
        c = (p.pieces[0] & bit) ? (king ? 'W' : 'w') : (p.pieces[1] & bit) ? (king ? 'B' : 'b') : '.';
      }
      out << ' ' << c;
    }
    out << " |\n";
  }
  out << border << "     ";
  for (int x = 0; x < Board::kWidth; ++x) out << Board::column_letter(x) << ' ';
  out << "\n" << (p.side == Color::White ? "White" : "Black") << " to move\n";
}

Color human_colour(const std::string& choice, Color first_player) {
  if (choice == "first") return first_player;
  if (choice == "second") return ~first_player;
  if (choice == "white") return Color::White;
  if (choice == "black") return Color::Black;
  throw Error("--human: expected first, second, white or black, got '" + choice + "'");
}

template <RuleSet R>
void play(const PlayOptions& o, const ResolvedGame& setup) {
  using Board = BoardFor<R>;
  const Color human = human_colour(o.human, R.first_player);
  const Weights weights =
      o.weights_file.empty() ? default_weights(*setup.variant) : load_weights(o.weights_file, *setup.variant);
  Searcher<R, WeightsEvaluator<R>> engine(WeightsEvaluator<R>{&weights});
  Game<R> game(position_of<R>(o.game, setup.notation),
               o.draw_rules == "tournament" ? DrawRules::Tournament : DrawRules::Default);
  SearchLimits limits;
  if (o.depth > 0) limits.depth = o.depth;
  else limits.movetime_ms = o.movetime_ms;

  std::cout << "dama: " << setup.variant->name << "; you play " << (human == Color::White ? "White" : "Black")
            << ". Type a move (e.g. " << (setup.notation == Notation::Algebraic ? "c3-d4" : "22-18")
            << "), 'moves' for the legal moves, or 'quit'.\n";
  while (!game.over()) {
    draw(game.position(), std::cout);
    MoveList<Board> legal;
    MoveGenerator<R>::generate(game.position(), legal);
    if (game.position().side != human) {
      const auto result = engine.search(game, limits);
      std::cout << "dama plays " << format_move(*result.best_move, legal, setup.notation) << " (score "
                << format_score(result.score) << ", depth " << result.depth << ")\n";
      game.play(*result.best_move);
      continue;
    }
    std::cout << "your move> " << std::flush;
    std::string text;
    if (!std::getline(std::cin, text) || text == "quit") {
      std::cout << "\ngame abandoned\n";
      return;
    }
    if (text == "moves") {
      std::cout << format_moves(legal, setup.notation) << "\n";
      continue;
    }
    try {
      game.play(parse_move<R>(game.position(), text, setup.notation));
    } catch (const Error& e) {
      std::cout << e.what() << "\n";
    }
  }
  draw(game.position(), std::cout);
  std::cout << "result " << game.result().text() << " (" << game.result().reason << ")\n";
}

}  // namespace

void register_play(CLI::App& app) {
  auto* cmd = app.add_subcommand("play", "play a game against the engine in the terminal");
  static PlayOptions options;
  add_game_options(*cmd, options.game, true);
  cmd->add_option("--human", options.human, "which side you play: first (default), second, white or black");
  cmd->add_option("--depth", options.depth, "engine search depth (default: --movetime)")->check(CLI::Range(1, 64));
  cmd->add_option("--movetime", options.movetime_ms, "engine time per move in ms")->capture_default_str();
  cmd->add_option("--weights", options.weights_file, "evaluation weights file (default: the built-in ones)");
  cmd->add_option("--draw-rules", options.draw_rules, "default or tournament (russian only)")
      ->check(CLI::IsMember({"default", "tournament"}));
  cmd->callback([] {
    const ResolvedGame setup = resolve(options.game);
    with_rules(setup.rules, [&]<RuleSet R>() { play<R>(options, setup); });
  });
}

}  // namespace dama::cli
