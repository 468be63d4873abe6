#include "hub_protocol.hpp"

#include <cctype>

namespace dama::hub {

bool Line::has(std::string_view name) const {
  return std::any_of(args.begin(), args.end(), [&](const auto& a) { return a.first == name; });
}

std::optional<std::string> Line::get(std::string_view name) const {
  for (const auto& [key, value] : args)
    if (key == name) return value;
  return std::nullopt;
}

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Reads a bare word or a quoted string starting at text[i]; advances i.
std::string read_value(std::string_view text, std::size_t& i, bool stop_at_equals) {
  std::string out;
  if (i < text.size() && text[i] == '"') {
    const std::size_t close = text.find('"', i + 1);
    if (close == std::string_view::npos) throw Error("hub: unterminated quote in '" + std::string(text) + "'");
    out = text.substr(i + 1, close - i - 1);
    i = close + 1;
    return out;
  }
  while (i < text.size() && !is_space(text[i]) && !(stop_at_equals && text[i] == '=')) out += text[i++];
  return out;
}

}  // namespace

Line parse_line(std::string_view text) {
  Line line;
  std::size_t i = 0;
  auto skip_spaces = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
  };
  skip_spaces();
  line.command = read_value(text, i, false);
  while (true) {
    skip_spaces();
    if (i >= text.size()) break;
    std::string name = read_value(text, i, true);
    std::string value;
    if (i < text.size() && text[i] == '=') {
      ++i;
      value = read_value(text, i, false);
    }
    line.args.emplace_back(std::move(name), std::move(value));
  }
  return line;
}

std::string quote(std::string_view value) {
  const bool plain = !value.empty() && value.find_first_of(" \t=\"") == std::string_view::npos;
  return plain ? std::string(value) : "\"" + std::string(value) + "\"";
}

}  // namespace dama::hub
