// Reference-data reading and move formatting for the tests (no generator
// instantiation here; see engine_moves.cpp and engine_perft.cpp).
#include "test_support.hpp"

#include <cctype>
#include <cstdio>
#include <charconv>
#include <fstream>
#include <stdexcept>

#ifndef DAMA_TEST_DATA_DIR
#error "DAMA_TEST_DATA_DIR must name tests/data"
#endif

namespace dama::test {

std::vector<std::string> split(std::string_view s, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(separator, start);
    parts.emplace_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

TsvTable read_tsv(std::string_view name) {
  TsvTable table;
  table.path = std::string(DAMA_TEST_DATA_DIR) + "/" + std::string(name);
  std::ifstream in(table.path);
  if (!in) throw std::runtime_error("cannot open reference data " + table.path);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = split(line, '\t');
    if (table.columns.empty()) {
      table.columns = fields;
      continue;
    }
    if (fields.size() != table.columns.size())
      throw std::runtime_error(table.path + ":" + std::to_string(line_number) + ": " + std::to_string(fields.size()) +
                               " fields, the header has " + std::to_string(table.columns.size()));
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < fields.size(); ++i) row[table.columns[i]] = fields[i];
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty()) throw std::runtime_error("no data rows in " + table.path);
  return table;
}

const std::string& field(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end()) throw std::runtime_error("reference data has no column '" + column + "'");
  return it->second;
}

std::vector<std::uint64_t> parse_counts(std::string_view list) {
  std::vector<std::uint64_t> counts;
  for (const std::string& item : split(list, ',')) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw std::runtime_error("bad node count '" + item + "' in '" + std::string(list) + "'");
    counts.push_back(value);
  }
  return counts;
}

std::string test_name(std::string_view text) {
  std::string name;
  for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

Counting parse_counting(std::string_view name) {
  if (name == "unique") return Counting::Unique;
  if (name == "paths") return Counting::Paths;
  throw std::runtime_error("unknown counting convention '" + std::string(name) + "'");
}

const char* counting_name(Counting counting) { return counting == Counting::Unique ? "unique" : "paths"; }

std::string PlainMove::identity() const {
  if (!is_capture()) return std::to_string(from) + "-" + std::to_string(to);
  std::string s = std::to_string(from) + "x" + std::to_string(to) + "[";
  for (std::size_t i = 0; i < captured.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(captured[i]);
  }
  return s + "]";
}

std::string PlainMove::identity_and_crowning() const { return identity() + (promotes ? " (king)" : ""); }

std::string PlainMove::path() const {
  if (!is_capture()) return std::to_string(from) + "-" + std::to_string(to);
  std::string s = std::to_string(from);
  for (int l : landings) {
    s += 'x';
    s += std::to_string(l);
  }
  s += 'x';
  s += std::to_string(to);
  return s;
}

std::vector<std::string> identities(const std::vector<PlainMove>& moves) {
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(m.identity_and_crowning());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> paths(const std::vector<PlainMove>& moves) {
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(m.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> parse_legal_moves_column(std::string_view column) {
  std::vector<std::string> moves;
  for (const std::string& word : split_words(column)) {
    if (word == "(king)") {
      if (moves.empty()) throw std::runtime_error("'(king)' before any move in '" + std::string(column) + "'");
      moves.back() += " (king)";
    } else {
      moves.push_back(word);
    }
  }
  std::sort(moves.begin(), moves.end());
  return moves;
}

template <class Board>
std::vector<Position<Board>> random_setups(std::uint64_t seed, int count) {
  const int max_pieces = Board::kStartMen;
  Random random(seed ^ 0x5E7095ULL);
  std::vector<Position<Board>> out;
  while (static_cast<int>(out.size()) < count) {
    Position<Board> p;
    p.side = random.below(2) ? Color::White : Color::Black;
    for (Color colour : {Color::White, Color::Black}) {
      const int pieces = 1 + random.below(max_pieces);
      for (int placed = 0, tries = 0; placed < pieces && tries < 1000; ++tries) {
        const auto square = Board::square_bit(1 + random.below(Board::kSquares));
        if (p.occupied() & square) continue;
        const bool king = random.below(3) == 0;
        if (!king && (square & Board::kCrowningRow[index(colour)])) continue;
        p.pieces[index(colour)] |= square;
        if (king) p.kings |= square;
        ++placed;
      }
    }
    out.push_back(p);
  }
  return out;
}

template std::vector<Position<Board8>> random_setups<Board8>(std::uint64_t, int);
template std::vector<Position<Board10>> random_setups<Board10>(std::uint64_t, int);
template std::vector<Position<Board10x8>> random_setups<Board10x8>(std::uint64_t, int);
template std::vector<Position<Towers<Board8>>> random_setups<Towers<Board8>>(std::uint64_t, int);

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::string command_output(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    if (status) *status = -1;
    return out;
  }
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int closed = ::pclose(pipe);
  if (status) *status = closed;
  return out;
}

}  // namespace dama::test
