#include "game.hpp"

namespace dama {

DrawRules parse_draw_rules(std::string_view name) {
  if (name == "default") return DrawRules::Default;
  if (name == "tournament") return DrawRules::Tournament;
  throw Error("unknown draw rules '" + std::string(name) + "' (expected default or tournament)");
}

std::string_view draw_rules_name(DrawRules rules) {
  return rules == DrawRules::Tournament ? "tournament" : "default";
}

namespace {

// The variant a rule set belongs to, with or without the house rule.
std::string variant_name_of(const RuleSet& rules) {
  for (const auto& v : kVariants)
    if (v.rules.without_forced_capture() == rules.without_forced_capture()) return std::string(v.name);
  return describe(rules);
}

}  // namespace

void check_draw_rules(DrawRules draw_rules, const RuleSet& rules) {
  if (draw_rules != DrawRules::Tournament) return;
  // The house rule (capture not compulsory) is still russian as far as the
  // end of the game goes.
  if (rules.without_forced_capture() != find_variant("russian").rules.without_forced_capture())
    throw Error("tournament draw rules exist for russian only, not for " + variant_name_of(rules));
}

std::string_view GameResult::text() const {
  switch (outcome) {
    case Outcome::FirstPlayerWins: return "1-0";
    case Outcome::SecondPlayerWins: return "0-1";
    case Outcome::Draw: return "1/2-1/2";
    case Outcome::Ongoing: break;
  }
  return "*";
}

}  // namespace dama
