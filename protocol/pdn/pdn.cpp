#include "pdn.hpp"

#include "utc_time.hpp"


namespace dama {

namespace {

// PGN's rule, which PDN keeps: a quote or backslash inside a tag value is
// escaped with a backslash.  Line breaks would end the tag: they become spaces.
std::string escaped(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

std::string tag(std::string_view name, std::string_view value) {
  return "[" + std::string(name) + " \"" + escaped(value) + "\"]\n";
}

}  // namespace

std::string pdn_date(std::chrono::system_clock::time_point when) { return utc_text(when, "%Y.%m.%d"); }

namespace detail {

std::string pdn_tag_section(const Variant& variant, const PdnTags& tags, std::string_view result,
                            std::string_view fen) {
  std::string out = tag("Event", tags.event) + tag("Site", tags.site) + tag("Date", tags.date) +
                    tag("Round", tags.round) + tag("White", tags.white) + tag("Black", tags.black) +
                    tag("Result", result) + tag("GameType", std::to_string(variant.pdn_game_type));
  // A variant without a GameType of its own (poddavki) is named by a private tag.
  if (variant_of_pdn_game_type(variant.pdn_game_type) != &variant) out += tag("Variant", variant.name);
  if (!fen.empty()) out += tag("SetUp", "1") + tag("FEN", fen);
  for (const auto& [name, value] : tags.extra) out += tag(name, value);
  return out + "\n";
}

std::string wrap_tokens(const std::vector<std::string>& tokens, std::size_t width) {
  std::string out, line;
  for (const auto& token : tokens) {
    if (!line.empty() && line.size() + 1 + token.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + token;
  }
  return out + line;
}

}  // namespace detail

}  // namespace dama
