#include "variant.hpp"

#include <sstream>

namespace dama {

namespace {

const char* to_string(CaptureChoice c) {
  switch (c) {
    case CaptureChoice::Any: return "any";
    case CaptureChoice::KingFirst: return "king-first";
    case CaptureChoice::MostPieces: return "most-pieces";
    case CaptureChoice::MostPiecesThenKings: return "most-pieces-then-kings";
    case CaptureChoice::Italian: return "italian-order";
  }
  return "?";
}

const char* to_string(CrowningInCapture c) {
  switch (c) {
    case CrowningInCapture::ContinueAsKing: return "continue-as-king";
    case CrowningInCapture::EndsMove: return "ends-move";
    case CrowningInCapture::OnlyIfEnds: return "only-if-capture-ends";
  }
  return "?";
}

}  // namespace

RuleSet rules_of(const Variant& variant, bool no_forced_capture) {
  if (!no_forced_capture) return variant.rules;
  if (!(variant.rules.board == BoardShape{8, 8}))
    throw Error("--no-forced-capture: the house rule exists for 8x8 variants only, not " + std::string(variant.name));
  if (!has_house_rule(variant.rules))
    throw Error("--no-forced-capture: " + std::string(variant.name) + " has no house rule" +
                (no_move_wins(variant.rules) ? ": compulsory capture is what the give-away game is played with" : ""));
  return variant.rules.without_forced_capture();
}

std::string variant_names() {
  std::string known;
  for (const auto& v : kVariants) known += (known.empty() ? "" : ", ") + std::string(v.name);
  return known;
}

const Variant& find_variant(std::string_view name) {
  for (const auto& v : kVariants)
    if (v.name == name || (!v.alias.empty() && v.alias == name)) return v;
  throw Error("unknown variant '" + std::string(name) + "' (known: " + variant_names() + ")");
}

bool is_compiled(const RuleSet& rules) {
  for (const auto& r : kCompiledRuleSets)
    if (r == rules) return true;
  return false;
}

void throw_not_compiled(const RuleSet& rules) {
  throw Error("unsupported rule combination: " + describe(rules) +
              " (capture not compulsory is a house rule for 8x8 variants only, poddavki and bashni excepted)");
}

std::string describe(const RuleSet& r) {
  std::ostringstream out;
  out << "board=" << shape_name(r.board)
      << " first-player=" << (r.first_player == Color::White ? "white" : "black")
      << " men-capture-backwards=" << (r.men_capture_backwards ? "yes" : "no")
      << " kings=" << (r.flying_kings ? "flying" : "short")
      << " men-capture-kings=" << (r.men_capture_kings ? "yes" : "no")
      << " capture-choice=" << to_string(r.choice)
      << " crowning-in-capture=" << to_string(r.crowning)
      << " removal=" << (r.removal == Removal::AtEnd ? "at-end" : "at-once")
      << " forced-capture=" << (r.forced_capture ? "yes" : "no");
  // Said only where it is not the usual: the description is stored in
  // datasets and endgame tables, whose files from before poddavki must
  // still match their rules.
  if (no_move_wins(r)) out << " no-move=wins";
  if (has_towers(r)) out << " prisoners=under-capturer";
  return out.str();
}

}  // namespace dama
