// dama data info | merge | export-pdn: looking at, joining and exporting
// self-play datasets.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "commands.hpp"
#include "dataset_io.hpp"
#include "pdn/pdn.hpp"
#include "pdn_import.hpp"
#include "replay.hpp"

namespace dama::cli {

namespace {

void print_histogram(const std::string& title, const std::map<int, std::int64_t>& bins, int width) {
  std::int64_t most = 1;
  for (const auto& [bin, count] : bins) most = std::max(most, count);
  std::cout << title << "\n";
  for (const auto& [bin, count] : bins) {
    char label[32];
    std::snprintf(label, sizeof label, "  %4d-%-4d %9lld ", bin, bin + width - 1, static_cast<long long>(count));
    std::cout << label << std::string(static_cast<std::size_t>(40 * count / most), '#') << "\n";
  }
}

void info(const std::string& path) {
  const Dataset d = read_dataset(path);
  std::int64_t first = 0, draws = 0, second = 0;
  std::map<std::string, std::int64_t> reasons;
  std::map<int, std::int64_t> lengths, material;
  constexpr int kLengthBin = 20, kMaterialBin = 4;
  for (const GameRow& g : d.games) {
    (g.result > 0 ? first : g.result < 0 ? second : draws)++;
    ++reasons[g.reason];
    ++lengths[g.length / kLengthBin * kLengthBin];
  }
  for (const PositionRow& p : d.positions) {
    const int pieces = std::popcount(p.own_men | p.own_kings | p.opp_men | p.opp_kings);
    ++material[pieces / kMaterialBin * kMaterialBin];
  }
  const auto share = [&](std::int64_t n) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", d.games.empty() ? 0.0 : 100.0 * n / d.games.size());
    return std::string(text);
  };
  std::cout << path << "\n"
            << "  variant      " << d.meta.variant << " (schema " << d.meta.schema_version << ")\n"
            << "  created      " << d.meta.created << " by dama " << d.meta.engine_version << " (" << d.meta.git_commit
            << ")\n"
            << "  weights      " << d.meta.weights_source << " (" << d.meta.weights_hash << ")\n"
            << "  seed         " << d.meta.seed << "\n"
            << "  games        " << d.games.size() << "\n"
            << "  positions    " << d.positions.size() << "\n"
            << "  results      first player wins " << first << " (" << share(first) << "), draws " << draws << " ("
            << share(draws) << "), second player wins " << second << " (" << share(second) << ")\n";
  for (const auto& [reason, count] : reasons) std::cout << "    " << count << "  " << reason << "\n";
  print_histogram("  game length (plies)", lengths, kLengthBin);
  print_histogram("  pieces on the board (positions)", material, kMaterialBin);
}

void merge(const std::string& out, const std::vector<std::string>& inputs) {
  const std::uint64_t games = merge_datasets(out, inputs);
  std::cout << "wrote " << out << ": " << games << " games from " << inputs.size() << " files\n";
}

void export_pdn(const std::string& path, const std::string& out) {
  const Dataset d = read_dataset(path);
  const Variant& variant = find_variant(d.meta.variant);
  const RuleSet rules = d.meta.rules == describe(variant.rules) ? variant.rules : variant.rules.without_forced_capture();
  if (d.meta.rules != describe(rules)) throw Error(path + ": rules '" + d.meta.rules + "' are not " + std::string(variant.name) + "'s");
  const std::string temporary = out + ".tmp";
  std::ofstream pdn(temporary, std::ios::binary);
  if (!pdn) throw Error(out + ": cannot write");
  std::size_t count = 0;
  with_rules(rules, [&]<RuleSet R>() {
    for (const GameRecord& g : games_of(d)) {
      const ReplayedGame<R> game = replay<R>(g);
      PdnTags tags;
      tags.event = "dama selfplay";
      tags.site = path;
      tags.date = d.meta.created.size() >= 10 ? d.meta.created.substr(0, 4) + "." + d.meta.created.substr(5, 2) + "." +
                                                    d.meta.created.substr(8, 2)
                                              : tags.date;
      tags.round = std::to_string(g.game.game_id + 1);
      tags.white = tags.black = "dama " + d.meta.engine_version;
      tags.extra.emplace_back("Termination", g.game.reason);
      pdn << write_pdn_game<R>(variant, tags, game.start, game.moves, g.game.result_text);
      ++count;
    }
  });
  pdn.close();
  if (!pdn || std::rename(temporary.c_str(), out.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error(out + ": cannot write (disk full?)");
  }
  std::cout << "wrote " << out << ": " << count << " games\n";
}

void print_import_report(const PdnImportSettings& s, const PdnImportReport& r) {
  std::printf("%s: %llu games (%llu positions) imported of %llu read from %zu file%s\n", s.out.c_str(),
              static_cast<unsigned long long>(r.games_imported), static_cast<unsigned long long>(r.positions),
              static_cast<unsigned long long>(r.games_read), s.files.size(), s.files.size() == 1 ? "" : "s");
  if (r.games_cut > 0)
    std::printf("%llu games went on after dama's draw rules end them: kept up to that point, with their recorded result\n",
                static_cast<unsigned long long>(r.games_cut));
  if (r.games_skipped == 0) return;
  std::printf("%llu games skipped; the first reasons:\n", static_cast<unsigned long long>(r.games_skipped));
  for (const auto& reason : r.first_skip_reasons) std::printf("  %s\n", reason.c_str());
}

}  // namespace

void register_data(CLI::App& app) {
  CLI::App* data = app.add_subcommand("data", "look at, join and export self-play datasets");
  data->require_subcommand(1);

  auto info_files = std::make_shared<std::vector<std::string>>();
  CLI::App* info_cmd = data->add_subcommand("info", "counts, results, game lengths and material of datasets");
  info_cmd->add_option("files", *info_files, "dataset files (.h5)")->required();
  info_cmd->callback([info_files] {
    for (const auto& f : *info_files) info(f);
  });

  auto merge_out = std::make_shared<std::string>();
  auto merge_in = std::make_shared<std::vector<std::string>>();
  CLI::App* merge_cmd = data->add_subcommand("merge", "join datasets of one variant into one file");
  merge_cmd->add_option("-o,--out", *merge_out, "the joined file")->required();
  merge_cmd->add_option("files", *merge_in, "dataset files (.h5)")->required();
  merge_cmd->callback([merge_out, merge_in] { merge(*merge_out, *merge_in); });

  auto export_in = std::make_shared<std::string>();
  auto export_out = std::make_shared<std::string>();
  CLI::App* export_cmd = data->add_subcommand("export-pdn", "write the games of a dataset as PDN");
  export_cmd->add_option("file", *export_in, "dataset file (.h5)")->required();
  export_cmd->add_option("-o,--out", *export_out, "PDN file to write")->required();
  export_cmd->callback([export_in, export_out] { export_pdn(*export_in, *export_out); });

  auto import = std::make_shared<PdnImportSettings>();
  CLI::App* import_cmd = data->add_subcommand(
      "import-pdn", "games of a PDN collection into a dataset (positions without search scores), for the tuner");
  import_cmd->add_option("files", import->files, "PDN files")->required();
  import_cmd->add_option("-o,--out", import->out, "dataset file to write (.h5)")->required();
  import_cmd->add_option("-v,--variant", import->variant, "the games' variant (a game tagged with another GameType is skipped)")
      ->required();
  import_cmd->add_flag("--no-forced-capture", import->no_forced_capture, "house rule: capturing is not compulsory (8x8)");
  import_cmd->callback([import] { print_import_report(*import, import_pdn(*import)); });
}

}  // namespace dama::cli
