#include "pdn_import.hpp"

#include "atomic_file.hpp"
#include "build_info.hpp"
#include "dataset_io.hpp"
#include "game_record.hpp"
#include "pdn/pdn_reader.hpp"
#include "utc_time.hpp"

namespace dama {

namespace {

Outcome outcome_of(const std::string& result) {
  if (result == "1-0") return Outcome::FirstPlayerWins;
  if (result == "0-1") return Outcome::SecondPlayerWins;
  return Outcome::Draw;
}

template <RuleSet R>
class Importer {
 public:
  Importer(const Variant& variant, PdnImportReport& report) : variant_(variant), report_(report) {}

  void read_file(const std::string& path) {
    const std::string text = read_whole_file(path);
    for (const PdnGameText& game : split_pdn_games(text, path)) {
      ++report_.games_read;
      const std::string where = path + ":" + std::to_string(game.line);
      try {
        add(game, path, where);
      } catch (const Error& e) {
        skip(e.what());
      }
    }
  }

  std::vector<GameRecord> take() { return std::move(records_); }

 private:
  void add(const PdnGameText& text, const std::string& path, const std::string& where) {
    const Variant& tagged = pdn_game_variant(text, &variant_, path);
    if (&tagged != &variant_)
      throw Error(where + ": a game of " + std::string(tagged.name) + " (its GameType), not " + std::string(variant_.name));
    const PdnGame<R> pdn = replay_pdn_game<R>(text, variant_, path);
    if (pdn.result == "*") throw Error(where + ": no result (\"*\"): nothing to learn from");
    Game<R> game(pdn.start);
    for (const auto& m : pdn.moves) {
      if (game.over()) {  // e.g. the players went on past a draw dama's rules declare
        ++report_.games_cut;
        break;
      }
      game.play(m);
    }
    const GameResult result{outcome_of(pdn.result), "imported from " + path};
    GameRecord record = game_record<R>(game, result, records_.size(), 0, RecordFilter{}, std::nullopt);
    report_.positions += record.positions.size();
    ++report_.games_imported;
    records_.push_back(std::move(record));
  }

  void skip(const std::string& reason) {
    ++report_.games_skipped;
    if (report_.first_skip_reasons.size() < PdnImportReport::kMaxReasons) report_.first_skip_reasons.push_back(reason);
  }

  const Variant& variant_;
  PdnImportReport& report_;
  std::vector<GameRecord> records_;
};

}  // namespace

PdnImportReport import_pdn(const PdnImportSettings& s) {
  const Variant& variant = find_variant(s.variant);
  RuleSet rules = rules_of(variant, s.no_forced_capture);
  if (s.files.empty()) throw Error("dama data import-pdn: no PDN file given");
  check_can_write(s.out, "--out");
  PdnImportReport report;
  std::vector<GameRecord> records = with_rules(rules, [&]<RuleSet R>() {
    Importer<R> importer(variant, report);
    for (const auto& file : s.files) importer.read_file(file);
    return importer.take();
  });
  if (records.empty())
    throw Error("dama data import-pdn: no game could be imported (" + std::to_string(report.games_read) + " read" +
                (report.first_skip_reasons.empty() ? "" : "; first: " + report.first_skip_reasons.front()) + ")");
  DatasetMeta meta;
  meta.variant = std::string(variant.name);
  meta.rules = describe(rules);
  meta.engine_version = build_version();
  meta.git_commit = build_commit();
  meta.weights_source = "none: games imported from PDN";
  meta.config = "# dama data import-pdn: positions without search scores (score = -32768), from\n";
  for (const auto& file : s.files) meta.config += "#   " + file + "\n";
  meta.created = utc_timestamp_now();
  write_dataset_file(s.out, meta, records);
  return report;
}

}  // namespace dama
