// Reading and writing position datasets in HDF5 (layout: selfplay/dataset.hpp
// and docs/dataset.md).
//
// Files are only ever written whole, under a temporary name that is renamed
// into place after an fsync, so a crash leaves the previous file or the new
// one, never half of one.  A job's data grows as "part" files, each holding a
// run of whole games; a small master file joins them with HDF5 virtual
// datasets, and readers see one dataset either way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "variant.hpp"

namespace dama {

// The file attributes.
struct DatasetMeta {
  std::int64_t schema_version = kDatasetSchemaVersion;
  std::string variant;          // e.g. "russian"
  std::string rules;            // the rule switches, as `dama variants` prints them
  std::string engine_version;
  std::string git_commit;
  std::string weights_hash;
  std::string weights_source;
  std::string config;           // the full effective config, TOML
  std::int64_t seed = 0;
  std::string created;          // ISO 8601 UTC
};

struct Dataset {
  DatasetMeta meta;
  std::vector<PositionRow> positions;
  std::vector<GameRow> games;
  std::vector<MoveRow> moves;
};

// Writes `games` (in order) as one plain file at `path`, atomically.
void write_dataset_file(const std::string& path, const DatasetMeta& meta, const std::vector<GameRecord>& games);

// One part of a joined dataset: a file and how many rows of each table it holds.
struct PartCounts {
  std::string path;  // as the master will refer to it (relative to the master's directory, or absolute)
  std::uint64_t positions = 0, games = 0, moves = 0;
};
PartCounts count_rows(const std::string& path, const std::string& path_in_master);

// Writes a master file at `path` that joins `parts` with virtual datasets, atomically.
void write_master_file(const std::string& path, const DatasetMeta& meta, const std::vector<PartCounts>& parts);

// Writes the rows of `parts` (paths as this process opens them), one part after
// another, as one plain file at `path`, atomically.  One part is in memory at
// a time, so a job of any size is joined in the memory of its largest part.
void write_joined_file(const std::string& path, const DatasetMeta& meta, const std::vector<PartCounts>& parts);

// Joins whole datasets of one variant (plain or master files) into one plain
// file at `out`, atomically, one input in memory at a time, the games
// renumbered 0, 1, ... in input order; returns how many.  The metadata are
// the first input's, with "mixed" weights and a note for a config that differ.
std::uint64_t merge_datasets(const std::string& out, const std::vector<std::string>& inputs);

DatasetMeta read_meta(const std::string& path);

// Everything in the file (virtual datasets followed to their parts).
Dataset read_dataset(const std::string& path);

// The positions only, refusing a file of another variant or schema version.
std::vector<PositionRow> read_positions(const std::string& path, const Variant& variant);

// Consecutive rows of a table: [first, first + count).
struct RowRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

// The positions of one file read a range of rows at a time (HDF5 hyperslabs),
// for a reader that cannot hold them all: the tuner streaming its data.  The
// columns stay open between reads, and through a master file, its parts.
class PositionReader {
 public:
  // Refuses a file of another variant or schema version, as read_positions does.
  PositionReader(const std::string& path, const Variant& variant);
  ~PositionReader();
  PositionReader(PositionReader&&) noexcept;
  PositionReader& operator=(PositionReader&&) noexcept;

  const std::string& path() const;
  std::uint64_t rows() const;  // the extent of the columns: no data is read

  // Rows [first, first + count) into `rows` (resized to count).
  void read(std::uint64_t first, std::uint64_t count, std::vector<PositionRow>& rows) const;

  // Ranges covering every row, in order, cut where the storage allows a
  // clean cut: at whole chunks of every column (counted from where the
  // column's storage begins), and in a master file never across two parts
  // (followed into each part for its chunks).  So a pass reading the ranges
  // decompresses each chunk once.  A range is the whole number of chunks
  // nearest `target_rows`, or, when that is none, target_rows rows (a chunk
  // is then read in several ranges); it is shorter at the end of a part.
  std::vector<RowRange> blocks(std::uint64_t target_rows) const;

 private:
  struct Columns;
  std::unique_ptr<Columns> columns_;
};

// Throws dama::Error naming `path` when `meta` is not a dataset of `variant`
// at the schema version this program writes.
void check_dataset(const DatasetMeta& meta, const std::string& path, const std::string& variant);

// Regroups the rows of a dataset into games, in game order; positions and
// moves are matched to their game by game_id.
std::vector<GameRecord> games_of(const Dataset& data);

}  // namespace dama
