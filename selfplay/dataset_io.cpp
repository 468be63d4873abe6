#include "dataset_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <numeric>
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
// Bashni's datasets have two columns more (docs/dataset.md): what stands
// under the top pieces, and the order kings went under a capturing tower.
constexpr std::size_t kTowersWidth = 64;  // 24 pieces, at most 12 towers of two or more: "21bw,26W,..." fits

bool holds_towers(const std::string& variant) { return has_towers(find_variant(variant).rules); }

template <class F>
void position_columns(F&& column, bool towers) {
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
  if (towers) column("towers", &PositionRow::towers, kTowersWidth);
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
void move_columns(F&& column, bool towers) {
  column("game_id", &MoveRow::game_id, 0);
  column("ply", &MoveRow::ply, 0);
  column("move", &MoveRow::move, kMoveWidth);
  column("captured", &MoveRow::captured, 0);
  if (towers) column("prisoner_kings", &MoveRow::prisoner_kings, 0);
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

// A table of `rows` rows whose columns are filled later, a range at a time
// (write_table_range): how write_joined_file copies parts without holding them all.
template <class Columns>
void create_table(const h5::File& f, const std::string& group, std::uint64_t rows, Columns columns) {
  h5::create_group(f, group);
  columns([&](const char* name, auto member, std::size_t width) {
    using T = typename MemberType<decltype(member)>::type;
    const h5::Handle type = column_type<T>(width);
    const std::size_t element_size = std::is_same_v<T, std::string> ? width : sizeof(T);
    h5::create_column(f, group + "/" + name, type, rows, element_size);
  });
}

template <class Row, class Columns>
void write_table_range(const h5::File& f, const std::string& group, const std::vector<Row>& rows, std::uint64_t first,
                       Columns columns) {
  columns([&](const char* name, auto member, std::size_t width) {
    using T = typename MemberType<decltype(member)>::type;
    const std::string column = group + "/" + name;
    std::vector<T> values;
    values.reserve(rows.size());
    for (const Row& r : rows) values.push_back(r.*member);
    if constexpr (std::is_same_v<T, std::string>) {
      const std::vector<char> packed = h5::pack_strings(f, column, values, width);
      const h5::Handle type = h5::string_type(width);
      h5::write_column_range(f, column, type, first, packed.data(), rows.size());
    } else {
      h5::write_column_range(f, column, h5::native_type<T>(), first, values.data(), rows.size());
    }
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

// ---------------------------------------------------------------------------
// Ranged reads of /positions (PositionReader)

h5::Handle open_column(const h5::File& f, const std::string& name) {
  return h5::Handle(h5::check(H5Dopen2(f.id(), name.c_str(), H5P_DEFAULT), f.path(), "no dataset '" + name + "'"),
                    H5Dclose);
}

std::uint64_t extent_of(hid_t dataset, const std::string& where) {
  h5::Handle space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_ndims(space) != 1) throw Error(where + ": not a 1-D column");
  hsize_t dims[1] = {0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  return dims[0];
}

// Elements [first, first + count) of a 1-D dataset, converted to `type`.
void read_range(hid_t dataset, hid_t type, std::uint64_t first, std::uint64_t count, void* data,
                const std::string& where) {
  if (count == 0) return;
  h5::Handle file_space(H5Dget_space(dataset), H5Sclose);
  const hsize_t start[1] = {first}, size[1] = {count};
  h5::Handle memory_space(H5Screate_simple(1, size, nullptr), H5Sclose);
  if (H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, size, nullptr) < 0 ||
      H5Dread(dataset, type, memory_space, file_space, H5P_DEFAULT, data) < 0)
    throw Error(where + ": cannot read rows " + std::to_string(first) + " to " + std::to_string(first + count - 1) +
                " (corrupt file, or a part file of a virtual dataset is missing)");
}

// The width of a fixed-length string column; throws for any other type.
std::size_t string_width(hid_t dataset, const std::string& where) {
  h5::Handle file_type(H5Dget_type(dataset), H5Tclose);
  if (H5Tget_class(file_type) != H5T_STRING || H5Tis_variable_str(file_type) > 0)
    throw Error(where + ": not a fixed-length string column");
  return H5Tget_size(file_type);
}

template <class T>
void check_column_type(hid_t dataset, const std::string& where) {
  if constexpr (std::is_same_v<T, std::string>) {
    string_width(dataset, where);
  } else {
    h5::Handle file_type(H5Dget_type(dataset), H5Tclose);
    if (H5Tget_class(file_type) != H5Tget_class(h5::native_type<T>())) throw Error(where + ": unexpected element type");
  }
}

// Rows [first, first + count) of one column into the member of `rows`, through `buffer`.
template <class T>
void read_member_range(hid_t dataset, const std::string& where, std::uint64_t first, std::uint64_t count,
                       std::vector<unsigned char>& buffer, std::vector<PositionRow>& rows, T PositionRow::*member) {
  if constexpr (std::is_same_v<T, std::string>) {
    const std::size_t width = string_width(dataset, where);
    buffer.resize(count * width);
    const h5::Handle type = h5::string_type(width);
    read_range(dataset, type, first, count, buffer.data(), where);
    for (std::uint64_t i = 0; i < count; ++i) {
      const char* begin = reinterpret_cast<const char*>(buffer.data()) + i * width;
      (rows[i].*member).assign(begin, strnlen(begin, width));
    }
  } else {
    buffer.resize(count * sizeof(T));
    read_range(dataset, h5::native_type<T>(), first, count, buffer.data(), where);
    for (std::uint64_t i = 0; i < count; ++i) std::memcpy(&(rows[i].*member), buffer.data() + i * sizeof(T), sizeof(T));
  }
}

// Rows [first, first + count) of a column are stored in chunks of `unit`
// rows counted from `first` (1: no chunks to respect).
struct StorageRun {
  std::uint64_t first = 0, count = 0, unit = 1;
};

constexpr int kMaxVirtualDepth = 4;  // a master of shards of parts is 2

std::string virtual_name(hid_t plist, std::size_t i, ssize_t (*get)(hid_t, std::size_t, char*, std::size_t)) {
  const ssize_t size = get(plist, i, nullptr, 0);
  if (size < 0) return {};
  std::string name(static_cast<std::size_t>(size) + 1, '\0');
  get(plist, i, name.data(), name.size());
  name.resize(static_cast<std::size_t>(size));
  return name;
}

// Where HDF5 finds a virtual dataset's source file: beside the file holding
// the virtual dataset, else as named (docs/dataset.md).
std::string source_path(const std::string& name, const std::string& virtual_file) {
  if (name == ".") return virtual_file;
  const std::filesystem::path path(name);
  if (path.is_absolute()) return name;
  const auto beside = std::filesystem::path(virtual_file).parent_path() / path;
  return std::filesystem::exists(beside) ? beside.string() : name;
}

void storage_runs(hid_t dataset, const std::string& file, std::uint64_t offset, int depth, std::vector<StorageRun>& out);

// The runs of mapping i of a virtual dataset, when its source is a whole
// dataset of `count` rows that can be opened; else false (the reads will
// report a missing part; the layout only guides the cuts).
bool source_runs(hid_t plist, std::size_t i, const std::string& file, std::uint64_t first, std::uint64_t count,
                 int depth, std::vector<StorageRun>& out) {
  const h5::Handle source_space(H5Pget_virtual_srcspace(plist, i), H5Sclose);
  hsize_t start[1] = {0}, end[1] = {0};
  if (source_space < 0 || H5Sget_select_bounds(source_space, start, end) < 0 || start[0] != 0 ||
      H5Sget_select_npoints(source_space) != static_cast<hssize_t>(count))
    return false;
  const std::string path = source_path(virtual_name(plist, i, H5Pget_virtual_filename), file);
  const std::string name = virtual_name(plist, i, H5Pget_virtual_dsetname);
  try {
    const h5::File source = h5::File::open_read(path);
    const h5::Handle dataset = open_column(source, name);
    if (extent_of(dataset, path + ": " + name) != count) return false;
    std::vector<StorageRun> runs;
    storage_runs(dataset, path, first, depth + 1, runs);
    out.insert(out.end(), runs.begin(), runs.end());
    return true;
  } catch (const Error&) {
    return false;
  }
}

// How a column's rows are stored, as runs from row `offset` on: one run of
// its chunks, or for a virtual dataset the runs of each source in turn.
void storage_runs(hid_t dataset, const std::string& file, std::uint64_t offset, int depth, std::vector<StorageRun>& out) {
  const std::uint64_t rows = extent_of(dataset, file);
  const h5::Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  const H5D_layout_t layout = H5Pget_layout(plist);
  if (layout == H5D_CHUNKED) {
    hsize_t chunk[1] = {1};
    H5Pget_chunk(plist, 1, chunk);
    out.push_back({offset, rows, std::max<hsize_t>(1, chunk[0])});
    return;
  }
  if (layout == H5D_VIRTUAL && depth < kMaxVirtualDepth) {
    std::size_t mappings = 0;
    H5Pget_virtual_count(plist, &mappings);
    for (std::size_t i = 0; i < mappings; ++i) {
      const h5::Handle space(H5Pget_virtual_vspace(plist, i), H5Sclose);
      hsize_t start[1] = {0}, end[1] = {0};
      if (H5Sget_select_bounds(space, start, end) < 0) continue;
      const std::uint64_t first = offset + start[0], count = end[0] - start[0] + 1;
      if (!source_runs(plist, i, file, first, count, depth, out)) out.push_back({first, count, 1});
    }
    return;
  }
  out.push_back({offset, rows, 1});
}

// The chunk length of the run holding `row` (1 if none does).
std::uint64_t unit_at(const std::vector<StorageRun>& runs, std::uint64_t row) {
  const auto after = std::upper_bound(runs.begin(), runs.end(), row,
                                      [](std::uint64_t r, const StorageRun& run) { return r < run.first; });
  if (after == runs.begin()) return 1;
  const StorageRun& run = *(after - 1);
  return row < run.first + run.count ? run.unit : 1;
}

// `target` rounded to the nearest whole number of units, or when that is
// none (target under half a unit), target itself.
std::uint64_t block_step(std::uint64_t target, std::uint64_t unit) {
  const std::uint64_t units = (target + unit / 2) / unit;
  return units > 0 ? units * unit : target;
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
    const bool towers = holds_towers(meta.variant);
    write_table(f, "positions", positions, [&](auto c) { position_columns(c, towers); });
    write_table(f, "games", game_rows, [](auto c) { game_columns(c); });
    write_table(f, "moves", moves, [&](auto c) { move_columns(c, towers); });
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
    const bool towers = holds_towers(meta.variant);
    write_virtual_table(f, "positions", parts, &PartCounts::positions, [&](auto c) { position_columns(c, towers); });
    write_virtual_table(f, "games", parts, &PartCounts::games, [](auto c) { game_columns(c); });
    write_virtual_table(f, "moves", parts, &PartCounts::moves, [&](auto c) { move_columns(c, towers); });
  });
}

namespace {

// Gives the games of `d` the ids first, first + 1, ... in their order, and
// their positions and moves the same.
void renumber_games(Dataset& d, std::uint64_t first) {
  std::unordered_map<std::uint64_t, std::uint64_t> new_id;
  for (GameRow& g : d.games) {
    new_id[g.game_id] = first;
    g.game_id = first++;
  }
  const auto id_for = [&](std::uint64_t id) {
    const auto it = new_id.find(id);
    if (it == new_id.end()) throw Error(d.meta.variant + " dataset: rows of game " + std::to_string(id) + " but no such game");
    return it->second;
  };
  for (PositionRow& p : d.positions) p.game_id = id_for(p.game_id);
  for (MoveRow& m : d.moves) m.game_id = id_for(m.game_id);
}

enum class GameIds { kKept, kRenumbered };

void join_files(const std::string& path, const DatasetMeta& meta, const std::vector<PartCounts>& parts, GameIds ids) {
  std::uint64_t positions = 0, games = 0, moves = 0;
  for (const PartCounts& p : parts) positions += p.positions, games += p.games, moves += p.moves;
  const bool towers = holds_towers(meta.variant);
  const auto position_table = [&](auto c) { position_columns(c, towers); };
  const auto game_table = [](auto c) { game_columns(c); };
  const auto move_table = [&](auto c) { move_columns(c, towers); };
  write_atomically(path, [&](const h5::File& f) {
    write_meta(f, meta);
    create_table(f, "positions", positions, position_table);
    create_table(f, "games", games, game_table);
    create_table(f, "moves", moves, move_table);
    PartCounts at;
    for (const PartCounts& p : parts) {
      Dataset part = read_dataset(p.path);
      if (part.positions.size() != p.positions || part.games.size() != p.games || part.moves.size() != p.moves)
        throw Error(p.path + ": holds " + std::to_string(part.games.size()) + " games, " +
                    std::to_string(part.positions.size()) + " positions and " + std::to_string(part.moves.size()) +
                    " moves; counted " + std::to_string(p.games) + ", " + std::to_string(p.positions) + " and " +
                    std::to_string(p.moves) + " (changed while being joined?)");
      if (ids == GameIds::kRenumbered) renumber_games(part, at.games);
      write_table_range(f, "positions", part.positions, at.positions, position_table);
      write_table_range(f, "games", part.games, at.games, game_table);
      write_table_range(f, "moves", part.moves, at.moves, move_table);
      at.positions += p.positions, at.games += p.games, at.moves += p.moves;
    }
  });
}

}  // namespace

void write_joined_file(const std::string& path, const DatasetMeta& meta, const std::vector<PartCounts>& parts) {
  join_files(path, meta, parts, GameIds::kKept);
}

std::uint64_t merge_datasets(const std::string& out, const std::vector<std::string>& inputs) {
  DatasetMeta meta;
  std::vector<PartCounts> parts;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const DatasetMeta m = read_meta(inputs[i]);
    if (i == 0) {
      meta = m;
    } else {
      check_dataset(m, inputs[i], meta.variant);
      if (m.weights_hash != meta.weights_hash) meta.weights_hash = "mixed";
      if (m.config != meta.config) meta.config = "# merged from datasets with different configs\n";
    }
    parts.push_back(count_rows(inputs[i], inputs[i]));
  }
  join_files(out, meta, parts, GameIds::kRenumbered);
  std::uint64_t games = 0;
  for (const PartCounts& p : parts) games += p.games;
  return games;
}

DatasetMeta read_meta(const std::string& path) { return read_meta(h5::File::open_read(path)); }

Dataset read_dataset(const std::string& path) {
  const h5::File f = h5::File::open_read(path);
  Dataset d;
  d.meta = read_meta(f);
  const bool towers = holds_towers(d.meta.variant);
  d.positions = read_table<PositionRow>(f, "positions", "game_id", [&](auto c) { position_columns(c, towers); });
  d.games = read_table<GameRow>(f, "games", "game_id", [](auto c) { game_columns(c); });
  d.moves = read_table<MoveRow>(f, "moves", "game_id", [&](auto c) { move_columns(c, towers); });
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
  return read_table<PositionRow>(f, "positions", "game_id", [&](auto c) { position_columns(c, has_towers(variant.rules)); });
}

struct PositionReader::Columns {
  explicit Columns(h5::File f) : file(std::move(f)) {}
  h5::File file;
  std::vector<h5::Handle> datasets;  // in position_columns order
  std::vector<std::string> names;    // "path: positions/<column>", for messages
  std::uint64_t rows = 0;
  bool towers = false;  // the variant's rows have a towers column
  mutable std::vector<unsigned char> buffer;  // one column of a range at a time
};

PositionReader::PositionReader(const std::string& path, const Variant& variant)
    : columns_(std::make_unique<Columns>(h5::File::open_read(path))) {
  Columns& c = *columns_;
  check_dataset(read_meta(c.file), path, std::string(variant.name));
  c.towers = has_towers(variant.rules);
  position_columns([&](const char* name, auto member, std::size_t) {
    using T = typename MemberType<decltype(member)>::type;
    const std::string column = std::string("positions/") + name;
    const std::string where = path + ": " + column;
    c.datasets.push_back(open_column(c.file, column));
    c.names.push_back(where);
    check_column_type<T>(c.datasets.back(), where);
    const std::uint64_t rows = extent_of(c.datasets.back(), where);
    if (c.datasets.size() == 1) c.rows = rows;
    else if (rows != c.rows)
      throw Error(where + " has " + std::to_string(rows) + " rows, the table has " + std::to_string(c.rows));
  }, c.towers);
}

PositionReader::~PositionReader() = default;
PositionReader::PositionReader(PositionReader&&) noexcept = default;
PositionReader& PositionReader::operator=(PositionReader&&) noexcept = default;

const std::string& PositionReader::path() const { return columns_->file.path(); }
std::uint64_t PositionReader::rows() const { return columns_->rows; }

void PositionReader::read(std::uint64_t first, std::uint64_t count, std::vector<PositionRow>& rows) const {
  const Columns& c = *columns_;
  if (first > c.rows || count > c.rows - first)
    throw Error(path() + ": rows " + std::to_string(first) + " to " + std::to_string(first + count) +
                " asked for, the positions have " + std::to_string(c.rows));
  rows.resize(count);
  std::size_t i = 0;
  position_columns([&](const char*, auto member, std::size_t) {
    read_member_range(c.datasets[i], c.names[i], first, count, c.buffer, rows, member);
    ++i;
  }, c.towers);
}

std::vector<RowRange> PositionReader::blocks(std::uint64_t target_rows) const {
  const Columns& c = *columns_;
  constexpr std::uint64_t kMaxUnit = std::uint64_t{1} << 22;  // odd chunk lengths must not make the lcm huge
  std::vector<std::vector<StorageRun>> runs(c.datasets.size());
  std::vector<std::uint64_t> cuts = {0, c.rows};
  for (std::size_t i = 0; i < c.datasets.size(); ++i) {
    storage_runs(c.datasets[i], path(), 0, 0, runs[i]);
    std::sort(runs[i].begin(), runs[i].end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const StorageRun& run : runs[i])
      if (run.first < c.rows) cuts.push_back(run.first);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<RowRange> blocks;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    std::uint64_t unit = 1, largest = 1;
    for (const auto& column : runs) {
      const std::uint64_t u = unit_at(column, cuts[k]);
      unit = std::lcm(unit, u);
      largest = std::max(largest, u);
    }
    const std::uint64_t step = block_step(std::max<std::uint64_t>(1, target_rows), unit > kMaxUnit ? largest : unit);
    for (std::uint64_t first = cuts[k]; first < cuts[k + 1]; first += step)
      blocks.push_back({first, std::min(step, cuts[k + 1] - first)});
  }
  return blocks;
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
