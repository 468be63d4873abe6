#include "dxp/dxp_message.hpp"

#include <algorithm>

#include "error.hpp"

namespace dama::dxp {

namespace {

// Reads fixed-width fields left to right, naming the message and the field
// in every complaint.
class FieldReader {
 public:
  FieldReader(std::string_view text, const char* type) : text_(text), type_(type) {}

  std::string_view take(std::size_t width, const char* field) {
    if (pos_ + width > text_.size())
      fail(std::string(field) + " missing (the message has " + std::to_string(text_.size()) + " characters)");
    const std::string_view out = text_.substr(pos_, width);
    pos_ += width;
    return out;
  }

  int number(std::size_t width, const char* field, int lo, int hi) {
    const std::string_view digits = take(width, field);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      fail(std::string(field) + " '" + std::string(digits) + "' is not " + std::to_string(width) + " digits");
    const int value = std::stoi(std::string(digits));
    if (value < lo || value > hi)
      fail(std::string(field) + " " + std::to_string(value) + " is outside " + std::to_string(lo) + ".." +
           std::to_string(hi));
    return value;
  }

  char one_of(const char* field, std::string_view allowed) {
    const char c = take(1, field)[0];
    if (allowed.find(c) == std::string_view::npos)
      fail(std::string(field) + " '" + std::string(1, c) + "' is not one of " + std::string(allowed));
    return c;
  }

  Color color(const char* field) { return one_of(field, "WZ") == 'W' ? Color::White : Color::Black; }

  std::string_view rest() {
    const std::string_view out = text_.substr(pos_);
    pos_ = text_.size();
    return out;
  }

  void end() const {
    if (pos_ != text_.size())
      fail(std::to_string(text_.size() - pos_) + " characters too many after the last field");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(std::string("DXP ") + type_ + " message '" + std::string(text_) + "': " + what);
  }

