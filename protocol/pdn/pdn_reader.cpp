// split_pdn_games and pdn_game_variant: the text of PDN, without the rules.
#include "pdn_reader.hpp"

#include <cctype>

#include "error.hpp"
#include "pdn_game_type.hpp"

namespace dama {

const PdnTag* PdnGameText::tag(std::string_view name) const {
  for (const auto& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Characters that end a word of movetext.
bool ends_word(char c) { return is_space(c) || std::string_view("{}[]();%").find(c) != std::string_view::npos; }

// A move strength: "!", "?", "!?", "*" (PDN 2.0's star move), "+", "#".
bool is_strength(std::string_view word) {
  return !word.empty() && word.find_first_not_of("!?*+#") == std::string_view::npos;
}

class Splitter {
 public:
  Splitter(std::string_view text, std::string_view source) : text_(text), source_(source) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark
  }

  std::vector<PdnGameText> games() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else if (c == '%') {
        skip_line();  // PDN 3.0's line comment (meant for the start of a line; taken wherever a word may begin)
      } else if (c == ';') {
        skip_line();
      } else if (c == '{') {
        skip_comment();
      } else if (c == '[') {
        read_tag();
      } else if (c == '(') {
        skip_variation();
      } else if (c == ')') {
        fail(line_, "')' closes no variation");
      } else if (c == ']' || c == '}') {
        fail(line_, std::string("stray '") + c + "'");
      } else {
        read_word();
      }
    }
    finish_game();
    return std::move(games_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw Error(std::string(source_) + ":" + std::to_string(line) + ": " + why);
  }

  PdnGameText& current() {
    if (!open_) {
      games_.emplace_back();
      games_.back().line = line_;
      open_ = true;
    }
    return games_.back();
  }
  void finish_game() { open_ = false; }

  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }

  void skip_comment() {
    const int start = line_;
    for (++pos_; pos_ < text_.size() && text_[pos_] != '}'; ++pos_) line_ += text_[pos_] == '\n';
    if (pos_ == text_.size()) fail(start, "comment '{' never closed");
    ++pos_;
  }

  // "(?)", "(!)", "(!?)": a strength in parentheses, not a variation.
  bool strength_in_parentheses() const {
    const std::size_t close = text_.find(')', pos_);
    return close != std::string_view::npos && close > pos_ + 1 && is_strength(text_.substr(pos_ + 1, close - pos_ - 1)) &&
           text_.substr(pos_ + 1, close - pos_ - 1).find('*') == std::string_view::npos;
  }

