#include "features.hpp"

#include <cstdio>
#include <utility>

#include "error.hpp"

namespace dama {

namespace {

template <class Board>
std::vector<std::string> make_feature_names() {
  using Layout = FeatureLayout<Board>;
  std::vector<std::string> names(Layout::kCount);
  for (int f = 0; f < kNamedFeatureCount; ++f) names[f] = std::string(kNamedFeatureNames[f]);
  for (int s = Board::kSquaresPerRow + 1; s <= Board::kSquares; ++s)
    names[Layout::kPstMan + s - Board::kSquaresPerRow - 1] = "pst.man." + std::to_string(s);
  for (int s = 1; s <= Board::kSquares; ++s) names[Layout::kPstKing + s - 1] = "pst.king." + std::to_string(s);
  if constexpr (kHoldsTowers<Board>) {
    names[Layout::kTowerReserve] = std::string(kTowerFeatureNames[0]);
    names[Layout::kTowerPrisoners] = std::string(kTowerFeatureNames[1]);
  }
  return names;
}

// Runs f.template operator()<Board>() with the board type of the schema.
template <class F>
decltype(auto) with_schema(FeatureSchema schema, F&& f) {
  if (!schema.towers) return with_board(schema.board, std::forward<F>(f));
  if (schema.board == BoardShape{8, 8}) return f.template operator()<Towers<Board8>>();
  throw Error("no variant has towers on a " + shape_name(schema.board) + " board");
}

// FNV-1a, 64 bits: tiny, stable across platforms and releases.
std::string fnv1a_hex(const std::vector<std::string>& names) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const auto& name : names) {
    for (const unsigned char c : name + '\n') {
      h ^= c;
      h *= 0x100000001b3ULL;
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace

int feature_count(FeatureSchema schema) {
  return with_schema(schema, []<class Board>() { return FeatureLayout<Board>::kCount; });
}

const std::vector<std::string>& feature_names(FeatureSchema schema) {
  return with_schema(schema, []<class Board>() -> const std::vector<std::string>& {
    static const std::vector<std::string> names = make_feature_names<Board>();
    return names;
  });
}

const std::string& schema_hash(FeatureSchema schema) {
  return with_schema(schema, []<class Board>() -> const std::string& {
    static const std::string hash = fnv1a_hex(make_feature_names<Board>());
    return hash;
  });
}

}  // namespace dama