 private:
  std::string_view text_;
  const char* type_;
  std::size_t pos_ = 1;  // after the type character
};

std::string digits(int value, int width, const char* field) {
  std::string s = std::to_string(value);
  if (value < 0 || s.size() > static_cast<std::size_t>(width))
    throw Error(std::string("DXP: ") + field + " " + s + " does not fit in " + std::to_string(width) + " digits");
  return std::string(static_cast<std::size_t>(width) - s.size(), '0') + s;
}

char color_char(Color c) { return c == Color::White ? 'W' : 'Z'; }

std::string name_field(FieldReader& in, const char* field) {
  std::string name(in.take(kNameWidth, field));
  name.erase(name.find_last_not_of(' ') + 1);
  return name;
}

Message parse_request(FieldReader& in) {
  GameRequest r;
  r.version = in.number(2, "version", 0, 99);
  r.initiator_name = name_field(in, "initiator name");
  r.follower_color = in.color("follower colour");
  r.minutes = in.number(3, "thinking time", 0, 999);
  r.moves = in.number(3, "number of moves", 0, 999);
  if (in.one_of("starting position", "AB") == 'B') {
    r.to_move = in.color("colour to move");
    const std::string_view squares = in.take(kSquares, "position");
    for (std::size_t i = 0; i < squares.size(); ++i)
      if (std::string_view("ewzWZ").find(squares[i]) == std::string_view::npos)
        in.fail("position: square " + std::to_string(i + 1) + " has '" + std::string(1, squares[i]) +
                "' (expected e, w, z, W or Z)");
    r.squares = std::string(squares);
  }
  in.end();
  return r;
}

Message parse_move(FieldReader& in) {
  MoveMessage m;
  m.seconds = in.number(4, "time", 0, 9999);
  m.from = in.number(2, "from square", 1, kSquares);
  m.to = in.number(2, "to square", 1, kSquares);
  const int n = in.number(2, "number captured", 0, 20);
  for (int i = 0; i < n; ++i) m.captured.push_back(in.number(2, "captured square", 1, kSquares));
  in.end();
  return m;
}

}  // namespace

std::string padded_name(std::string_view name) {
  std::string s(name.substr(0, kNameWidth));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  s.erase(0, s.find_first_not_of(' '));  // the spec: a name does not start with a blank
  if (s.empty()) s = "?";
  s.resize(kNameWidth, ' ');
  return s;
}

Message parse(std::string_view text) {
  if (text.empty()) throw Error("DXP: empty message");
  if (text.size() > kMaxMessageLength)
    throw Error("DXP message of " + std::to_string(text.size()) + " characters (at most " +
                std::to_string(kMaxMessageLength) + ")");
  switch (text[0]) {
    case 'R': {
      FieldReader in(text, "GAMEREQ");
      return parse_request(in);
    }
    case 'A': {
      FieldReader in(text, "GAMEACC");
      GameAccept a;
      a.follower_name = name_field(in, "follower name");
      a.code = static_cast<Acceptance>(in.one_of("acceptance code", "0123"));
      in.end();
      return a;
    }
    case 'M': {
      FieldReader in(text, "MOVE");
      return parse_move(in);
    }
    case 'E': {
      FieldReader in(text, "GAMEEND");
      GameEnd e;
      e.reason = static_cast<EndReason>(in.one_of("reason", "0123"));
      e.stop = in.one_of("stop code", "01") == '1';
      in.end();
      return e;
    }
    case 'C': {
      FieldReader in(text, "CHAT");
      return Chat{std::string(in.rest())};
    }
    case 'B': {
      FieldReader in(text, "BACKREQ");
      BackRequest b;
      b.move_number = in.number(3, "move number", 1, 999);
      b.to_move = in.color("colour to move");
      in.end();
      return b;
    }
    case 'K': {
      FieldReader in(text, "BACKACC");
      BackAccept k;
      k.code = static_cast<BackAnswer>(in.one_of("acceptance code", "012"));
      in.end();
      return k;
    }
    default:
      throw Error("DXP message '" + std::string(text) + "': unknown type '" + std::string(1, text[0]) + "'");
  }
}

std::string format(const Message& message) {
  struct Writer {
    std::string operator()(const GameRequest& r) const {
      std::string s = "R" + digits(r.version, 2, "version") + padded_name(r.initiator_name) +
                      color_char(r.follower_color) + digits(r.minutes, 3, "thinking time") +
                      digits(r.moves, 3, "number of moves");
      if (r.squares.empty()) return s + "A";
      if (r.squares.size() != static_cast<std::size_t>(kSquares))
        throw Error("DXP GAMEREQ: a position has 50 squares, not " + std::to_string(r.squares.size()));
      return s + "B" + color_char(r.to_move) + r.squares;
    }
    std::string operator()(const GameAccept& a) const {
      return "A" + padded_name(a.follower_name) + static_cast<char>(a.code);
    }
    std::string operator()(const MoveMessage& m) const {
      std::string s = "M" + digits(std::min(m.seconds, 9999), 4, "time") + digits(m.from, 2, "from square") +
                      digits(m.to, 2, "to square") + digits(static_cast<int>(m.captured.size()), 2, "number captured");
      for (int sq : m.captured) s += digits(sq, 2, "captured square");
      return s;
    }
    std::string operator()(const GameEnd& e) const {
      return std::string("E") + static_cast<char>(e.reason) + (e.stop ? '1' : '0');
    }
    std::string operator()(const Chat& c) const {
      std::string text = c.text.substr(0, kMaxMessageLength - 1);
      for (char& ch : text)
        if (static_cast<unsigned char>(ch) < 1 || static_cast<unsigned char>(ch) > 127) ch = '?';
      return "C" + (text.empty() ? std::string(" ") : text);
    }
    std::string operator()(const BackRequest& b) const {
      return "B" + digits(b.move_number, 3, "move number") + color_char(b.to_move);
    }
    std::string operator()(const BackAccept& k) const { return std::string("K") + static_cast<char>(k.code); }
  };
  return std::visit(Writer{}, message);
}

const char* type_name(const Message& message) {
  static constexpr const char* kNames[] = {"GAMEREQ", "GAMEACC", "MOVE", "GAMEEND", "CHAT", "BACKREQ", "BACKACC"};
  return kNames[message.index()];
}

}  // namespace dama::dxp
