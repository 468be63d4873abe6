#include "compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "atomic_file.hpp"
#include "features.hpp"
#include "movegen.hpp"
#include "replay.hpp"

namespace dama {

namespace {

const char* choice_name(CaptureChoice c) {
  switch (c) {
    case CaptureChoice::Any: return "free choice";
    case CaptureChoice::KingFirst: return "king's capture first";
    case CaptureChoice::MostPieces: return "most pieces";
    case CaptureChoice::MostPiecesThenKings: return "most pieces, then most kings";
    case CaptureChoice::Italian: return "Italian precedence";
  }
  return "?";
}

// The same rules with a free choice among captures: the yardstick of how
// often the variant's choice rule removes a sequence.
constexpr RuleSet with_free_choice(RuleSet r) {
  r.choice = CaptureChoice::Any;
  return r;
}

int phase_of(int pieces, int start_pieces) {
  if (3 * pieces > 2 * start_pieces) return 0;
  if (3 * pieces > start_pieces) return 1;
  return 2;
}

template <RuleSet R>
void replay_stats(const Dataset& data, VariantStats& s) {
  using Board = BoardFor<R>;
  constexpr RuleSet kFree = with_free_choice(R);
  const int start_pieces = 2 * Board::kStartMen;
  std::array<double, kPhases> legal_sum{};
  std::int64_t captures = 0, crownings = 0;
  for (const GameRecord& g : games_of(data)) {
    const ReplayedGame<R> game = replay<R>(g);
    Position<Board> p = game.start;
    for (const auto& m : game.moves) {
      MoveList<Board> legal;
      MoveGenerator<R>::generate(p, legal);
      const int phase = phase_of(popcount(p.pieces[0] | p.pieces[1]), start_pieces);
      legal_sum[phase] += static_cast<double>(legal.size());
      ++s.phase_positions[phase];
      ++s.positions;
      if (m.is_capture()) {
        ++captures;
        ++s.capture_positions;
        if constexpr (R.choice != CaptureChoice::Any)
          if (MoveGenerator<kFree>::count(p) > legal.size()) ++s.constrained;
      }
      if (m.promotes) ++crownings;
      p = p.after(m);
    }
  }
  for (int i = 0; i < kPhases; ++i)
    s.branching[i] = s.phase_positions[i] ? legal_sum[i] / static_cast<double>(s.phase_positions[i]) : 0;
  s.captures_per_game = s.games ? static_cast<double>(captures) / static_cast<double>(s.games) : 0;
  s.crownings_per_game = s.games ? static_cast<double>(crownings) / static_cast<double>(s.games) : 0;
}

double weight_of(const Weights& w, FeatureSchema board, const std::string& name, int phase) {
  const auto& names = feature_names(board);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return 0;
  return w.values[static_cast<std::size_t>(2 * (it - names.begin()) + phase)];
}

// ---------------------------------------------------------------------------
// SVG: a grouped bar chart, drawn by hand (no plotting dependency).

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string number(double v, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

constexpr const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"};

// One group of bars per category, one bar per series within it.
std::string bar_chart(const std::string& title, const std::vector<std::string>& categories,
                      const std::vector<std::string>& series, const std::vector<std::vector<double>>& values,
                      int decimals) {
  const double width = 720, height = 320, left = 60, right = 20, top = 40, bottom = 70;
  double most = 0;
  for (const auto& row : values)
    for (double v : row) most = std::max(most, v);
  if (most <= 0) most = 1;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  const double group_w = plot_w / std::max<std::size_t>(1, categories.size());
  const double bar_w = group_w * 0.8 / std::max<std::size_t>(1, series.size());
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << escape(title)
      << "</text>\n"
      << "<line x1=\"" << left << "\" y1=\"" << top + plot_h << "\" x2=\"" << width - right << "\" y2=\""
      << top + plot_h << "\" stroke=\"black\"/>\n";
  for (std::size_t c = 0; c < categories.size(); ++c) {
    const double x0 = left + group_w * static_cast<double>(c) + group_w * 0.1;
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double v = values[k][c];
      const double h = plot_h * std::max(0.0, v) / most;
      const double x = x0 + bar_w * static_cast<double>(k);
      svg << "<rect x=\"" << x << "\" y=\"" << top + plot_h - h << "\" width=\"" << bar_w * 0.95 << "\" height=\"" << h
          << "\" fill=\"" << kColours[k % 7] << "\"><title>" << escape(series[k]) << ", " << escape(categories[c])
          << ": " << number(v, decimals) << "</title></rect>\n"
          << "<text x=\"" << x + bar_w / 2 << "\" y=\"" << top + plot_h - h - 3
          << "\" text-anchor=\"middle\" font-size=\"10\">" << number(v, decimals) << "</text>\n";
    }
    svg << "<text x=\"" << x0 + group_w * 0.4 << "\" y=\"" << top + plot_h + 16 << "\" text-anchor=\"middle\">"
        << escape(categories[c]) << "</text>\n";
  }
  if (series.size() > 1)
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double x = left + 190 * static_cast<double>(k);
      svg << "<rect x=\"" << x << "\" y=\"" << height - 22 << "\" width=\"12\" height=\"12\" fill=\"" << kColours[k % 7]
          << "\"/><text x=\"" << x + 16 << "\" y=\"" << height - 12 << "\">" << escape(series[k]) << "</text>\n";
    }
  svg << "</svg>\n";
  return svg.str();
}

struct Plot {
  std::string file, caption;
};

}  // namespace

