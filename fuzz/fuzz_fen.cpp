// Any byte string given as a FEN either parses to a valid position that
// round-trips, or is refused with dama::Error — never a crash or a hang.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fen.hpp"

namespace {

template <class Board>
void check(std::string_view text) {
  try {
    const auto position = dama::parse_fen<Board>(text);
    if (dama::parse_fen<Board>(dama::to_fen(position)) != position) std::abort();
  } catch (const dama::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check<dama::Board8>(text);
  check<dama::Board10>(text);
  return 0;
}
