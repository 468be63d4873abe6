// Game collections into the dataset: `dama data import-pdn`.  Games written
// in PDN (by people or other programs, any GameType dama reads) are replayed
// through dama's move generator and stored in the self-play schema
// (selfplay/dataset.hpp), so the tuner can fit on them, alone or merged with
// self-play data, and `dama compare` can read them.
//
// Imported positions have no search score (PositionRow::score is
// kNoSearchScore; the tuner fits them to the game result alone) and their
// best_move is the move played.  A game that cannot be used -- another
// variant's GameType, a move dama cannot replay, no result -- is skipped and
// counted, with the first reasons kept; the file is written whole at the end,
// atomically, or not at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dama {

struct PdnImportSettings {
  std::vector<std::string> files;
  std::string out;
  std::string variant;
  bool no_forced_capture = false;  // house rule, 8x8
};

struct PdnImportReport {
  std::uint64_t games_read = 0, games_imported = 0, positions = 0;
  std::uint64_t games_skipped = 0;
  std::uint64_t games_cut = 0;  // played on after dama's rules end them: kept up to that point
  std::vector<std::string> first_skip_reasons;  // at most kMaxReasons
  static constexpr std::size_t kMaxReasons = 5;
};

// Throws dama::Error (one line) for an unreadable input, an unwritable output,
// settings that name no variant dama plays, or when no game can be imported.
PdnImportReport import_pdn(const PdnImportSettings& settings);

}  // namespace dama