VariantStats variant_stats(const Dataset& data, const Weights& weights) {
  VariantStats s;
  const Variant& variant = find_variant(data.meta.variant);
  const RuleSet rules = data.meta.rules == describe(variant.rules) ? variant.rules : variant.rules.without_forced_capture();
  s.variant = data.meta.variant + (rules.forced_capture ? "" : " (capture not compulsory)");
  s.choice_rule = choice_name(rules.choice);
  s.games = static_cast<std::int64_t>(data.games.size());
  std::int64_t first = 0, draws = 0, plies = 0;
  for (const GameRow& g : data.games) {
    first += g.result > 0;
    draws += g.result == 0;
    plies += g.length;
    const std::size_t bin = g.length / 20;
    if (s.length_histogram.size() <= bin) s.length_histogram.resize(bin + 1);
    ++s.length_histogram[bin];
  }
  if (s.games > 0) {
    const double n = static_cast<double>(s.games);
    s.first_player_score = (static_cast<double>(first) + 0.5 * static_cast<double>(draws)) / n;
    s.draw_rate = static_cast<double>(draws) / n;
    s.mean_length = static_cast<double>(plies) / n;
  }
  with_rules(rules, [&]<RuleSet R>() { replay_stats<R>(data, s); });
  const FeatureSchema size = feature_schema(rules);
  for (int phase = 0; phase < 2; ++phase) {
    const double man = weight_of(weights, size, "material.man", phase);
    const double king = weight_of(weights, size, "material.king", phase);
    (phase == 0 ? s.king_value_opening : s.king_value_endgame) = man != 0 ? king / man : 0;
  }
  s.weights_source = weights.source;
  return s;
}