  // Variations are other lines of play: skipped whole, however nested.
  void skip_variation() {
    if (strength_in_parentheses()) {
      pos_ = text_.find(')', pos_) + 1;
      return;
    }
    const int start = line_;
    int depth = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{') {
        skip_comment();
        continue;
      }
      if (c == '\n') ++line_;
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) {
        ++pos_;
        return;
      }
      ++pos_;
    }
    fail(start, "variation '(' never closed");
  }

  // [Name "value"], with \" and \\ escaped inside the value.
  void read_tag() {
    const int start = line_;
    if (open_ && (!games_.back().moves.empty() || games_.back().terminator)) finish_game();  // a new game's tags
    std::size_t p = pos_ + 1;
    auto skip_blanks = [&] {
      while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
    };
    skip_blanks();
    const std::size_t name_start = p;
    while (p < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '_')) ++p;
    const std::string name(text_.substr(name_start, p - name_start));
    skip_blanks();
    if (name.empty() || p >= text_.size() || text_[p] != '"')
      fail(start, "bad tag '" + std::string(text_.substr(pos_, std::min<std::size_t>(40, text_.find('\n', pos_) - pos_))) +
                      "': expected [Name \"value\"]");
    std::string value;
    for (++p; p < text_.size() && text_[p] != '"'; ++p) {
      if (text_[p] == '\n') fail(start, "tag " + name + ": its value is never closed on its line");
      if (text_[p] == '\\' && p + 1 < text_.size() && (text_[p + 1] == '"' || text_[p + 1] == '\\')) ++p;
      value += text_[p];
    }
    if (p >= text_.size()) fail(start, "tag " + name + ": its value is never closed");
    ++p;
    skip_blanks();
    if (p >= text_.size() || text_[p] != ']') fail(start, "tag " + name + ": expected ']' after the value");
    pos_ = p + 1;
    current().tags.push_back({name, std::move(value), start});
  }

  void read_word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !ends_word(text_[pos_])) ++pos_;
    std::string_view word = text_.substr(start, pos_ - start);
    if (word.front() == '$') return;  // a NAG
    if (word.front() == '/') fail(line_, "setup commands inside the movetext (/FEN .../) are not supported");
    if (first_player_result(word)) {
      current().terminator = PdnToken{std::string(word), line_};
      finish_game();
      return;
    }
    // A move number, perhaps with the move glued on: "12.", "12...", "6.d4-e5".
    std::size_t digits = 0;
    while (digits < word.size() && is_digit(word[digits])) ++digits;
    if (digits > 0 && digits < word.size() && word[digits] == '.') {
      word.remove_prefix(digits);
      while (!word.empty() && word.front() == '.') word.remove_prefix(1);
    }
    while (word.substr(0, 3) == "\xE2\x80\xA6") word.remove_prefix(3);  // "…", an ellipsis character
    while (!word.empty() && word.front() == '.') word.remove_prefix(1);  // "...": the other side's move follows
    while (!word.empty() && std::string_view("!?*+#").find(word.back()) != std::string_view::npos) word.remove_suffix(1);
    if (word.empty()) return;
    current().moves.push_back({std::string(word), line_});
  }

  std::string_view text_, source_;
  std::size_t pos_ = 0;
  int line_ = 1;
  bool open_ = false;
  std::vector<PdnGameText> games_;
};

}  // namespace

std::vector<PdnGameText> split_pdn_games(std::string_view text, std::string_view source) {
  return Splitter(text, source).games();
}

namespace {

// Several variants may share a GameType (poddavki is written as 25, Russian
// draughts, with a private [Variant "poddavki"] tag): the tag names one
// (case aside), else the variant the caller expects if it shares the
// GameType, else the GameType's own.
const Variant& sharing_variant(const PdnGameText& game, const Variant& by_number, const Variant* expected) {
  if (const PdnTag* tag = game.tag("Variant")) {
    std::string name;
    for (char c : tag->value) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& v : kVariants)
      if (v.name == name && v.pdn_game_type == by_number.pdn_game_type) return v;
    return by_number;
  }
  if (expected && expected->pdn_game_type == by_number.pdn_game_type) return *expected;
  return by_number;
}

}  // namespace

const Variant& pdn_game_variant(const PdnGameText& game, const Variant* fallback, std::string_view source) {
  const PdnTag* tag = game.tag("GameType");
  const std::string where = std::string(source) + ":" + std::to_string(tag ? tag->line : game.line) + ": ";
  if (!tag) {
    if (fallback) return *fallback;
    throw Error(where + "the game has no GameType tag (give the variant)");
  }
  const std::string_view value = tag->value;
  std::size_t digits = 0;
  while (digits < value.size() && is_digit(value[digits])) ++digits;
  const Variant* variant = nullptr;
  if (digits > 0 && digits <= 3 && (digits == value.size() || value[digits] == ','))
    variant = variant_of_pdn_game_type(std::stoi(std::string(value.substr(0, digits))));
  if (variant) return sharing_variant(game, *variant, fallback);
  std::string known;
  for (const auto& v : kVariants)
    known += (known.empty() ? "" : ", ") + std::to_string(v.pdn_game_type) + " " + std::string(v.name);
  throw Error(where + "GameType '" + std::string(value) + "' is not a game dama plays (known: " + known + ")");
}

}  // namespace dama
