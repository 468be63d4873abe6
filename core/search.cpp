#include "search.hpp"

namespace dama {

std::string format_score(Score s) {
  if (s > kWinBound) return "win " + std::to_string(kWinScore - s);
  if (s < -kWinBound) return "loss " + std::to_string(kWinScore + s);
  if (s > kTableWinBound) return "table win (" + std::to_string(s) + ")";
  if (s < -kTableWinBound) return "table loss (" + std::to_string(s) + ")";
  return std::to_string(s);
}

}  // namespace dama
