#include "regions.hpp"

#include <cstdio>
#include <vector>

#include "../error.hpp"

namespace dama {

namespace {

template <class Board>
std::string region_listing() {
  using T = PatternTables<Board>;
  std::string out;
  for (int r = 0; r < T::kRegions; ++r) {
    out += "r" + std::to_string(r) + " = squares";
    for (const int s : T::kRegionSquares[r]) out += " " + std::to_string(s);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string feature_name(FeatureSchema board, int feature) {
  const auto& names = feature_names(board);
  if (feature < static_cast<int>(names.size())) return names[static_cast<std::size_t>(feature)];
  const int p = feature - static_cast<int>(names.size());
  std::string digits;
  for (int i = 0, c = p % kPatternConfigurations; i < kPatternSquares; ++i, c /= 3) digits += static_cast<char>('0' + c % 3);
  return "pattern.r" + std::to_string(p / kPatternConfigurations) + "." + digits;
}

int pattern_feature_count(BoardShape board) {
  return with_board(board, []<class Board>() { return PatternTables<Board>::kFeatures; });
}

std::string describe_regions(BoardShape board) {
  return with_board(board, []<class Board>() { return region_listing<Board>(); });
}

const std::string& pattern_schema_hash(BoardShape board) {
  return with_board(board, []<class Board>() -> const std::string& {
    static const std::string hash = [] {
      // FNV-1a, 64 bits, over the named schema and the regions with their states.
      const std::string text = schema_hash(Board::kShape) + "\npatterns v1: men only, states empty/own/opponent\n" +
                               region_listing<Board>();
      std::uint64_t h = 0xcbf29ce484222325ULL;
      for (const unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
      }
      char digits[17];
      std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(h));
      return std::string(digits);
    }();
    return hash;
  });
}

}  // namespace dama
