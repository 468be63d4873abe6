// Any byte string typed as a move in a few fixed positions is either read as
// one of the legal moves or refused with dama::Error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fen.hpp"
#include "notation.hpp"

namespace {

template <dama::RuleSet R>
void check(const char* fen, std::string_view text) {
  using Board = dama::BoardFor<R>;
  const auto position = dama::parse_fen<Board>(fen);
  dama::MoveList<Board> legal;
  dama::MoveGenerator<R>::generate(position, legal);
  try {
    const auto move = dama::parse_move<R>(position, text);
    bool found = false;
    for (const auto& m : legal) found |= m.same_identity(move);
    if (!found) std::abort();
  } catch (const dama::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check<dama::kVariants[0].rules>("W:W21-32:B1-12", text);
  check<dama::kVariants[0].rules>("W:WK32:B9,10,11,18,19", text);
  check<dama::kVariants[2].rules>("W:W23:B10,11,18,19", text);
  check<dama::kVariants[6].rules>("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", text);
  return 0;
}
