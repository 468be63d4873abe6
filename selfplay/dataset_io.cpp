#include "dataset_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <type_traits>

#include "hdf5.hpp"

namespace dama {

namespace {

// String columns are fixed-length (h5py reads them as numpy bytes, and they
// can be joined by virtual datasets); these widths hold any value dama writes.
constexpr std::size_t kMoveWidth = 8;      // "50x46"
constexpr std::size_t kFenWidth = 256;     // 40 pieces of 10x10 with kings fit in 200
constexpr std::size_t kResultWidth = 8;    // "1/2-1/2"
constexpr std::size_t kReasonWidth = 64;

// Each table's columns, listed once for writing, reading and joining.
template <class F>
void position_columns(F&& column) {
  column("own_men", &PositionRow::own_men, 0);
  column("own_kings", &PositionRow::own_kings, 0);
  column("opp_men", &PositionRow::opp_men, 0);
  column("opp_kings", &PositionRow::opp_kings, 0);
  column("side_to_move", &PositionRow::side_to_move, 0);
  column("ply", &PositionRow::ply, 0);
  column("quiet_plies", &PositionRow::quiet_plies, 0);
  column("game_id", &PositionRow::game_id, 0);
  column("score", &PositionRow::score, 0);
  column("best_move", &PositionRow::best_move, kMoveWidth);
  column("best_captured", &PositionRow::best_captured, 0);
  column("result", &PositionRow::result, 0);
}

template <class F>
void game_columns(F&& column) {
  column("game_id", &GameRow::game_id, 0);
  column("start_fen", &GameRow::start_fen, kFenWidth);
  column("opening_plies", &GameRow::opening_plies, 0);
  column("opening", &GameRow::opening, kFenWidth);
  column("result", &GameRow::result, 0);
  column("result_text", &GameRow::result_text, kResultWidth);
  column("reason", &GameRow::reason, kReasonWidth);
  column("length", &GameRow::length, 0);
  column("seed", &GameRow::seed, 0);
}

template <class F>
void move_columns(F&& column) {
  column("game_id", &MoveRow::game_id, 0);
  column("ply", &MoveRow::ply, 0);
  column("move", &MoveRow::move, kMoveWidth);
  column("captured", &MoveRow::captured, 0);
}

template <class Row, class T>
void write_member(const h5::File& f, const std::string& name, const std::vector<Row>& rows, T Row::*member,
                  std::size_t width) {
  std::vector<T> values;
  values.reserve(rows.size());
  for (const Row& r : rows) values.push_back(r.*member);
  if constexpr (std::is_same_v<T, std::string>)
    h5::write_string_column(f, name, values, width);
  else
    h5::write_column(f, name, values);
}

template <class Row, class T>
void read_member(const h5::File& f, const std::string& name, std::vector<Row>& rows, T Row::*member) {
  std::vector<T> values;
  if constexpr (std::is_same_v<T, std::string>)
    values = h5::read_string_column(f, name);
  else
    values = h5::read_column<T>(f, name);
  if (values.size() != rows.size())
    throw Error(f.path() + ": " + name + " has " + std::to_string(values.size()) + " rows, the table has " +
                std::to_string(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].*member = std::move(values[i]);
}

template <class Row, class Columns>
void write_table(const h5::File& f, const std::string& group, const std::vector<Row>& rows, Columns columns) {
  h5::create_group(f, group);
  columns([&](const char* name, auto member, std::size_t width) { write_member(f, group + "/" + name, rows, member, width); });
}

template <class Row, class Columns>
std::vector<Row> read_table(const h5::File& f, const std::string& group, const char* first_column, Columns columns) {
  std::vector<Row> rows(h5::column_length(f, group + "/" + first_column));
  columns([&](const char* name, auto member, std::size_t) { read_member(f, group + "/" + name, rows, member); });
  return rows;
}

template <class T>
h5::Handle column_type(std::size_t width) {
  if constexpr (std::is_same_v<T, std::string>) return h5::string_type(width);
  else return h5::Handle(H5Tcopy(h5::native_type<T>()), H5Tclose);
}

template <class M>
struct MemberType;
template <class C, class T>
struct MemberType<T C::*> {
  using type = T;
};

template <class Columns>
void write_virtual_table(const h5::File& f, const std::string& group, const std::vector<PartCounts>& parts,
                         std::uint64_t PartCounts::*count, Columns columns) {
  h5::create_group(f, group);
  columns([&](const char* name, auto member, std::size_t width) {
    using T = typename MemberType<decltype(member)>::type;
    std::vector<h5::VirtualSource> sources;
    for (const auto& p : parts) sources.push_back({p.path, static_cast<std::size_t>(p.*count)});
    const h5::Handle type = column_type<T>(width);
    h5::write_virtual_column(f, group + "/" + name, type, sources);
  });
}

void write_meta(const h5::File& f, const DatasetMeta& m) {
  h5::set_attribute(f, "schema_version", m.schema_version);
  h5::set_attribute(f, "variant", m.variant);
  h5::set_attribute(f, "rules", m.rules);
  h5::set_attribute(f, "engine_version", m.engine_version);
  h5::set_attribute(f, "git_commit", m.git_commit);
  h5::set_attribute(f, "weights_hash", m.weights_hash);
  h5::set_attribute(f, "weights_source", m.weights_source);
  h5::set_attribute(f, "config", m.config);
  h5::set_attribute(f, "seed", m.seed);
  h5::set_attribute(f, "created", m.created);
}

DatasetMeta read_meta(const h5::File& f) {
  DatasetMeta m;
  m.schema_version = h5::int_attribute(f, "schema_version");
  m.variant = h5::string_attribute(f, "variant");
  m.rules = h5::string_attribute(f, "rules");
  m.engine_version = h5::string_attribute(f, "engine_version");
  m.git_commit = h5::string_attribute(f, "git_commit");
  m.weights_hash = h5::string_attribute(f, "weights_hash");
  m.weights_source = h5::string_attribute(f, "weights_source");
  m.config = h5::string_attribute(f, "config");
  m.seed = h5::int_attribute(f, "seed");
  m.created = h5::string_attribute(f, "created");
  return m;
}

void fsync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw Error(path + ": cannot open to sync: " + std::strerror(errno));
  const int status = ::fsync(fd);
  ::close(fd);
  if (status != 0 && !directory) throw Error(path + ": cannot sync to disk: " + std::strerror(errno));
}

// Writes through `fill` into a temporary file next to `path`, then puts it in
// place: the old file stays whole until the new one is complete on disk.
template <class Fill>
void write_atomically(const std::string& path, Fill fill) {
  const std::string temporary = path + ".tmp";
  try {
    h5::File f = h5::File::create(temporary);
    fill(f);
    f.close();
    fsync_path(temporary, false);
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw Error(path + ": cannot move the new file into place: " + reason);
  }
  const auto directory = std::filesystem::path(path).parent_path();
  fsync_path(directory.empty() ? "." : directory.string(), true);
}

}  // namespace

void write_dataset_file(const std::string& path, const DatasetMeta& meta, const std::vector<GameRecord>& games) {
  std::vector<PositionRow> positions;
  std::vector<GameRow> game_rows;
  std::vector<MoveRow> moves;
  for (const auto& g : games) {
    game_rows.push_back(g.game);
    positions.insert(positions.end(), g.positions.begin(), g.positions.end());
    moves.insert(moves.end(), g.moves.begin(), g.moves.end());
  }
  write_atomically(path, [&](const h5::File& f) {
    write_meta(f, meta);
    write_table(f, "positions", positions, [](auto c) { position_columns(c); });
    write_table(f, "games", game_rows, [](auto c) { game_columns(c); });
    write_table(f, "moves", moves, [](auto c) { move_columns(c); });
  });
}

PartCounts count_rows(const std::string& path, const std::string& path_in_master) {
  const h5::File f = h5::File::open_read(path);
  return {path_in_master, h5::column_length(f, "positions/game_id"), h5::column_length(f, "games/game_id"),
          h5::column_length(f, "moves/game_id")};
}

void write_master_file(const std::string& path, const DatasetMeta& meta, const std::vector<PartCounts>& parts) {
  write_atomically(path, [&](const h5::File& f) {
    write_meta(f, meta);
    write_virtual_table(f, "positions", parts, &PartCounts::positions, [](auto c) { position_columns(c); });
    write_virtual_table(f, "games", parts, &PartCounts::games, [](auto c) { game_columns(c); });
    write_virtual_table(f, "moves", parts, &PartCounts::moves, [](auto c) { move_columns(c); });
  });
}

DatasetMeta read_meta(const std::string& path) { return read_meta(h5::File::open_read(path)); }

Dataset read_dataset(const std::string& path) {
  const h5::File f = h5::File::open_read(path);
  Dataset d;
  d.meta = read_meta(f);
  d.positions = read_table<PositionRow>(f, "positions", "game_id", [](auto c) { position_columns(c); });
  d.games = read_table<GameRow>(f, "games", "game_id", [](auto c) { game_columns(c); });
  d.moves = read_table<MoveRow>(f, "moves", "game_id", [](auto c) { move_columns(c); });
  return d;
}

void check_dataset(const DatasetMeta& meta, const std::string& path, const std::string& variant) {
  if (meta.schema_version != kDatasetSchemaVersion)
    throw Error(path + ": dataset schema version " + std::to_string(meta.schema_version) + ", this program reads " +
                std::to_string(kDatasetSchemaVersion));
  if (meta.variant != variant) throw Error(path + ": a " + meta.variant + " dataset, not " + variant);
}

std::vector<PositionRow> read_positions(const std::string& path, const Variant& variant) {
  const h5::File f = h5::File::open_read(path);
  check_dataset(read_meta(f), path, std::string(variant.name));
  return read_table<PositionRow>(f, "positions", "game_id", [](auto c) { position_columns(c); });
}

std::vector<GameRecord> games_of(const Dataset& data) {
  std::vector<GameRecord> games;
  std::map<std::uint64_t, std::size_t> index_of;
  for (const GameRow& g : data.games) {
    index_of[g.game_id] = games.size();
    games.push_back({g, {}, {}});
  }
  const auto game_for = [&](std::uint64_t id) -> GameRecord& {
    const auto it = index_of.find(id);
    if (it == index_of.end()) throw Error("dataset: rows of game " + std::to_string(id) + " but no such game");
    return games[it->second];
  };
  for (const PositionRow& p : data.positions) game_for(p.game_id).positions.push_back(p);
  for (const MoveRow& m : data.moves) game_for(m.game_id).moves.push_back(m);
  return games;
}

}  // namespace dama
