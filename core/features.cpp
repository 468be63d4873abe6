#include "features.hpp"

#include <cstdio>

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
  return names;
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

int feature_count(BoardShape board) {
  return with_board(board, []<class Board>() { return FeatureLayout<Board>::kCount; });
}

const std::vector<std::string>& feature_names(BoardShape board) {
  return with_board(board, []<class Board>() -> const std::vector<std::string>& {
    static const std::vector<std::string> names = make_feature_names<Board>();
    return names;
  });
}

const std::string& schema_hash(BoardShape board) {
  return with_board(board, []<class Board>() -> const std::string& {
    static const std::string hash = fnv1a_hex(feature_names(Board::kShape));
    return hash;
  });
}

}  // namespace dama
