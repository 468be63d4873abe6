// Any byte string read as a PDN file is either read and replayed or refused
// with dama::Error naming the source -- never another exception or a crash.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pdn/pdn_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& game : dama::split_pdn_games(text, "fuzz.pdn")) {
      const dama::Variant& variant = dama::pdn_game_variant(game, &dama::kVariants[0], "fuzz.pdn");
      dama::with_rules(variant.rules, [&]<dama::RuleSet R>() { dama::replay_pdn_game<R>(game, variant, "fuzz.pdn"); });
    }
  } catch (const dama::Error& e) {
    if (std::string_view(e.what()).substr(0, 9) != "fuzz.pdn:") std::abort();
  }
  return 0;
}