std::string write_compare_report(const std::string& dir, const std::vector<VariantStats>& stats) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> names;
  for (const auto& s : stats) names.push_back(s.variant);
  const auto column = [&](auto field) {
    std::vector<double> v;
    for (const auto& s : stats) v.push_back(field(s));
    return v;
  };
  std::vector<Plot> plots;
  const auto plot = [&](const std::string& file, const std::string& caption, const std::string& svg) {
    write_file_atomically((std::filesystem::path(dir) / file).string(), svg);
    plots.push_back({file, caption});
  };
  plot("results.svg", "First player's score and draw rate",
       bar_chart("First player's score and draw rate (%)", names, {"first player's score", "draw rate"},
                 {column([](const VariantStats& s) { return 100 * s.first_player_score; }),
                  column([](const VariantStats& s) { return 100 * s.draw_rate; })},
                 1));
  plot("length.svg", "Mean game length",
       bar_chart("Mean game length (plies)", names, {"plies"}, {column([](const VariantStats& s) { return s.mean_length; })}, 1));
  plot("events.svg", "Captures and crownings per game",
       bar_chart("Captures and crownings per game", names, {"captures", "crownings"},
                 {column([](const VariantStats& s) { return s.captures_per_game; }),
                  column([](const VariantStats& s) { return s.crownings_per_game; })},
                 1));
  std::vector<std::vector<double>> branching(kPhases);
  for (int p = 0; p < kPhases; ++p) branching[p] = column([p](const VariantStats& s) { return s.branching[p]; });
  plot("branching.svg", "Branching factor by phase",
       bar_chart("Legal moves per position, by phase", names, {kPhaseNames[0], kPhaseNames[1], kPhaseNames[2]}, branching, 1));
  plot("choice.svg", "How often the capture-choice rule constrains the choice",
       bar_chart("Capture positions where the choice rule removed a sequence (%)", names, {"constrained"},
                 {column([](const VariantStats& s) {
                   return s.capture_positions ? 100.0 * s.constrained / s.capture_positions : 0.0;
                 })},
                 1));
  plot("king.svg", "Value of a king in men, by phase (from the weights)",
       bar_chart("Value of a king in men (weights)", names, {"opening", "endgame"},
                 {column([](const VariantStats& s) { return s.king_value_opening; }),
                  column([](const VariantStats& s) { return s.king_value_endgame; })},
                 2));

  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dama: comparing variants</title>\n"
       << "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222;font-size:14px}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
          "th:first-child,td:first-child{text-align:left}figure{margin:1.5em 0}</style>\n</head>\n"
       << "<body>\n<h1>Comparing variants</h1>\n<p>Statistics of each variant's self-play games, replayed move by "
          "move. Results are from the first player's view.</p>\n<table>\n<tr><th>variant</th><th>games</th>"
          "<th>positions</th><th>first player's score</th><th>draws</th><th>mean length</th><th>capture moves/game</th>"
          "<th>crownings/game</th><th>choice rule</th><th>constrained</th><th>king = men (opening / endgame)</th>"
          "<th>weights</th></tr>\n";
  for (const auto& s : stats) {
    html << "<tr><td>" << escape(s.variant) << "</td><td>" << s.games << "</td><td>" << s.positions << "</td><td>"
         << number(100 * s.first_player_score, 1) << "%</td><td>" << number(100 * s.draw_rate, 1) << "%</td><td>"
         << number(s.mean_length, 1) << "</td><td>" << number(s.captures_per_game, 1) << "</td><td>"
         << number(s.crownings_per_game, 2) << "</td><td>" << escape(s.choice_rule) << "</td><td>"
         << (s.capture_positions ? number(100.0 * s.constrained / s.capture_positions, 1) + "%" : "-") << "</td><td>"
         << number(s.king_value_opening, 2) << " / " << number(s.king_value_endgame, 2) << "</td><td>"
         << escape(s.weights_source) << "</td></tr>\n";
  }
  html << "</table>\n";
  for (const auto& p : plots)
    html << "<figure><img src=\"" << p.file << "\" alt=\"" << escape(p.caption) << "\"><figcaption>"
         << escape(p.caption) << "</figcaption></figure>\n";
  // Marks on <body> how many plots the browser loaded: the report's test reads them.
  html << "<script>window.addEventListener('load',function(){var i=document.images,n=0;"
          "for(var k=0;k<i.length;k++)if(i[k].complete&&i[k].naturalWidth>0)n++;"
          "document.body.setAttribute('data-plots-loaded',n);document.body.setAttribute('data-plots-total',i.length);});"
          "</script>\n</body>\n</html>\n";
  const std::string index = (std::filesystem::path(dir) / "index.html").string();
  write_file_atomically(index, html.str());
  return index;
}

}  // namespace dama
