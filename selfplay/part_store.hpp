// Where a job's committed games live: OUT.parts/part-<first>-<end>.h5 files
// (games first..end-1, each written atomically) joined by the master file OUT.
// The directory listing is the checkpoint: whatever parts exist, contiguous
// from game 0, are the games done.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataset_io.hpp"

namespace dama {

class PartStore {
 public:
  // Opens the store of `out`.  With `resume`, existing parts (or a finished
  // OUT, which becomes part 0) are taken over after checking that they were
  // written by the same job (`meta`); stray temporary files and parts beyond
  // the first gap are removed.  Without `resume`, an existing OUT or parts
  // directory is an error.
  PartStore(std::string out, DatasetMeta meta, bool resume);

  std::uint64_t games_committed() const { return games_; }
  std::uint64_t positions_committed() const { return positions_; }

  // Writes `games` (the next ones, in order) as a new part, then the master.
  void commit(const std::vector<GameRecord>& games);

  // Joins every part into OUT as one plain file and removes the parts.
  void consolidate();

  const std::string& out() const { return out_; }
  std::string parts_dir() const { return out_ + ".parts"; }

 private:
  void take_over_existing();
  void write_master();

  std::string out_;
  DatasetMeta meta_;
  std::vector<PartCounts> parts_;  // paths relative to OUT's directory
  std::uint64_t games_ = 0, positions_ = 0;
};

// Checks that an existing file was written by the same job: the same variant
// and schema, and the same game-defining config (everything but the game
// count, threads, output and checkpoint settings).
void check_same_job(const DatasetMeta& existing, const DatasetMeta& expected, const std::string& path);

}  // namespace dama
