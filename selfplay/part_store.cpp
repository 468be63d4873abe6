#include "part_store.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <regex>

#include "error.hpp"
#include "selfplay.hpp"

namespace fs = std::filesystem;

namespace dama {

namespace {

std::string part_name(std::uint64_t first, std::uint64_t end) {
  char name[64];
  std::snprintf(name, sizeof name, "part-%010" PRIu64 "-%010" PRIu64 ".h5", first, end);
  return name;
}

struct PartFile {
  std::uint64_t first, end;
  fs::path path;
};

// The config with the settings that do not change the games blanked out.
std::string game_defining(const std::string& config_toml, const std::string& origin) {
  SelfplayConfig c = parse_selfplay_config(config_toml, origin);
  c.games = 0;
  c.threads = 0;
  c.out.clear();
  c.checkpoint_games = 1;
  c.checkpoint_seconds = 1;
  return to_toml(c);
}

}  // namespace

void check_same_job(const DatasetMeta& existing, const DatasetMeta& expected, const std::string& path) {
  check_dataset(existing, path, expected.variant);
  if (existing.weights_hash != expected.weights_hash)
    throw Error(path + ": written with other weights (hash " + existing.weights_hash + ", now " + expected.weights_hash +
                ")");
  if (game_defining(existing.config, path + " (stored config)") != game_defining(expected.config, "the config"))
    throw Error(path + ": written by a job with other settings (seed, openings, search, adjudication or "
                       "recording); resume it with the same config, or write to another file");
}

PartStore::PartStore(std::string out, DatasetMeta meta, bool resume) : out_(std::move(out)), meta_(std::move(meta)) {
  const bool out_exists = fs::exists(out_), parts_exist = fs::exists(parts_dir());
  if (!resume && (out_exists || parts_exist))
    throw Error(out_ + ": already exists; continue it with --resume, or choose another --out");
  if (resume) take_over_existing();
}

void PartStore::take_over_existing() {
  const fs::path dir = parts_dir();
  fs::remove(out_ + ".tmp");  // a master a crash left half-written
  if (!fs::exists(dir)) {
    if (!fs::exists(out_)) return;  // nothing yet: a fresh start
    // A finished file: it becomes the first part of a longer job.
    check_same_job(read_meta(out_), meta_, out_);
    fs::create_directory(dir);
    const PartCounts counts = count_rows(out_, "");
    const fs::path part = dir / part_name(0, counts.games);
    fs::rename(out_, part);
  }
  std::vector<PartFile> found;
  const std::regex pattern(R"(part-(\d{10})-(\d{10})\.h5)");
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, m, pattern))
      found.push_back({std::stoull(m[1]), std::stoull(m[2]), entry.path()});
    else
      fs::remove(entry.path());  // a temporary file a crash left behind
  }
  std::sort(found.begin(), found.end(), [](const PartFile& a, const PartFile& b) { return a.first < b.first; });
  for (const PartFile& p : found) {
    if (p.first != games_) {  // beyond a gap (cannot happen with one writer): replayed
      fs::remove(p.path);
      continue;
    }
    check_same_job(read_meta(p.path.string()), meta_, p.path.string());
    const fs::path relative = fs::path(parts_dir()).filename() / p.path.filename();
    PartCounts counts = count_rows(p.path.string(), relative.string());
    if (counts.games != p.end - p.first) throw Error(p.path.string() + ": holds " + std::to_string(counts.games) +
                                                     " games, its name says " + std::to_string(p.end - p.first));
    parts_.push_back(counts);
    games_ = p.end;
    positions_ += counts.positions;
  }
  write_master();
}

void PartStore::commit(const std::vector<GameRecord>& games) {
  if (games.empty()) return;
  std::error_code error;
  fs::create_directory(parts_dir(), error);
  if (error) throw Error(parts_dir() + ": cannot create the directory for the job's parts: " + error.message());
  const std::uint64_t end = games_ + games.size();
  const std::string name = part_name(games_, end);
  const fs::path path = fs::path(parts_dir()) / name;
  write_dataset_file(path.string(), meta_, games);
  const fs::path relative = fs::path(parts_dir()).filename() / name;
  const PartCounts counts = count_rows(path.string(), relative.string());
  parts_.push_back(counts);
  games_ = end;
  positions_ += counts.positions;
  write_master();
}

void PartStore::write_master() {
  if (parts_.empty()) return;
  write_master_file(out_, meta_, parts_);
}

void PartStore::consolidate() {
  if (parts_.empty()) {  // no game at all: still a valid, empty dataset
    write_dataset_file(out_, meta_, {});
    return;
  }
  // Part by part, not read whole: a night's job holds tens of millions of
  // positions, and reading them at once took 17.6 GB for 300 000 games.
  std::vector<PartCounts> files = parts_;
  const fs::path directory = fs::path(out_).parent_path();
  for (PartCounts& p : files) p.path = (directory / p.path).string();
  write_joined_file(out_, meta_, files);
  fs::remove_all(parts_dir());
  parts_.clear();
}

}  // namespace dama
