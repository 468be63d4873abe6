// The endgame tables of one rule set in memory: every slice loaded (or just
// built), and the probe the search, self-play and `dama egtb probe` use.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "../atomic_file.hpp"
#include "../error.hpp"
#include "../move.hpp"
#include "../position.hpp"
#include "../variant.hpp"
#include "index.hpp"
#include "table_file.hpp"

namespace dama::egtb {

// The name the table files carry: the variant, and the house rule if on.
std::string rules_name(const RuleSet& rules);

// The signature of a position with White to move.
template <class Board>
Material material_of(const Position<Board>& q) {
  return {popcount(q.men(Color::White)), popcount(q.kings_of(Color::White)), popcount(q.men(Color::Black)),
          popcount(q.kings_of(Color::Black))};
}

template <RuleSet R>
TableIdentity identity_of(const Material& m) {
  return {rules_name(R), describe(R), m};
}

// A slice is indexed by where the top pieces stand; bashni's towers hold
// pieces under them that no index here counts, so it has no tables.
template <RuleSet R>
void refuse_towers(const std::string& what) {
  if constexpr (has_towers(R))
    throw Error(what + ": bashni has no endgame tables (a table indexes single pieces, not towers)");
}

template <RuleSet R>
class Tablebase {
 public:
  using Board = BoardFor<R>;
  using Pos = Position<Board>;
  using Index = SliceIndex<Board>;

  struct Slice {
    Index index;
    PackedValues values;
    std::vector<std::uint8_t> distances;
  };

  // Every slice file of `dir` (DIR/<code>.wdl), each checked; throws
  // dama::Error naming the file for a bad one or a directory with none.
  static Tablebase load(const std::string& dir, const std::string& what = "--egtb") {
    refuse_towers<R>(what);
    Tablebase tb;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw Error(what + " " + dir + ": not a directory");
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".wdl") continue;
      Material m;
      if (!parse_material(entry.path().stem().string(), m) || m.pieces() > kMaxTablePieces) continue;
      tb.load_slice(dir, m);
    }
    if (tb.largest_ == 0) throw Error(what + " " + dir + ": no endgame table files (*.wdl) in it");
    return tb;
  }

  // Reads DIR/<code>.wdl into the slot of m (checked).
  void load_slice(const std::string& dir, const Material& m) {
    const std::string path = table_path(dir, m);
    Index index(m);
    TableContents contents = parse_table_file(read_whole_file(path), path, identity_of<R>(m), index.size());
    add(m, std::move(contents.values), std::move(contents.distances));
  }

  void add(const Material& m, PackedValues values, std::vector<std::uint8_t> distances) {
    slot(m) = std::make_unique<Slice>(Slice{Index(m), std::move(values), std::move(distances)});
    largest_ = std::max(largest_, m.pieces());
    ++slices_;
  }

  bool has(const Material& m) const { return slot(m) != nullptr; }
  const Slice* slice(const Material& m) const { return slot(m).get(); }
  int largest_pieces() const { return largest_; }
  int slice_count() const { return slices_; }
  // Whether every signature of up to n pieces is loaded.
  bool complete_to(int n) const {
    for (const Material& m : materials_in_build_order(n))
      if (!has(m)) return false;
    return true;
  }

  // The value for the side to move, the draw counters ignored; nothing when
  // no table holds the position.
  std::optional<Wdl> probe(const Pos& p) const {
    const auto e = probe_entry(p);
    if (!e) return std::nullopt;
    return e->value;
  }

  struct Entry {
    Wdl value;
    int distance;  // plies to a capture, a crowning or the end (see table_file.hpp)
  };
  // The value and the distance; nothing when no table holds the position.
  std::optional<Entry> probe_entry(const Pos& p) const {
    const auto own = p.of(p.side);
    // No pieces: no move (lost, won in poddavki).  The opponent without
    // pieces had no move on its turn already: the other way round.
    if (own == 0) return Entry{no_move_value(no_move_wins(R)), 0};
    if (own == p.occupied()) return Entry{negate(no_move_value(no_move_wins(R))), 0};
    if (popcount(p.occupied()) > largest_) return std::nullopt;
    const Pos q = p.side == Color::White ? p : p.flipped();
    const auto& s = slot(material_of(q));
    if (!s) return std::nullopt;
    const std::uint64_t i = s->index.index(q);
    return Entry{s->values.get(i), s->distances[i]};
  }

 private:
  static std::size_t slot_of(const Material& m) {
    constexpr std::size_t k = kMaxTablePieces + 1;
    return ((static_cast<std::size_t>(m.own_men) * k + m.own_kings) * k + m.other_men) * k + m.other_kings;
  }
  std::unique_ptr<Slice>& slot(const Material& m) { return (*slots_)[slot_of(m)]; }
  const std::unique_ptr<Slice>& slot(const Material& m) const { return (*slots_)[slot_of(m)]; }

  static constexpr std::size_t kSlots = (kMaxTablePieces + 1) * (kMaxTablePieces + 1) * (kMaxTablePieces + 1) * (kMaxTablePieces + 1);
  std::unique_ptr<std::array<std::unique_ptr<Slice>, kSlots>> slots_ =
      std::make_unique<std::array<std::unique_ptr<Slice>, kSlots>>();
  int largest_ = 0;
  int slices_ = 0;
};

// The move the tables choose in p (all of whose successors they hold).  In a
// won position: a capture or crowning that keeps the win, else the winning
// move nearest to one (the distance: win/draw/loss alone cannot show
// progress, and a king ending can be walked round for ever); in a lost
// one, the move that delays the loss longest; in a drawn one, a drawing
// move, captures first.  Returns an index into `moves` (not empty).
template <RuleSet R>
int best_move(const Tablebase<R>& tables, const Position<BoardFor<R>>& p, const MoveList<BoardFor<R>>& moves) {
  const auto rank = [&](const Move<BoardFor<R>>& m) -> long {
    const auto child = tables.probe_entry(p.after(m));
    if (!child) return -1000000;
    const bool converts = m.is_capture() || m.promotes;
    const int distance = converts ? 0 : child->distance;
    switch (child->value) {
      case Wdl::Loss: return 300000 - distance;  // our win: sooner is better
      case Wdl::Draw: return 200000 + (converts ? 1 : 0);
      default: return 100000 + distance;          // our loss: later is better
    }
  };
  int best = 0;
  long best_rank = rank(moves[0]);
  for (int i = 1; i < moves.size(); ++i)
    if (const long r = rank(moves[i]); r > best_rank) best = i, best_rank = r;
  return best;
}

}  // namespace dama::egtb
