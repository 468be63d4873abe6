// One slice of an endgame table on disk (docs/endgame-tables.md has the
// layout byte by byte); all integers little-endian:
//
//   "DAMAEGTB"        8 bytes, the format's magic
//   version           uint32, 1
//   header size H     uint32
//   header            H bytes of JSON: format, version, variant, rules (the
//                     rule set in words), material, positions, encoding,
//                     counts of wins, draws and losses, build metadata
//   values            ceil(positions / 4) bytes: 2 bits a position, the
//                     lowest bits first: 0 no position (a hole of the
//                     index), 1 win, 2 loss, 3 draw, for the side to move
//   distances         positions bytes: for a win or a loss, the plies to a
//                     capture, a crowning or the end of the game under best
//                     play (255: that many or more); 0 for draws and holes
//   checksum          uint64, FNV-1a of every byte before it
//
// The loader refuses a file for other rules or another slice, a truncated
// or corrupt one, with one line naming the file and the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "material.hpp"

namespace dama::egtb {

inline constexpr std::string_view kTableFileMagic = "DAMAEGTB";

struct WdlCounts {
  std::uint64_t wins = 0, draws = 0, losses = 0;
  std::uint64_t total() const { return wins + draws + losses; }
};

// 2-bit values, four to a byte.
class PackedValues {
 public:
  PackedValues() = default;
  explicit PackedValues(std::uint64_t positions) : positions_(positions), bytes_((positions + 3) / 4, 0) {}
  PackedValues(std::uint64_t positions, std::vector<std::uint8_t> bytes) : positions_(positions), bytes_(std::move(bytes)) {}

  std::uint64_t positions() const { return positions_; }
  Wdl get(std::uint64_t i) const { return Wdl((bytes_[i >> 2] >> (2 * (i & 3))) & 3); }
  void set(std::uint64_t i, Wdl v) {
    auto& b = bytes_[i >> 2];
    b = static_cast<std::uint8_t>((b & ~(3u << (2 * (i & 3)))) | (static_cast<unsigned>(v) << (2 * (i & 3))));
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  WdlCounts counts() const;

 private:
  std::uint64_t positions_ = 0;
  std::vector<std::uint8_t> bytes_;
};

struct TableIdentity {
  std::string variant;  // the variant's name, with " (capture not compulsory)" under the house rule
  std::string rules;    // describe(RuleSet)
  Material material;
};

std::string render_table_file(const TableIdentity& id, const PackedValues& values,
                              const std::vector<std::uint8_t>& distances, const nlohmann::json& metadata);

struct TableContents {
  PackedValues values;
  std::vector<std::uint8_t> distances;
};

// Reads a slice; throws dama::Error "<origin>: <field>: <problem>".
TableContents parse_table_file(std::string_view bytes, const std::string& origin, const TableIdentity& expected,
                               std::uint64_t expected_positions);

// The header, checked for framing only (for `dama egtb info`).
nlohmann::json table_file_header(std::string_view bytes, const std::string& origin);

// DIR/<code>.wdl, e.g. egtb/russian/2110.wdl.
std::string table_path(const std::string& dir, const Material& m);

}  // namespace dama::egtb
